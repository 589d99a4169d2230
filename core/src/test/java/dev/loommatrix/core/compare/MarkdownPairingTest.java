package dev.loommatrix.core.compare;

import static dev.loommatrix.core.testing.SyntheticRuns.cell;
import static dev.loommatrix.core.testing.SyntheticRuns.samples;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An A/B report says which cells' pairs were measured in lockstep, and why the others were not (issue #30). */
class MarkdownPairingTest {

    private static CompareReport abReport(Map<String, String> pairing) {
        return abReport(8, 0.02, pairing);
    }

    /** An A/B report of one comparison, {@code blocks} pairs a side of samples near 500 with {@code noise}. */
    static CompareReport abReport(int blocks, double noise, Map<String, String> pairing) {
        CompareReport report = Comparer.compare(
                "b",
                List.of(cell("sleep-bound", "t", "virtual", "wallMs", samples(1, blocks, 500, noise))),
                "c",
                List.of(cell("sleep-bound", "t", "virtual", "wallMs", samples(2, blocks, 500, noise))),
                0.10,
                0.05);
        return report.asAbRun(
                new CompareReport.AbRun("base", "head", List.of(), blocks, 0, List.of(), null, pairing),
                report.comparisons());
    }

    @Test
    void lockstepPairsAreListedPerCellWithWhyTheOthersWereNot() {
        String md = MarkdownReport.render(abReport(Map.of(
                "fib.cell", "lockstep: 8 pairs, 1536 turns in step",
                "mass.cell", "back to back (its forks run once, not by iterations)")));
        assertThat(md)
                .contains("Pairs in lockstep where a cell allows it")
                .contains("- `fib.cell`: lockstep: 8 pairs, 1536 turns in step\n")
                .contains("- `mass.cell`: back to back (its forks run once, not by iterations)\n");
    }

    @Test
    void backToBackPairsAddNothingToTheReport() {
        String md = MarkdownReport.render(abReport(Map.of("fib.cell", "back to back")));
        assertThat(md).doesNotContain("lockstep").doesNotContain("back to back");
        assertThat(MarkdownReport.render(abReport(Map.of()))).isEqualTo(md);
    }
}
