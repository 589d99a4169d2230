package dev.loommatrix.core.conclude;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loommatrix.core.compare.CompareReport;
import dev.loommatrix.core.compare.Comparer;
import dev.loommatrix.core.compare.MarkdownReport;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.ResultsFormat;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two runs that conclude differently: the pinning cell measured on JDK 25 (synchronized no longer pins: no
 * difference) as the baseline, and the same cell as JDK 21 measured it (synchronized pins: it hurts, 0.125×) as the
 * candidate — what a change that brought pinning back would look like.
 */
class ConclusionChangesTest {

    /** The JDK 21 cell under the JDK 25 cell's id and coordinates: the same condition, concluded otherwise. */
    static CellRecord pinningAgain() throws Exception {
        Path on21 = FindingsTest.RECORDS.resolve("golden/cell-pinning-21.json");
        Path on25 = FindingsTest.RECORDS.resolve("golden/cell-pinning-25.json");
        ObjectNode cell = (ObjectNode) Json.MAPPER.readTree(on21.toFile());
        ObjectNode same = (ObjectNode) Json.MAPPER.readTree(on25.toFile());
        cell.set("cellId", same.get("cellId"));
        cell.set("coordinates", same.get("coordinates"));
        return ResultsFormat.readCell(on21, cell);
    }

    @Test
    void aConditionConcludedOtherwiseIsAChangeWithBothContrasts() throws Exception {
        CellRecord before = FindingsTest.cell("golden/cell-pinning-25.json");
        CellRecord after = pinningAgain();
        List<ConclusionChanges.Change> changes =
                ConclusionChanges.between(Findings.of(before, 0.10), Findings.of(after, 0.10));
        assertThat(changes).singleElement().satisfies(c -> {
            assertThat(c.cellId()).isEqualTo(before.cellId());
            assertThat(c.from()).isEqualTo(Conclusion.NO_DIFFERENCE);
            assertThat(c.to()).isEqualTo(Conclusion.HURTS);
            assertThat(c.after().ratio()).isBetween(0.12, 0.13);
            assertThat(c.words())
                    .startsWith("pinning, " + ConclusionsMarkdown.condition(before.coordinates()) + ": no difference"
                            + " (synchronized against reentrant-lock, ")
                    // on JDK 21 the best other is object-wait (reentrant-lock 0.125×, object-wait a little faster)
                    .contains("→ hurts (synchronized against object-wait, 0.12");
        });
        assertThat(ConclusionChanges.concludedOnBoth(Findings.of(before, 0.10), Findings.of(after, 0.10)))
                .isEqualTo(1);
    }

    @Test
    void theSameConclusionIsNoChangeAndCannotTellIsNoConclusion() throws Exception {
        CellRecord cell = FindingsTest.cell("golden/cell-pinning-25.json");
        List<Finding> findings = Findings.of(cell, 0.10);
        assertThat(ConclusionChanges.between(findings, findings)).isEmpty();
        // a band so narrow the interval reaches across its edge: cannot tell, which concludes nothing to change
        List<Finding> unsure = Findings.of(pinningAgain(), 0.10).stream()
                .map(f -> new Finding(
                        f.cellId(),
                        f.coordinates(),
                        f.benchmark(),
                        Conclusion.CANNOT_TELL,
                        f.headline(),
                        f.overBest(),
                        f.why()))
                .toList();
        assertThat(ConclusionChanges.between(findings, unsure)).isEmpty();
        assertThat(ConclusionChanges.concludedOnBoth(findings, unsure)).isZero();
    }

    @Test
    void compareLeadsWithTheChangedAnswer() throws Exception {
        CellRecord before = FindingsTest.cell("golden/cell-pinning-25.json");
        CompareReport report = Comparer.compare("base", List.of(before), "cand", List.of(pinningAgain()), 0.10, 0.05);
        assertThat(report.conclusions().alike()).isZero();
        assertThat(report.conclusions().changed()).hasSize(1);
        String md = MarkdownReport.render(report);
        assertThat(md)
                .contains("**The answer changed in 1 of 1 condition** both sides concluded on")
                .contains("- pinning, ");
        // before the counts of regressions: the answer first, the numbers after
        assertThat(md.indexOf("The answer changed")).isLessThan(md.indexOf("regression"));

        CompareReport same = Comparer.compare("base", List.of(before), "cand", List.of(before), 0.10, 0.05);
        assertThat(same.conclusions()).isEqualTo(new CompareReport.Conclusions(0.10, 1, List.of()));
        assertThat(MarkdownReport.render(same))
                .contains("**The answer is the same on both sides**: in the one condition both sides concluded on");
    }
}
