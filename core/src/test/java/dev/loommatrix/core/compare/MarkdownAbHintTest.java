package dev.loommatrix.core.compare;

import static org.assertj.core.api.Assertions.assertThat;

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
}
