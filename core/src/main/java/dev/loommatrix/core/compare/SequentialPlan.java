package dev.loommatrix.core.compare;

import dev.loommatrix.core.stats.NestedPaired;
import dev.loommatrix.core.stats.SignedRank;
import java.util.ArrayList;
import java.util.List;

/**
 * How an A/B run looks at its data more than once without crying wolf more often (issue #30): a
 * <em>group-sequential design with Bonferroni alpha spending</em>. The looks — the pair counts at which every
 * comparison still undecided is tested again — are fixed before the first pair is measured: the first pass, then
 * half as many pairs again each time, up to the pair budget. Every look tests at α / J, J the number of looks
 * planned, so a comparison with no change is flagged at some look with probability at most J · α / J = α,
 * whatever the dependence between looks (the union bound; the tests are exact). A run whose time budget would end
 * before its last planned look makes the last look it can afford its last: that look takes every pair the budget
 * affords and tests at all the α left ({@link #level}) — decided from the pace before the look's own data, so the
 * levels taken still sum to α. Across the comparisons of a look, Benjamini–Hochberg at that level,
 * as in a single look; under no change anywhere (an A/A run) the chance of any false alarm is at most α.
 *
 * <p>A comparison is <em>decided</em> when its interval clears the threshold on either side: a change found
 * significant and beyond the threshold (a regression or an improvement), or an interval that lies within
 * ±threshold (unchanged: whatever changed is smaller than the threshold). Otherwise it is undecided; still
 * undecided at the last look or when the budget runs out, it is {@code inconclusive}, with the change it could
 * still have detected.
 *
 * @param looks the pair counts of the looks, increasing
 * @param alpha the false-alarm rate spent over all of them
 */
public record SequentialPlan(List<Integer> looks, double alpha) {

    /** Each look adds half as many pairs again (rounded up): few looks, so each keeps much of α. */
    static final double GROWTH = 1.5;

    public SequentialPlan {
        looks = List.copyOf(looks);
        if (looks.isEmpty() || looks.get(0) < 1) {
            throw new IllegalArgumentException("a sequential plan needs a first look of at least one pair");
        }
    }

    /** Looks at {@code firstPass}, then ×1.5 each, the last at {@code maxPairs} (at most; at least the first). */
    public static SequentialPlan of(int firstPass, int maxPairs, double alpha) {
        List<Integer> looks = new ArrayList<>(List.of(firstPass));
        while (true) {
            int last = looks.get(looks.size() - 1);
            int next = Math.min(maxPairs, (int) Math.ceil(last * GROWTH));
            if (next <= last) {
                break;
            }
            looks.add(next);
        }
        return new SequentialPlan(looks, alpha);
    }

    /** The level each look tests at: α spent evenly over the looks planned. */
    public double levelPerLook() {
        return alpha / looks.size();
    }

    /**
     * The level look {@code look} (from 0) tests at: α / J, or, when it is the last look the run takes — the plan's
     * last, or the last the budget affords — all the α the earlier looks left: α − look · α / J. The levels of the
     * looks taken sum to α at most, so the union bound still holds; the last look of a run its budget ends early
     * no longer leaves α unspent.
     */
    public double level(int look, boolean last) {
        return last ? alpha - look * levelPerLook() : levelPerLook();
    }

    public int firstPass() {
        return looks.get(0);
    }

    public int maxPairs() {
        return looks.get(looks.size() - 1);
    }

    /** The pairs with which the paired (signed-rank) test can reach {@code level / comparisons}: 2 / 2ⁿ ≤ it. */
    public static int pairsNeeded(double level, long comparisons) {
        int n = 1;
        while (SignedRank.smallestP(n) > level / Math.max(1, comparisons) && n < 1000) {
            n++;
        }
        return n;
    }

    /**
     * The pairs a cell's test needs before it can flag one change among {@code comparisons} at a look's level: the
     * nested t ({@code nested}: every fork measures iterations) {@link NestedPaired#MIN_PAIRS}, the signed-rank test
     * its N (2 / 2ⁿ ≤ level / comparisons).
     */
    public int pairsNeeded(boolean nested, long comparisons) {
        return nested ? NestedPaired.MIN_PAIRS : pairsNeeded(levelPerLook(), comparisons);
    }

    /**
     * A cell's first pass: the first look at which its test can flag a change (a look before it would be spent on
     * a test that cannot say anything), else, when no look is that far, exactly what the test needs. Either way
     * the cell's comparisons are tested at most J times, each at α / J: the looks it skips make room for the one
     * count outside the looks.
     */
    public int firstPass(boolean nested, long comparisons) {
        int needed = pairsNeeded(nested, comparisons);
        return looks.stream().filter(l -> l >= needed).findFirst().orElse(needed);
    }

    /**
     * Whether a comparison (judged at a look's level) is decided: a regression or an improvement, or unchanged
     * with its whole interval within ±threshold.
     */
    public static boolean decided(Comparison c, double threshold) {
        return switch (c.verdict()) {
            case regression, improvement -> true;
            case unchanged -> withinThreshold(c, threshold);
            case inconclusive -> false;
        };
    }

    /**
     * The half-width (log scale) a comparison's interval at {@code level} should have after {@code pairs} pairs, at
     * the noise its pairs showed so far (the standard deviation of a pair's log-ratio, {@link Comparison#noise}): a
     * t interval's t<sub>n−1</sub> · σ / √n. Empty when the comparison says no noise.
     */
    public static java.util.OptionalDouble projectedHalfWidth(Comparison c, int pairs, double level) {
        if (c.noise() == null || !Double.isFinite(c.noise()) || pairs < 2) {
            return java.util.OptionalDouble.empty();
        }
        double sd = Math.log1p(c.noise());
        return java.util.OptionalDouble.of(org.apache.commons.statistics.distribution.TDistribution.of(pairs - 1)
                        .inverseSurvivalProbability(level / 2)
                * sd
                / Math.sqrt(pairs));
    }

    /**
     * Whether an undecided comparison cannot be decided within {@code pairsAtMost} pairs (futility, issue #30): its
     * projected interval at the most pairs it can get, at the largest level a later look can test at, would be
     * wider than twice the threshold — too wide to fit within ±threshold even were its estimate to fall to nothing
     * and its noise to have looked twice what it is (six pairs' standard deviation is that uncertain) — and its
     * estimate is not beyond the threshold by that projected half-width (where a change could be found). Such a
     * comparison is measured no more, so the budget goes to those that can be decided; stopping never rejects, so
     * the false-alarm rate can only fall. A comparison without a noise estimate is never futile.
     */
    public static boolean futile(Comparison c, int pairsAtMost, double level, double threshold) {
        return futileHalfWidth(c, pairsAtMost, level, threshold).isPresent();
    }

    /**
     * The projected half-width (log scale) that makes a comparison {@link #futile} — what its report says it would
     * still be — or empty when the comparison is not futile.
     */
    public static java.util.OptionalDouble futileHalfWidth(
            Comparison c, int pairsAtMost, double level, double threshold) {
        var halfWidth = projectedHalfWidth(c, pairsAtMost, level);
        if (halfWidth.isEmpty() || !(c.ratio() > 0)) {
            return java.util.OptionalDouble.empty();
        }
        double limit = Math.log1p(threshold);
        double h = halfWidth.getAsDouble();
        return h > 2 * limit && Math.abs(Math.log(c.ratio())) < limit + h
                ? halfWidth
                : java.util.OptionalDouble.empty();
    }

    /** The comparison's interval (a ratio) lies within 1 / (1 + threshold) … 1 + threshold. */
    static boolean withinThreshold(Comparison c, double threshold) {
        List<Double> ci = c.ci95();
        if (ci == null || ci.size() != 2 || ci.stream().anyMatch(v -> v == null || !Double.isFinite(v))) {
            return false;
        }
        return ci.get(0) >= 1 / (1 + threshold) && ci.get(1) <= 1 + threshold;
    }
}
