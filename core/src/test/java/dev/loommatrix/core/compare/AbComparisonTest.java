package dev.loommatrix.core.compare;

import static dev.loommatrix.core.testing.SyntheticRuns.abCell;
import static dev.loommatrix.core.testing.SyntheticRuns.cell;
import static dev.loommatrix.core.testing.SyntheticRuns.samples;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.CellRecord;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Comparisons of an A/B run: blocks paired, what the run could resolve said. */
class AbComparisonTest {

    /**
     * A shared runner whose speed wanders by ±40 % from block to block, the candidate 20 % slower in every
     * pair: the pairs see it, two groups of samples cannot.
     */
    @Test
    void pairingFindsAChangeTheMachinesDriftHidesFromTwoGroups() {
        int pairs = 8;
        double[] baseline = new double[pairs];
        double[] candidate = new double[pairs];
        SplittableRandom random = new SplittableRandom(7);
        for (int k = 0; k < pairs; k++) {
            double machine = 1 + 0.8 * (random.nextDouble() - 0.5); // 0.6 … 1.4
            baseline[k] = 100 * machine * (1 + 0.01 * random.nextGaussian());
            candidate[k] = 120 * machine * (1 + 0.01 * random.nextGaussian());
        }
        CompareReport paired = Comparer.compare(
                "a",
                List.of(abCell("sleep-bound", "t", "virtual", "wallMs", baseline)),
                "b",
                List.of(abCell("sleep-bound", "t", "virtual", "wallMs", candidate)),
                0.10,
                0.05);
        Comparison c = paired.comparisons().get(0);
        assertThat(c.test()).isEqualTo(Comparison.SIGNED_RANK);
        assertThat(c.pairs()).isEqualTo(8);
        assertThat(c.pValue()).isEqualTo(2.0 / 256); // every pair slower
        assertThat(c.verdict()).isEqualTo(Comparison.Verdict.regression);
        assertThat(c.ratio()).isBetween(1.17, 1.23);
        assertThat(c.ci95().get(0)).isLessThan(c.ratio());
        assertThat(c.ci95().get(1)).isGreaterThan(c.ratio());
        assertThat(c.noise())
                .as("the pairs' own noise, not the machine's drift")
                .isLessThan(0.03);

        CompareReport groups = Comparer.compare(
                "a",
                List.of(cell("sleep-bound", "t", "virtual", "wallMs", baseline)),
                "b",
                List.of(cell("sleep-bound", "t", "virtual", "wallMs", candidate)),
                0.10,
                0.05);
        assertThat(groups.comparisons().get(0).test()).isEqualTo(Comparison.MANN_WHITNEY);
        assertThat(groups.comparisons().get(0).verdict()).isNotEqualTo(Comparison.Verdict.regression);
        assertThat(groups.resolution()).as("no blocks, no A/B resolution").isNull();
    }

    /** Four pairs cannot reach 5 % (2 / 2⁴ = 0.125): the samples are compared as two groups, and said so. */
    @Test
    void tooFewPairsFallBackToTheRankSumTest() {
        CompareReport report = Comparer.compare(
                "a",
                List.of(abCell("sleep-bound", "t", "virtual", "wallMs", new double[] {100, 101, 102, 99, 100})),
                "b",
                List.of(abCell("sleep-bound", "t", "virtual", "wallMs", new double[] {150, 151, 152, 149, 150})),
                0.10,
                0.05);
        Comparison c = report.comparisons().get(0);
        assertThat(c.test()).isEqualTo(Comparison.MANN_WHITNEY);
        assertThat(c.pairs()).isNull();
        assertThat(c.verdict()).isEqualTo(Comparison.Verdict.regression); // 5 vs 5 reaches 0.0079
        assertThat(c.detectable()).isNotNull();
    }

    /**
     * The detectable change grows with the noise and never undercuts the threshold; with too few pairs for
     * the number of comparisons nothing is detectable (null) and the report says how many pairs are needed.
     */
    @Test
    void theDetectableChangeFollowsTheNoiseAndTheSampleSize() {
        double quiet = detectable(samples(1, 10, 100, 0.005), samples(2, 10, 100, 0.005));
        double noisy = detectable(samples(3, 10, 100, 0.15), samples(4, 10, 100, 0.15));
        assertThat(quiet).isEqualTo(0.10); // the threshold: a 1 % change would be significant, but not counted
        assertThat(noisy).isGreaterThan(0.15);

        // 60 comparisons of 6 pairs: 2 / 2⁶ = 0.031 > 0.05 / 60, and 6 + 6 samples: 0.0022 > 0.00083
        List<CellRecord> before = new java.util.ArrayList<>();
        List<CellRecord> after = new java.util.ArrayList<>();
        for (int k = 0; k < 60; k++) {
            before.add(abCell("sleep-bound", "t" + k, "virtual", "wallMs", samples(2L * k, 6, 100, 0.02)));
            after.add(abCell("sleep-bound", "t" + k, "virtual", "wallMs", samples(2L * k + 1, 6, 100, 0.02)));
        }
        CompareReport many = Comparer.compare("a", before, "b", after, 0.10, 0.05);
        assertThat(many.comparisons())
                .allSatisfy(c -> assertThat(c.verdict()).isEqualTo(Comparison.Verdict.inconclusive))
                .allSatisfy(c -> assertThat(c.detectable()).isNull());
        assertThat(many.resolution().pairsNeeded()).isEqualTo(12); // 2 / 2¹² = 0.00049 ≤ 0.05 / 60
        assertThat(many.resolution().detectableMedian()).isNull();
    }

    /**
     * A comparison that could detect no change at all counts in the median as the least able: three comparisons,
     * one quiet (detectable: the threshold), one noisy, one of 3 blocks (neither paired test can reach α / 3) —
     * the median is the noisy one's, not the mean of the two that could detect something (issue #30: `ab`'s
     * back-to-back A/A runs of 2026-11-27 left two such comparisons out of their median).
     */
    @Test
    void aComparisonThatCouldDetectNothingCountsAsTheLeastAble() {
        List<CellRecord> before = List.of(
                abCell("sleep-bound", "quiet", "virtual", "wallMs", samples(1, 8, 100, 0.005)),
                abCell("sleep-bound", "noisy", "virtual", "wallMs", samples(3, 8, 100, 0.15)),
                abCell("sleep-bound", "blind", "virtual", "wallMs", samples(5, 3, 100, 0.02)));
        List<CellRecord> after = List.of(
                abCell("sleep-bound", "quiet", "virtual", "wallMs", samples(2, 8, 100, 0.005)),
                abCell("sleep-bound", "noisy", "virtual", "wallMs", samples(4, 8, 100, 0.15)),
                abCell("sleep-bound", "blind", "virtual", "wallMs", samples(6, 3, 100, 0.02)));
        CompareReport report = Comparer.compare("a", before, "b", after, 0.10, 0.05);
        java.util.Map<String, Comparison> byJdk = new java.util.HashMap<>();
        report.comparisons().forEach(c -> byJdk.put(c.cellId().split("\\.")[0], c));
        assertThat(byJdk.get("blind").detectable()).isNull();
        assertThat(byJdk.get("blind").noise()).isNotNull();
        assertThat(byJdk.get("quiet").detectable()).isEqualTo(0.10);
        assertThat(byJdk.get("noisy").detectable()).isGreaterThan(0.10);
        assertThat(report.resolution().detectableMedian())
                .isEqualTo(byJdk.get("noisy").detectable());
        assertThat(MarkdownReport.render(report))
                .contains(String.format(
                        java.util.Locale.ROOT,
                        "could have detected: %.1f %% (median",
                        byJdk.get("noisy").detectable() * 100));
    }

    /** The baseline against itself: odd blocks against even ones, the run's own noise. */
    @Test
    void theRunSaysHowMuchTheBaselineDisagreedWithItself() {
        double[] baseline = {100, 110, 100, 110, 100, 110, 100, 110};
        CompareReport report = Comparer.compare(
                "a",
                List.of(abCell("sleep-bound", "t", "virtual", "wallMs", baseline)),
                "b",
                List.of(abCell("sleep-bound", "t", "virtual", "wallMs", samples(5, 8, 105, 0.01))),
                0.10,
                0.05);
        assertThat(report.resolution().comparisons()).isEqualTo(1);
        assertThat(report.resolution().aToAMedian()).isCloseTo(0.10, org.assertj.core.api.Assertions.within(1e-12));
        assertThat(report.resolution().pairsNeeded()).isEqualTo(6);
    }

    private static double detectable(double[] baseline, double[] candidate) {
        return Comparer.compare(
                        "a",
                        List.of(abCell("sleep-bound", "t", "virtual", "wallMs", baseline)),
                        "b",
                        List.of(abCell("sleep-bound", "t", "virtual", "wallMs", candidate)),
                        0.10,
                        0.05)
                .comparisons()
                .get(0)
                .detectable();
    }
}
