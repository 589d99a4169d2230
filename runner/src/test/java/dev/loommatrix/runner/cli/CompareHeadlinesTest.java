package dev.loommatrix.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.compare.CompareReport;
import dev.loommatrix.core.compare.Comparer;
import dev.loommatrix.core.compare.MarkdownReport;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Json;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue #19: a comparison names each shared cell's headline contrast before and after, so a pull request that
 * moves a matrix entry from JDK 21 to 25 is told the pinning penalty went — not only that each variant changed.
 * Both sides are the runner's golden pinning cells from real containers (synchronized 403 ms against
 * reentrant-lock's 51 on JDK 21, 51 against 51 on JDK 25).
 */
class CompareHeadlinesTest {

    static CellRecord golden(String name) throws Exception {
        return Json.MAPPER.readValue(Path.of("src/test/resources/golden", name).toFile(), CellRecord.class);
    }

    @Test
    void aComparisonSaysWhatHappenedToEachCellsHeadline() throws Exception {
        CellRecord jdk21 = golden("cell-pinning-21.json");
        CellRecord jdk25 = golden("cell-pinning-25.json");
        // the same matrix entry, its image moved from JDK 21 to 25: one cell id on both sides
        CellRecord before = Json.MAPPER.readValue(
                Json.MAPPER.writeValueAsString(jdk21).replace(jdk21.cellId(), jdk25.cellId()), CellRecord.class);
        CompareReport report = Comparer.compare("jdk21", List.of(before), "jdk25", List.of(jdk25), 0.10, 0.05);

        assertThat(report.headlines()).hasSize(1);
        CompareReport.Headline h = report.headlines().get(0);
        assertThat(h.subject()).isEqualTo("synchronized");
        assertThat(h.reference()).hasValue("reentrant-lock");
        assertThat(h.words()).contains("JEP 491");
        assertThat(h.baseline().orElseThrow().value()).isCloseTo(0.1274, org.assertj.core.data.Offset.offset(0.0005));
        assertThat(h.candidate().orElseThrow().value()).isCloseTo(1.0024, org.assertj.core.data.Offset.offset(0.0005));

        String md = MarkdownReport.render(report);
        assertThat(md)
                .contains("Headlines: 1 cell(s)")
                .contains("| `" + jdk25.cellId()
                        + "` | synchronized vs reentrant-lock | 0.127× (0.127–0.128) | 1.00× (1.00–1.00) |");

        // the cold start's headline is the cold start's speedup
        CompareReport cold = Comparer.compare(
                "jdk21", List.of(before), "jdk25", List.of(jdk25), 0.10, 0.05, Comparer.Phase.COLD_START);
        assertThat(cold.headlines().get(0).baseline().orElseThrow().value())
                .isCloseTo(0.1495, org.assertj.core.data.Offset.offset(0.0005));
    }

    @Test
    void cellsWithoutAHeadlineAddNothing() throws Exception {
        CellRecord cell = golden("cell-sleep-bound.json");
        var json = Json.MAPPER.readTree(Json.MAPPER.writeValueAsString(cell));
        ((com.fasterxml.jackson.databind.node.ObjectNode) json).remove("contrast");
        CellRecord old = Json.MAPPER.treeToValue(json, CellRecord.class);
        CompareReport report = Comparer.compare("a", List.of(old), "b", List.of(old), 0.10, 0.05);
        assertThat(report.headlines()).isEmpty();
        assertThat(Json.MAPPER.writeValueAsString(report)).doesNotContain("headlines");
        assertThat(MarkdownReport.render(report)).doesNotContain("Headlines");
    }
}
