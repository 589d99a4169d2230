package dev.loommatrix.core.compare;

import static dev.loommatrix.core.testing.SyntheticRuns.cell;
import static dev.loommatrix.core.testing.SyntheticRuns.iteratedCell;
import static dev.loommatrix.core.testing.SyntheticRuns.samples;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.loommatrix.core.matrix.Iterations;
import dev.loommatrix.core.result.CellRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.commons.statistics.inference.MannWhitneyUTest;
import org.junit.jupiter.api.Test;

class ComparerTest {

    @Test
    void benjaminiHochbergMatchesTheTextbookExample() {
        // p = 0.01, 0.04, 0.03, 0.005 → 0.02, 0.04, 0.04, 0.02 (as R's p.adjust(method = "BH") gives)
        assertThat(Verdicts.benjaminiHochberg(new double[] {0.01, 0.04, 0.03, 0.005}))
                .containsExactly(new double[] {0.02, 0.04, 0.04, 0.02}, within(1e-12));
        double[] withNaN = Verdicts.benjaminiHochberg(new double[] {0.01, Double.NaN});
        assertThat(withNaN[0]).isEqualTo(0.01); // one test counted, not two
        assertThat(withNaN[1]).isNaN();
    }

    @Test
    void theExactRankTestAgreesWithCounting() {
        // Complete separation: the two-sided exact p is 2 / C(n1+n2, n1)
        assertThat(MannWhitneyUTest.withDefaults()
                        .test(new double[] {1, 2, 3}, new double[] {4, 5, 6})
                        .getPValue())
                .isCloseTo(2.0 / 20, within(1e-12));
        assertThat(MannWhitneyUTest.withDefaults()
                        .test(new double[] {1, 2, 3, 4, 5}, new double[] {6, 7, 8, 9, 10})
                        .getPValue())
                .isCloseTo(2.0 / 252, within(1e-12));
        assertThat(Verdicts.canReach(3, 3, 0.05, 1)).isFalse();
        assertThat(Verdicts.canReach(5, 5, 0.05, 1)).isTrue();
        // a lone change passes BH at α / m: 5 against 5 (smallest p 0.0079) among at most 6 comparisons
        assertThat(Verdicts.canReach(5, 5, 0.05, 6)).isTrue();
        assertThat(Verdicts.canReach(5, 5, 0.05, 7)).isFalse();
    }

    /** Issue #16, case 1: a tie made a tiny sample's p-value the asymptotic 0.037 → "regression", exit 4. */
    @Test
    void aTieInASmallSampleGetsTheExactPermutationPValue() {
        List<CellRecord> before =
                List.of(cell("sleep-bound", "t", "virtual", "wallMs", new double[] {20, 20, 20, 20, 20, 30}));
        List<CellRecord> after = List.of(cell("sleep-bound", "t", "virtual", "wallMs", new double[] {30, 30, 30}));
        CompareReport report = Comparer.compare("b", before, "c", after, 0.10, 0.05);
        Comparison c = report.comparisons().get(0);
        assertThat(c.pValue()).isCloseTo(0.095238095238, within(1e-9)); // scipy PermutationMethod: 0.0952381
        assertThat(c.verdict()).isEqualTo(Comparison.Verdict.unchanged);
        assertThat(report.regressions()).isZero();
    }

    /** Case 2: constant samples got p = NaN and were left out of the correction. */
    @Test
    void constantSamplesHavePOneAndCountInTheCorrection() {
        List<CellRecord> before = new ArrayList<>();
        List<CellRecord> after = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            before.add(cell("sleep-bound", "const" + k, "virtual", "wallMs", new double[] {50, 50, 50, 50, 50}));
            after.add(cell("sleep-bound", "const" + k, "virtual", "wallMs", new double[] {50, 50, 50, 50, 50}));
        }
        before.add(cell("sleep-bound", "shift", "virtual", "wallMs", new double[] {100, 101, 102, 103, 104}));
        after.add(cell("sleep-bound", "shift", "virtual", "wallMs", new double[] {200, 201, 202, 203, 204}));
        CompareReport report = Comparer.compare("b", before, "c", after, 0.10, 0.05);
        assertThat(report.comparisons().stream().filter(c -> c.cellId().startsWith("const")))
                .allSatisfy(c -> assertThat(c.pValue()).isEqualTo(1.0));
        Comparison shift = report.comparisons().stream()
                .filter(c -> c.cellId().startsWith("shift"))
                .findFirst()
                .orElseThrow();
        assertThat(shift.pValue()).isCloseTo(2.0 / 252, within(1e-12));
        assertThat(shift.pAdjusted()).isCloseTo(21 * 2.0 / 252, within(1e-12)); // 0.167, not 0.008
        assertThat(shift.verdict()).isEqualTo(Comparison.Verdict.inconclusive);
        assertThat(report.regressions()).isZero();
    }

    /**
     * Case 3: with the default 5 repetitions and a full matrix's ~360 comparisons, a lone 2× slowdown was
     * "unchanged" though nothing could have been detected: it is inconclusive, and the report says 9
     * repetitions a side are the least with which a change could be found.
     */
    @Test
    void whatCouldNotHaveBeenDetectedIsInconclusiveNotUnchanged() {
        List<CellRecord> before = new ArrayList<>();
        List<CellRecord> after = new ArrayList<>();
        for (int k = 0; k < 359; k++) {
            before.add(cell("sleep-bound", "same" + k, "virtual", "wallMs", samples(k * 2L + 1, 5, 500, 0.02)));
            after.add(cell("sleep-bound", "same" + k, "virtual", "wallMs", samples(k * 2L + 2, 5, 500, 0.02)));
        }
        before.add(cell("sleep-bound", "slow", "virtual", "wallMs", samples(9001, 5, 500, 0.02)));
        after.add(cell("sleep-bound", "slow", "virtual", "wallMs", samples(9002, 5, 1000, 0.02)));
        CompareReport report = Comparer.compare("b", before, "c", after, 0.10, 0.05);
        assertThat(report.comparisons()).hasSize(360).allSatisfy(c -> assertThat(c.verdict())
                .isEqualTo(Comparison.Verdict.inconclusive));
        assertThat(report.repetitionsNeeded()).isEqualTo(9); // 2 / C(18, 9) = 4.1e-5 ≤ 0.05 / 360 < 2 / C(16, 8)
        assertThat(MarkdownReport.render(report)).contains("at least 9 repetitions per side");
        // with 9 a side, the same slowdown is found
        List<CellRecord> before9 = new ArrayList<>();
        List<CellRecord> after9 = new ArrayList<>();
        for (int k = 0; k < 359; k++) {
            before9.add(cell("sleep-bound", "same" + k, "virtual", "wallMs", samples(k * 2L + 1, 9, 500, 0.02)));
            after9.add(cell("sleep-bound", "same" + k, "virtual", "wallMs", samples(k * 2L + 2, 9, 500, 0.02)));
        }
        before9.add(cell("sleep-bound", "slow", "virtual", "wallMs", samples(9001, 9, 500, 0.02)));
        after9.add(cell("sleep-bound", "slow", "virtual", "wallMs", samples(9002, 9, 1000, 0.02)));
        CompareReport enough = Comparer.compare("b", before9, "c", after9, 0.10, 0.05);
        assertThat(enough.regressions()).isEqualTo(1);
    }

    /**
     * Held-out-style truth: 40 cells, each a known scenario, compared at once (so the correction has
     * real work to do). Exactly the true regressions must be flagged.
     */
    @Test
    void flagsExactlyTheRealRegressions() {
        List<CellRecord> baseline = new ArrayList<>();
        List<CellRecord> candidate = new ArrayList<>();
        Map<String, String> truth = new java.util.TreeMap<>();
        long seed = 1;
        for (int k = 0; k < 10; k++) {
            // a true 30 % slowdown, 3 % noise
            add(baseline, candidate, truth, "reg" + k, "regression", seed++, 1000, 1300, 0.03, 10, "sleep-bound");
            // pure noise: 40 % CV, the same distribution on both sides (medians move by chance)
            add(baseline, candidate, truth, "noise" + k, "unchanged", seed++, 1000, 1000, 0.40, 10, "sleep-bound");
            // a real but small shift: +4 % with 0.5 % noise — significant, below the 10 % threshold
            add(baseline, candidate, truth, "small" + k, "unchanged", seed++, 1000, 1040, 0.005, 10, "sleep-bound");
            // a true 25 % speed-up
            add(baseline, candidate, truth, "imp" + k, "improvement", seed++, 1000, 750, 0.03, 10, "sleep-bound");
        }
        // throughput: higher is better, a 30 % drop is a regression
        add(baseline, candidate, truth, "http", "regression", seed++, 8000, 5600, 0.02, 10, "http-server");
        // too few repetitions to ever be significant
        add(baseline, candidate, truth, "few", "inconclusive", seed++, 1000, 2000, 0.01, 3, "sleep-bound");

        CompareReport report = Comparer.compare("base", baseline, "cand", candidate, 0.10, 0.05);
        Map<String, String> found = report.comparisons().stream()
                .collect(Collectors.toMap(
                        c -> c.cellId().split("\\.")[0], c -> c.verdict().name(), (a, b) -> a, java.util.TreeMap::new));
        assertThat(found).isEqualTo(truth);
        assertThat(report.regressions()).isEqualTo(11);
        assertThat(report.improvements()).isEqualTo(10);
        // the small shifts are significant: it is the threshold that keeps them out
        assertThat(report.comparisons().stream()
                        .filter(c -> c.cellId().startsWith("small"))
                        .allMatch(c -> c.pAdjusted() <= 0.05))
                .isTrue();
        // and the noisy medians did move by more than the threshold somewhere: significance keeps them out
        assertThat(report.comparisons().stream()
                        .filter(c -> c.cellId().startsWith("noise"))
                        .anyMatch(c -> Math.abs(c.ratio() - 1) > 0.10))
                .isTrue();
    }

    @Test
    void aRunAgainstItselfHasNoRegressionAndOneSidedCellsAreListed() {
        List<CellRecord> run = new ArrayList<>();
        run.add(cell("sleep-bound", "a", "virtual", "wallMs", samples(7, 10, 500, 0.1)));
        run.add(cell("mass-start", "a", "virtual", "wallMs", samples(8, 10, 500, 0.1)));
        CompareReport self = Comparer.compare("r", run, "r", run, 0.10, 0.05);
        assertThat(self.regressions()).isZero();
        assertThat(self.improvements()).isZero();
        assertThat(self.comparisons()).allSatisfy(c -> assertThat(c.ratio()).isEqualTo(1.0));

        CompareReport partial = Comparer.compare("r", run, "s", run.subList(0, 1), 0.10, 0.05);
        assertThat(partial.onlyInBaseline()).containsExactly(run.get(1).cellId());
        assertThat(partial.comparisons()).hasSize(1);
    }

    @Test
    void theRatioIntervalCoversTheTrueRatio() {
        double[] before = samples(11, 20, 1000, 0.05);
        double[] after = samples(12, 20, 1200, 0.05);
        List<Double> ci =
                dev.loommatrix.core.stats.RatioInterval.of(before, after, 42).bounds();
        assertThat(ci.get(0)).isLessThan(1.2);
        assertThat(ci.get(1)).isGreaterThan(1.2);
        assertThat(ci.get(0)).isGreaterThan(1.0);
        // seeded: the same report twice
        assertThat(dev.loommatrix.core.stats.RatioInterval.of(before, after, 42).bounds())
                .isEqualTo(ci);
    }

    static void add(
            List<CellRecord> baseline,
            List<CellRecord> candidate,
            Map<String, String> truth,
            String name,
            String verdict,
            long seed,
            double before,
            double after,
            double cv,
            int n,
            String workload) {
        String metric = dev.loommatrix.core.matrix.Workloads.judgedBy(workload).name();
        baseline.add(cell(workload, name, "virtual", metric, samples(seed * 1000, n, before, cv)));
        candidate.add(cell(workload, name, "virtual", metric, samples(seed * 1000 + 1, n, after, cv)));
        truth.put(name, verdict);
    }

    /**
     * Issue #17, "never compare unlike cells": a pull request that changes the quick profile's parameters
     * reported spurious regressions; the pair is listed as not comparable, with why.
     */
    @Test
    void cellsMeasuredWithOtherParametersAreNotComparable() {
        CellRecord before = cell("sleep-bound", "t", "virtual", "wallMs", samples(1, 10, 500, 0.01));
        CellRecord after = cell("sleep-bound", "t", "virtual", "wallMs", samples(2, 10, 5000, 0.01));
        var m = after.measurements().get(0);
        var changed = new dev.loommatrix.core.result.Measurement(
                m.variant(),
                Map.of("tasks", 10_000L),
                m.metric(),
                m.samples(),
                m.summary(),
                m.processSummary(),
                m.lowerBoundMs(),
                m.efficiency(),
                m.ceiling(),
                m.error());
        CellRecord afterChanged = CellRecord.of(
                after.cellId(),
                after.coordinates(),
                after.status(),
                after.reason(),
                after.logTail(),
                after.environment(),
                List.of(changed),
                after.execution());
        CompareReport report = Comparer.compare("b", List.of(before), "c", List.of(afterChanged), 0.10, 0.05);
        assertThat(report.comparisons()).isEmpty();
        assertThat(report.regressions()).isZero();
        assertThat(report.notComparable()).singleElement().satisfies(n -> {
            assertThat(n.series()).isEqualTo("virtual");
            assertThat(n.reason()).isEqualTo("parameters differ: {} → {tasks=10000}");
        });
        assertThat(MarkdownReport.render(report)).contains("Not comparable").contains("parameters differ");
    }

    /**
     * Issue #18: a fork's steady state is not its cold start. A run whose forks ran once (each value a cold start)
     * and a run whose forks iterated (each value the median of warm iterations) are not comparable in the
     * steady phase — a pull request adding iterations would otherwise read as a large "improvement" — and are
     * in the cold-start phase, where both sides' values are first runs.
     */
    @Test
    void aSingleColdRunAndAnIteratedForkCompareOnlyOnTheirColdStarts() {
        CellRecord once = cell("sleep-bound", "t", "virtual", "wallMs", samples(1, 10, 500, 0.02));
        CellRecord iterated = iteratedCell(
                "sleep-bound",
                "t",
                "virtual",
                new Iterations(2, 5),
                samples(2, 10, 300, 0.02),
                samples(3, 10, 505, 0.02));

        CompareReport steady = Comparer.compare("b", List.of(once), "c", List.of(iterated), 0.10, 0.05);
        assertThat(steady.comparisons()).isEmpty();
        assertThat(steady.improvements()).isZero();
        assertThat(steady.notComparable()).singleElement().satisfies(n -> assertThat(n.reason())
                .isEqualTo("iterations per fork differ: one cold run → 2 warmup + 5 measured"
                        + " (compare --phase cold-start compares their first iterations)"));

        CompareReport cold =
                Comparer.compare("b", List.of(once), "c", List.of(iterated), 0.10, 0.05, Comparer.Phase.COLD_START);
        assertThat(cold.notComparable()).isEmpty();
        assertThat(cold.comparisons()).singleElement().satisfies(c -> {
            assertThat(c.metric()).isEqualTo("coldStartMs");
            assertThat(c.ratio()).isCloseTo(505.0 / 500, within(0.03));
            assertThat(c.verdict()).isNotEqualTo(Comparison.Verdict.regression);
        });
    }

    /** A change that only slows the cold start (say, a heavier class initializer) is found by its own phase. */
    @Test
    void aColdStartRegressionIsFoundInItsPhaseAndNotInTheSteadyState() {
        Iterations design = new Iterations(1, 5);
        CellRecord before = iteratedCell(
                "sleep-bound", "t", "virtual", design, samples(4, 10, 300, 0.02), samples(5, 10, 500, 0.02));
        CellRecord after = iteratedCell(
                "sleep-bound", "t", "virtual", design, samples(6, 10, 300, 0.02), samples(7, 10, 750, 0.02));

        CompareReport steady = Comparer.compare("b", List.of(before), "c", List.of(after), 0.10, 0.05);
        assertThat(steady.regressions()).isZero();
        assertThat(steady.comparisons()).singleElement().satisfies(c -> assertThat(c.metric())
                .isEqualTo("wallMs"));

        CompareReport cold =
                Comparer.compare("b", List.of(before), "c", List.of(after), 0.10, 0.05, Comparer.Phase.COLD_START);
        assertThat(cold.regressions()).isEqualTo(1);
        assertThat(cold.comparisons()).singleElement().satisfies(c -> {
            assertThat(c.metric()).isEqualTo("coldStartMs");
            assertThat(c.ratio()).isCloseTo(1.5, within(0.05));
        });
    }
}
