package dev.loommatrix.core.compare;

import static dev.loommatrix.core.testing.SyntheticRuns.cell;
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
        CompareReport report = Comparer.compare(
                "b",
                List.of(cell("sleep-bound", "t", "virtual", "wallMs", samples(1, 2, 500, 0.2))),
                "c",
                List.of(cell("sleep-bound", "t", "virtual", "wallMs", samples(2, 2, 500, 0.2))),
                0.10,
                0.05);
        CompareReport ab = report.asAbRun(
                new CompareReport.AbRun("base", "head", List.of(), 2, 0, List.of(), null, Map.of()),
                report.comparisons());
        assertThat(ab.resolution()).isNull();
        assertThat(MarkdownReport.render(ab))
                .contains("`ab --blocks N` for the first pass (1 comparison needs at least 6)");
    }
}
