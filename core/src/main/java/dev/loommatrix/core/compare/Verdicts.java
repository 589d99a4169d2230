package dev.loommatrix.core.compare;

import dev.loommatrix.core.stats.MannWhitney;
import dev.loommatrix.core.stats.SignedRank;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The verdicts over all comparisons at once: Benjamini–Hochberg control of the false discovery rate, then each
 * comparison's regression, improvement, unchanged — or inconclusive where its test could not reach significance.
 */
final class Verdicts {

    private Verdicts() {}

    /**
     * Benjamini–Hochberg over the comparisons that have a p-value, then each verdict. A comparison is
     * {@code inconclusive} when its sample sizes could not reach significance even as the only real change
     * among {@code m} comparisons: its smallest attainable p (complete separation) above α / m, the level
     * BH asks of a lone discovery. With 5 repetitions a side that is m ≤ 6; the report says how many
     * repetitions this many comparisons need ({@link #repetitionsNeeded}).
     */
    static List<Comparison> decide(List<Comparison> raw, double threshold, double alpha) {
        double[] adjusted =
                benjaminiHochberg(raw.stream().mapToDouble(Comparison::pValue).toArray());
        long m = raw.stream().filter(c -> !Double.isNaN(c.pValue())).count();
        List<Comparison> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            Comparison c = raw.get(i);
            Comparison.Verdict verdict = reachable(c, alpha, m)
                    ? verdict(c, adjusted[i] <= alpha, threshold)
                    : Comparison.Verdict.inconclusive;
            out.add(c.withAdjusted(adjusted[i], verdict));
        }
        return out;
    }

    /** Whether the comparison's test could reach significance among {@code m} comparisons at all. */
    private static boolean reachable(Comparison c, double alpha, long m) {
        return Comparison.NESTED_T.equals(c.test())
                ? c.pairs() != null && c.pairs() >= 2
                : Comparison.SIGNED_RANK.equals(c.test())
                        ? SignedRank.smallestP(c.pairs()) <= alpha / Math.max(1, m)
                        : canReach(c.baseline().n(), c.candidate().n(), alpha, Math.max(1, m));
    }

    /** A change counts when it is significant and beyond the threshold; an inconclusive one stays so. */
    private static Comparison.Verdict verdict(Comparison c, boolean significant, double threshold) {
        if (c.verdict() == Comparison.Verdict.inconclusive) {
            return Comparison.Verdict.inconclusive;
        }
        double worse = c.higherIsBetter() ? 1 / c.ratio() : c.ratio(); // > 1 means worse
        if (significant && worse > 1 + threshold) {
            return Comparison.Verdict.regression;
        } else if (significant && 1 / worse > 1 + threshold) {
            return Comparison.Verdict.improvement;
        }
        return Comparison.Verdict.unchanged;
    }

    /**
     * Benjamini–Hochberg (1995) step-up adjusted p-values; NaN entries stay NaN and do not count
     * towards the number of tests.
     */
    static double[] benjaminiHochberg(double[] p) {
        Integer[] order = IntStream.range(0, p.length)
                .filter(i -> !Double.isNaN(p[i]))
                .boxed()
                .sorted(Comparator.comparingDouble(i -> p[i]))
                .toArray(Integer[]::new);
        double[] adjusted = new double[p.length];
        Arrays.fill(adjusted, Double.NaN);
        int m = order.length;
        double running = 1.0;
        for (int rank = m; rank >= 1; rank--) {
            int i = order[rank - 1];
            running = Math.min(running, p[i] * m / rank);
            adjusted[i] = running;
        }
        return adjusted;
    }

    /**
     * Whether samples of these sizes could be found significant among {@code m} comparisons: the exact
     * test's smallest p-value, 2 / C(n1 + n2, n1) (complete separation, no ties), at most α / m.
     */
    static boolean canReach(int n1, int n2, double alpha, long m) {
        return n1 >= 1 && n2 >= 1 && MannWhitney.smallestP(n1, n2) <= alpha / m;
    }

    /** Repetitions per side with which a change could be detected among {@code m} comparisons at all. */
    static int repetitionsNeeded(double alpha, long m) {
        return MannWhitney.repetitionsToReach(alpha / Math.max(1, m));
    }
}
