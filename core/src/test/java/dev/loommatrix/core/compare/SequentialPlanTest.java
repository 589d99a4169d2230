package dev.loommatrix.core.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.stats.RatioInterval;
import dev.loommatrix.core.stats.SignedRank;
import dev.loommatrix.core.testing.SyntheticRuns;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The sequential A/B's false-alarm rate and power (issue #30), by seeded simulation of paired log-ratios: what the
 * signed-rank test sees of an A/B's block pairs. Looking after every pair with a fixed-level test cries wolf far
 * more often than its α; the group-sequential plan (α spent evenly over the looks) stays at or below α.
 */
class SequentialPlanTest {

    static final double ALPHA = 0.05;
    /**
     * A/A comparisons a simulation judges: each look is a real compare of synthetic records (what an A/B run's
     * looks do), a millisecond each with its detectable change's search, so 2,000 — three binomial standard errors
     * at α are 1.5 points.
     */
    static final int COMPARISONS = 2_000;

    /**
     * A/A comparisons looked at after every pair: fifteen looks each, most of them compare's signed-rank path with
     * its detectable change searched for (some 20 ms a comparison), so 1,000 — three binomial standard errors at α are
     * 2.1 points, and the fixed-level test's rate stays well apart.
     */
    static final int EVERY_PAIR_COMPARISONS = 1_000;

    /** Looks after every pair from 6 to 20: what the issue asks the procedure to survive. */
    static final List<Integer> EVERY_PAIR = IntStream.rangeClosed(6, 20).boxed().toList();

    @Test
    void lookingAfterEveryPairKeepsTheFalseAlarmRateAtAlphaWhereAFixedLevelTestDoesNot() {
        SequentialPlan plan = new SequentialPlan(EVERY_PAIR, ALPHA);
        Random random = new Random(30);
        int sequentialAlarms = 0;
        int naiveAlarms = 0;
        for (int i = 0; i < EVERY_PAIR_COMPARISONS; i++) {
            double[] d = noise(random, 20, 0.03, 0);
            double[] drift = noise(random, 20, 0.10, 0);
            // each look as compare judges it, stopped at the first decided one: the plan's level, or α every time
            sequentialAlarms += flaggedBeforeDecided(plan.looks(), look -> plan.levelPerLook(), d, drift, 0) ? 1 : 0;
            naiveAlarms += flaggedBeforeDecided(plan.looks(), look -> ALPHA, d, drift, 0) ? 1 : 0;
        }
        double sequentialRate = (double) sequentialAlarms / EVERY_PAIR_COMPARISONS;
        double naiveRate = (double) naiveAlarms / EVERY_PAIR_COMPARISONS;
        System.out.printf(
                Locale.ROOT,
                "A/A, %d comparisons, a look after every pair from 6 to 20: group-sequential (α/%d a look) %.4f,"
                        + " fixed α at every look %.4f (stated α %.2f)%n",
                EVERY_PAIR_COMPARISONS,
                plan.looks().size(),
                sequentialRate,
                naiveRate,
                ALPHA);
        // at most α, with three binomial standard errors of room for the simulation's own noise
        double room = 3 * Math.sqrt(ALPHA * (1 - ALPHA) / EVERY_PAIR_COMPARISONS);
        assertThat(sequentialRate).isLessThanOrEqualTo(ALPHA + room);
        // the fixed-level test looked at 15 times is well beyond α
        assertThat(naiveRate).isGreaterThan(2 * ALPHA);
    }

    /**
     * Power for known shifts at a stated noise (σ of the log-ratios 3 %, a cell whose pairs agree within a few
     * percent), with the plan an A/B uses: a first pass of 8 pairs, looks growing by half up to 40; a comparison
     * stops at its first decided look. Printed, and held to what the plan must at least do.
     */
    @Test
    void powerForKnownShiftsWithTheLooksAnAbUses() {
        SequentialPlan plan = SequentialPlan.of(8, 40, ALPHA);
        assertThat(plan.looks()).containsExactly(8, 12, 18, 27, 40);
        double threshold = 0.0;
        List<String> lines = new ArrayList<>();
        double[] found = new double[3];
        double[] shifts = {0.02, 0.05, 0.10};
        for (int s = 0; s < shifts.length; s++) {
            Random random = new Random(300 + s);
            int detected = 0;
            long pairsUsed = 0;
            int runs = 1_000;
            for (int i = 0; i < runs; i++) {
                double[] d = noise(random, plan.maxPairs(), 0.03, Math.log1p(shifts[s]));
                double[] drift = noise(random, plan.maxPairs(), 0.10, 0);
                int used = plan.maxPairs();
                for (int n : plan.looks()) {
                    Comparison c = signedRankLook(d, drift, n, plan.levelPerLook(), threshold);
                    if (SequentialPlan.decided(c, threshold)) {
                        detected += c.verdict() == Comparison.Verdict.regression ? 1 : 0;
                        used = n;
                        break;
                    }
                }
                pairsUsed += used;
            }
            found[s] = (double) detected / runs;
            lines.add(String.format(
                    Locale.ROOT,
                    "shift %+.0f %%: found in %.1f %% of %d, %.1f pairs on average",
                    shifts[s] * 100,
                    found[s] * 100,
                    runs,
                    (double) pairsUsed / runs));
        }
        System.out.println(
                "power, σ 3 %, looks " + plan.looks() + " at α/" + plan.looks().size() + ": " + lines);
        assertThat(found[0]).isLessThan(found[1]);
        assertThat(found[1]).isGreaterThan(0.9); // a 5 % change at 3 % noise: found within 40 pairs
        assertThat(found[2]).isGreaterThan(0.99);
    }

    /**
     * The budget's last look (issue #30): a run whose budget affords looks 1-3 of 6 (6, 9, then as many pairs as it
     * can, 16) tests its last look at all the α left, α − 2α/6, and still keeps the false-alarm rate at α — the
     * levels taken sum to α — over 10,000 A/A comparisons with the nested t on the pairs' differences of fork
     * means; and it finds a 5 % change at the noise of the ab profile's median comparison (σ 5 %) more often than
     * the same looks tested at α/6 each, which left half of α unspent.
     */
    @Test
    void theBudgetsLastLookSpendsTheAlphaLeftAndKeepsTheRate() {
        SequentialPlan plan = SequentialPlan.of(6, 40, ALPHA);
        List<Integer> taken = List.of(6, 9, 16); // the third is the last the budget affords, stretched past 14
        double[] levels = {plan.level(0, false), plan.level(1, false), plan.level(2, true)};
        assertThat(levels[2]).isCloseTo(ALPHA - 2 * ALPHA / 6, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(Arrays.stream(levels).sum()).isLessThanOrEqualTo(ALPHA + 1e-12);
        Random random = new Random(33);
        int alarms = 0;
        for (int i = 0; i < COMPARISONS; i++) {
            double[] d = noise(random, 16, 0.05, 0);
            alarms += flaggedAtSomeLook(taken, levels, random, d) ? 1 : 0;
        }
        double rate = (double) alarms / COMPARISONS;
        double room = 3 * Math.sqrt(ALPHA * (1 - ALPHA) / COMPARISONS);
        assertThat(rate).isLessThanOrEqualTo(ALPHA + room);

        // power for a 5 % change, the last look at all α left against α/6
        int runs = 1_000;
        int[] found = new int[2];
        Random shifted = new Random(34);
        double[] atPerLook = {levels[0], levels[1], plan.levelPerLook()};
        for (int i = 0; i < runs; i++) {
            double[] d = noise(shifted, 16, 0.05, Math.log1p(0.05));
            long seed = shifted.nextLong();
            found[0] += flaggedAtSomeLook(taken, levels, new Random(seed), d) ? 1 : 0;
            found[1] += flaggedAtSomeLook(taken, atPerLook, new Random(seed), d) ? 1 : 0;
        }
        System.out.printf(
                Locale.ROOT,
                "A/A, %d comparisons, looks %s, the last at α − 2α/6 = %.4f: false alarms %.4f (α %.2f); a 5 %% change"
                        + " at σ 5 %%: found %.1f %% (the last look at α/6: %.1f %%)%n",
                COMPARISONS,
                taken,
                levels[2],
                rate,
                ALPHA,
                100.0 * found[0] / runs,
                100.0 * found[1] / runs);
        assertThat(found[0]).isGreaterThan(found[1]);
    }

    /**
     * Futility (issue #30): at the first look (6 pairs, α/6), a comparison whose interval at the most pairs it can
     * get (14, the budget's last look at α − α/6) would be wider than twice the threshold, its estimate not beyond
     * the threshold by that much, is measured no more. Simulated with the nested t at the noise levels of the ab
     * profile's comparisons (σ 2 % to 30 %, no change and a 5 % change, threshold 3 %): the hopeless ones stop
     * (σ 30 %: most), the median comparison's (σ 5 %) almost never, and few decisions are lost.
     */
    @Test
    void aComparisonThatCannotBeDecidedInTheBudgetStopsAndFewDecisionsAreLost() {
        SequentialPlan plan = SequentialPlan.of(6, 40, ALPHA);
        double threshold = 0.03;
        int most = 14;
        double lastLevel = plan.level(1, true);
        double[] sigmas = {0.02, 0.05, 0.10, 0.30};
        double[] shifts = {0, 0.05};
        int runs = 1_000;
        List<String> lines = new ArrayList<>();
        double[][] stopped = new double[shifts.length][sigmas.length];
        double[][] lostShare = new double[shifts.length][sigmas.length];
        for (int h = 0; h < shifts.length; h++) {
            for (int s = 0; s < sigmas.length; s++) {
                Random random = new Random(3_000 + 10L * h + s);
                int futile = 0;
                int lost = 0;
                int decidable = 0;
                for (int i = 0; i < runs; i++) {
                    double[] d = noise(random, most, sigmas[s], Math.log1p(shifts[h]));
                    // the first look as compare judges it, and the most pairs the comparison could get, at the most α
                    // a later look can have
                    Comparison first =
                            nestedLook(Arrays.copyOf(d, plan.firstPass()), random, plan.levelPerLook(), threshold);
                    Comparison atMost = nestedLook(d, random, lastLevel, threshold);
                    boolean decided = SequentialPlan.decided(atMost, threshold);
                    boolean stops = SequentialPlan.futile(first, most, lastLevel, threshold);
                    decidable += decided ? 1 : 0;
                    futile += stops ? 1 : 0;
                    lost += stops && decided ? 1 : 0;
                }
                stopped[h][s] = (double) futile / runs;
                lines.add(String.format(
                        Locale.ROOT,
                        "shift %.0f %%, σ %.0f %%: decidable at %d pairs %.1f %%, stopped at 6 %.1f %%, decisions"
                                + " lost %.2f %%",
                        shifts[h] * 100,
                        sigmas[s] * 100,
                        most,
                        100.0 * decidable / runs,
                        100.0 * futile / runs,
                        100.0 * lost / runs));
                lostShare[h][s] = (double) lost / runs;
            }
        }
        System.out.println("futility, threshold 3 %, first look 6 pairs, at most " + most + ": " + lines);
        // a stop costs a decision the full pairs would have reached: never where the noise is below the threshold's
        // reach (σ 2 %), rarely at the median comparison's σ 5 % (0.5 % here), and at most 11 % — at σ 10 % with a 5 %
        // change, where compare calls a significant change beyond the threshold decided even when its interval
        // still holds the threshold (seeded: 10.7 % of 1,000; one binomial standard error, 1 point, of room)
        for (int h = 0; h < shifts.length; h++) {
            assertThat(lostShare[h][0]).isZero();
            assertThat(lostShare[h][1]).isLessThanOrEqualTo(0.01);
            for (double share : lostShare[h]) {
                assertThat(share).isLessThanOrEqualTo(0.12);
            }
        }
        for (int h = 0; h < shifts.length; h++) {
            assertThat(stopped[h][0]).isLessThan(0.01); // σ 2 %: decided within 14 pairs, never stopped
            assertThat(stopped[h][1]).isLessThan(0.01); // σ 5 %: the ab profile's median comparison, measured on
            // σ 30 %: hopeless in 14 pairs, most stopped (not all: six pairs can show a large estimate by chance,
            // and a comparison whose estimate is far from the threshold is given its chance)
            assertThat(stopped[h][3]).isGreaterThan(0.75);
            assertThat(stopped[h][2]).isBetween(stopped[h][1], stopped[h][3]);
        }
    }

    /**
     * Whether compare flags a comparison at some look before a look decides it ({@link SequentialPlan#decided}): each
     * look the pairs so far, judged as an A/B run judges them at that look's level.
     */
    private static boolean flaggedBeforeDecided(
            List<Integer> looks, java.util.function.IntToDoubleFunction level, double[] d, double[] drift, double t) {
        for (int look = 0; look < looks.size(); look++) {
            Comparison c = signedRankLook(d, drift, looks.get(look), level.applyAsDouble(look), t);
            if (SequentialPlan.decided(c, t)) {
                return isFlagged(c);
            }
        }
        return false;
    }

    /** Whether compare flags a comparison of forks with iterations at one of the looks taken, each at its level. */
    private static boolean flaggedAtSomeLook(List<Integer> taken, double[] levels, Random random, double[] d) {
        for (int look = 0; look < taken.size(); look++) {
            Comparison c = nestedLook(Arrays.copyOf(d, taken.get(look)), random, levels[look], 0);
            if (SequentialPlan.decided(c, 0)) {
                return isFlagged(c);
            }
        }
        return false;
    }

    private static boolean isFlagged(Comparison c) {
        return c.verdict() == Comparison.Verdict.regression || c.verdict() == Comparison.Verdict.improvement;
    }

    /**
     * A look at the first {@code n} pairs of a cell whose forks ran once, as compare judges it at {@code level}: the
     * baseline's block k at 100 ms times the machine's drift, the candidate's {@code exp(d[k])} times that (the pair's
     * log-ratio d[k]).
     */
    static Comparison signedRankLook(double[] d, double[] drift, int n, double level, double threshold) {
        double[] baseline = new double[n];
        double[] candidate = new double[n];
        for (int k = 0; k < n; k++) {
            baseline[k] = 100 * Math.exp(drift[k]);
            candidate[k] = baseline[k] * Math.exp(d[k]);
        }
        return Comparer.compare(
                        "a",
                        List.of(SyntheticRuns.abCell("sleep-bound", "t", "virtual", "wallMs", baseline)),
                        "b",
                        List.of(SyntheticRuns.abCell("sleep-bound", "t", "virtual", "wallMs", candidate)),
                        threshold,
                        level)
                .comparisons()
                .get(0);
    }

    /**
     * A look at the pairs {@code d} of a cell whose forks measured 5 iterations, as compare judges it at {@code level}
     * (the nested t): block k's baseline fork around 100 ms, its candidate fork around {@code 100 · exp(d[k])}, each
     * iteration 0.5 % about its fork's value.
     */
    static Comparison nestedLook(double[] d, Random random, double level, double threshold) {
        double[][] baseline = new double[d.length][5];
        double[][] candidate = new double[d.length][5];
        for (int k = 0; k < d.length; k++) {
            for (int i = 0; i < 5; i++) {
                baseline[k][i] = 100 * Math.exp(0.005 * random.nextGaussian());
                candidate[k][i] = 100 * Math.exp(d[k] + 0.005 * random.nextGaussian());
            }
        }
        return Comparer.compare(
                        "a",
                        List.of(SyntheticRuns.abIteratedCell("sleep-bound", "t", "virtual", baseline)),
                        "b",
                        List.of(SyntheticRuns.abIteratedCell("sleep-bound", "t", "virtual", candidate)),
                        threshold,
                        level)
                .comparisons()
                .get(0);
    }

    /** The interval at a look's level covers the true shift at least that often (exact for symmetric noise). */
    @Test
    void aLooksIntervalCoversTheTrueShiftAtItsStatedLevel() {
        Random random = new Random(31);
        double level = 1 - ALPHA / 5;
        int covered = 0;
        int runs = 4_000;
        double stated = Double.NaN;
        for (int i = 0; i < runs; i++) {
            double shift = Math.log(1.05);
            double[] d = noise(random, 12, 0.03, shift);
            RatioInterval.Result interval = SignedRank.interval(d, level);
            stated = interval.level();
            if (interval.bounds().get(0) <= shift && shift <= interval.bounds().get(1)) {
                covered++;
            }
        }
        double coverage = (double) covered / runs;
        System.out.printf(Locale.ROOT, "12 pairs, asked %.3f, stated %.4f, covered %.4f%n", level, stated, coverage);
        assertThat(stated).isGreaterThanOrEqualTo(level);
        assertThat(coverage).isGreaterThanOrEqualTo(stated - 3 * Math.sqrt(stated * (1 - stated) / runs));
    }

    @Test
    void eachCellsFirstPassIsTheFirstLookAtWhichItsTestCanFindAChange() {
        // 24 comparisons (the quick profile's JDK 25 cells), looks from 6 up to 40 pairs
        SequentialPlan plan = SequentialPlan.of(6, 40, ALPHA);
        assertThat(plan.looks()).containsExactly(6, 9, 14, 21, 32, 40);
        // forks with iterations: the nested t can speak from 4 pairs, so the first look
        assertThat(plan.firstPass(true, 24)).isEqualTo(6);
        // forks of one value: the signed-rank test needs 2 / 2^N ≤ α / 6 / 24, N = 13, so the look of 14 pairs
        assertThat(SignedRank.smallestP(13)).isLessThanOrEqualTo(plan.levelPerLook() / 24);
        assertThat(SignedRank.smallestP(12)).isGreaterThan(plan.levelPerLook() / 24);
        assertThat(plan.firstPass(false, 24)).isEqualTo(14);
        // one look (no budget): the fixed design; a signed-rank cell measures exactly what its test needs at α
        SequentialPlan one = SequentialPlan.of(6, 6, ALPHA);
        assertThat(one.levelPerLook()).isEqualTo(ALPHA);
        assertThat(one.firstPass(true, 44)).isEqualTo(6);
        assertThat(one.firstPass(false, 44))
                .isEqualTo(SequentialPlan.pairsNeeded(ALPHA, 44))
                .isEqualTo(11);
    }

    @Test
    void aComparisonIsDecidedWhenItsIntervalClearsTheThresholdOnEitherSide() {
        assertThat(SequentialPlan.decided(comparison(Comparison.Verdict.regression, 1.08, 1.2), 0.05))
                .isTrue();
        // unchanged, its interval within ±5 %: decided
        assertThat(SequentialPlan.decided(comparison(Comparison.Verdict.unchanged, 0.97, 1.04), 0.05))
                .isTrue();
        // unchanged by the test, but its interval still holds +8 %: undecided
        assertThat(SequentialPlan.decided(comparison(Comparison.Verdict.unchanged, 0.97, 1.08), 0.05))
                .isFalse();
        assertThat(SequentialPlan.decided(comparison(Comparison.Verdict.inconclusive, 0.99, 1.01), 0.05))
                .isFalse();
    }

    private static Comparison comparison(Comparison.Verdict verdict, double low, double high) {
        return new Comparison(
                "c",
                "virtual",
                "wallMs",
                false,
                new Comparison.Side(8, 100),
                new Comparison.Side(8, 100),
                1.0,
                List.of(low, high),
                0.5,
                0.5,
                verdict,
                java.util.Optional.empty(),
                0.99,
                Comparison.SIGNED_RANK,
                8,
                null,
                null,
                null,
                null);
    }

    /** n log-ratios: normal noise of σ around a shift (symmetric, continuous: what the exact test assumes). */
    private static double[] noise(Random random, int n, double sigma, double shift) {
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = shift + sigma * random.nextGaussian();
        }
        return d;
    }
}
