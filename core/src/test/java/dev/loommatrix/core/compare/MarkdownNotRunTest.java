package dev.loommatrix.core.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An A/B report says which cells this host did not run, with why, before its counts: a matrix with a JDK the host
 * lacks once read "No verdict on 7 cell(s)" — the budget spent on four skipped cells — and nothing said of them.
 */
class MarkdownNotRunTest {

    static final String SKIPPED_23 = "jdk-23.linux.cpus-2.par-auto.max-auto.minr-auto.sleep-bound";
    static final String SKIPPED_23_FIB = "jdk-23.linux.cpus-2.par-auto.max-auto.minr-auto.fib-fanout";

    /** One measured comparison, and a sequential part with these cells not run and these left out by the budget. */
    private static CompareReport report(Map<String, String> notRun, Map<String, String> notMeasured) {
        CompareReport measured = MarkdownPairingTest.abReport(8, 0.02, Map.of());
        return measured.asAbRun(
                new CompareReport.AbRun(
                        "base",
                        "head",
                        List.of(),
                        8,
                        0,
                        List.of(),
                        new CompareReport.Sequential(
                                "method",
                                List.of(8),
                                0.05,
                                180L,
                                40,
                                1,
                                "last-look",
                                Map.of("t", 8),
                                notMeasured,
                                0.05,
                                Map.of(),
                                notRun),
                        Map.of()),
                measured.comparisons());
    }

    @Test
    void cellsNotRunOnThisHostAreSaidWithWhyBeforeTheCounts() throws Exception {
        CompareReport report = report(
                Map.of(
                        SKIPPED_23, "no JDK 23 (hotspot) on this host",
                        SKIPPED_23_FIB, "no JDK 23 (hotspot) on this host"),
                Map.of());
        String md = MarkdownReport.render(report);
        assertThat(md)
                .contains("2 cell(s) not run on this host, so not compared:\n"
                        + "- `" + SKIPPED_23_FIB + "`: no JDK 23 (hotspot) on this host\n"
                        + "- `" + SKIPPED_23 + "`: no JDK 23 (hotspot) on this host\n")
                .doesNotContain("not measured within the budget")
                .doesNotContain("No verdict");
        assertThat(md.indexOf("not run on this host")).isLessThan(md.indexOf("No regression, "));

        // compare.json: the cells by id with why, additive
        var json = Json.MAPPER.readTree(Json.MAPPER.writeValueAsString(report));
        var sequential = json.path("ab").path("sequential");
        assertThat(sequential.path("notRun").path(SKIPPED_23).asText()).isEqualTo("no JDK 23 (hotspot) on this host");
        assertThat(sequential.has("notMeasured")).isFalse();
        assertThat(Json.MAPPER
                        .readValue(Json.MAPPER.writeValueAsString(report), CompareReport.class)
                        .ab()
                        .sequential()
                        .notRun())
                .isEqualTo(report.ab().sequential().notRun());
    }

    @Test
    void aBudgetsCellsLeftOutAndCellsNotRunAreSaidApart() throws Exception {
        String md = MarkdownReport.render(report(
                Map.of(SKIPPED_23, "no JDK 23 (hotspot) on this host"),
                Map.of("t25.cell", "its first pass (6 pairs, about 34s) does not fit the 3m budget")));
        assertThat(md)
                .contains("**No verdict on 1 cell(s): not measured within the budget.**\n- `t25.cell`: its first pass")
                .contains("1 cell(s) not run on this host, so not compared:\n- `" + SKIPPED_23 + "`: no JDK 23");
        assertThat(md.indexOf("not run on this host")).isLessThan(md.indexOf("No regression, "));
    }

    @Test
    void aReportWithEveryCellRunSaysNothingOfIt() throws Exception {
        CompareReport report = report(Map.of(), Map.of());
        assertThat(MarkdownReport.render(report)).doesNotContain("not run");
        assertThat(Json.MAPPER.writeValueAsString(report)).doesNotContain("notRun");
        // a report written before the field reads as every cell run
        String older = Json.MAPPER.writeValueAsString(report);
        assertThat(Json.MAPPER
                        .readValue(older, CompareReport.class)
                        .ab()
                        .sequential()
                        .notRun())
                .isEmpty();
    }
}
