package dev.loommatrix.core.compare;

import static dev.loommatrix.core.testing.SyntheticRuns.abCell;
import static dev.loommatrix.core.testing.SyntheticRuns.samples;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An inconclusive A/B report names the knob and the pairs its comparisons need (issue #30). */
class MarkdownAbHintTest {

    /**
     * Two block pairs a side leave the run without a resolution (its A/A halves need 2 blocks each), yet the hint
     * still says what the paired test needs for one comparison at 5 %: 2 / 2ⁿ ≤ 0.05 first at n = 6 (2 / 32 =
     * 0.0625, 2 / 64 = 0.031) — it said "at least 0" there.
     */
    @Test
    void twoBlocksAPairStillSayHowManyPairsTheTestNeeds() {
        CompareReport ab = MarkdownPairingTest.abReport(2, 0.2, Map.of());
        assertThat(ab.resolution()).isNull();
        assertThat(MarkdownReport.render(ab))
                .contains("`ab --blocks N` for the first pass (1 comparison needs at least 6)");
    }

    /**
     * What the tests need is said of the comparisons that used them: one comparison of 8 pairs tested by the
     * signed-rank test, its 6 pairs (2 / 2ⁿ ≤ 0.05); the same comparison tested by the nested t, its 4 — a report
     * whose rows were all nested-t said "fewer than 10 pairs cannot reach significance at all" at 9 pairs (the ab
     * profile, 14 comparisons).
     */
    @Test
    void whatTheTestsNeedIsSaidOfTheComparisonsThatUsedThem() {
        CompareReport run = Comparer.compare(
                "b",
                List.of(abCell("sleep-bound", "t", "virtual", "wallMs", samples(1, 8, 500, 0.2))),
                "c",
                List.of(abCell("sleep-bound", "t", "virtual", "wallMs", samples(2, 8, 500, 0.2))),
                0.10,
                0.05);
        run = run.asAbRun(
                new CompareReport.AbRun("base", "head", List.of(), 8, 0, List.of(), null, Map.of()), run.comparisons());
        Comparison c = run.comparisons().get(0).undecided();
        assertThat(c.test()).isEqualTo(Comparison.SIGNED_RANK);
        assertThat(run.resolution()).isNotNull();
        assertThat(MarkdownReport.render(run.asAbRun(run.ab(), List.of(c))))
                .contains("With 1 comparison, fewer than 6 pairs per cell cannot reach significance at all.")
                .contains("(1 comparison needs at least 6)");

        assertThat(MarkdownReport.render(run.asAbRun(run.ab(), List.of(tested(c, Comparison.NESTED_T)))))
                .contains("Every comparison used the nested t, which needs 4 pairs per cell to say anything")
                .doesNotContain("cannot reach significance at all")
                .contains("(1 comparison needs at least 4)");
    }

    /** The comparison as if tested by {@code test}. */
    private static Comparison tested(Comparison c, String test) {
        return new Comparison(
                c.cellId(),
                c.variant(),
                c.metric(),
                c.higherIsBetter(),
                c.baseline(),
                c.candidate(),
                c.ratio(),
                c.ci95(),
                c.pValue(),
                c.pAdjusted(),
                c.verdict(),
                c.benchmark(),
                c.ciLevel(),
                test,
                c.pairs(),
                c.detectable(),
                c.noise(),
                c.confirmation(),
                c.nested());
    }
}
