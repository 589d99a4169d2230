package dev.loommatrix.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.Json;
import dev.loommatrix.runner.contract.ResultsSchemaTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loom-matrix report}: a run of cells whose truth is known (pinning on JDK 21 and 25, sleep-bound, a disturbed
 * sleep-bound cell) concluded in words and as a document the published schema accepts.
 */
class ReportCommandTest {

    static final Path GOLDEN = Path.of("src/test/resources");

    static Path run(Path dir) throws Exception {
        Path run = dir.resolve("run");
        Files.createDirectories(run.resolve("cells"));
        Files.copy(GOLDEN.resolve("golden/run.json"), run.resolve("run.json"));
        for (String cell : List.of(
                "golden/cell-pinning-21-profiled.json",
                "golden/cell-pinning-25-profiled.json",
                "golden/cell-sleep-bound.json",
                "fixtures/records/sleep-bound-disturbed.json")) {
            String id = Json.MAPPER
                    .readTree(GOLDEN.resolve(cell).toFile())
                    .path("cellId")
                    .asText();
            Files.copy(GOLDEN.resolve(cell), run.resolve("cells").resolve(id + ".json"));
        }
        return run;
    }

    @Test
    void theReportSaysWhereVirtualThreadsPayOffWhereTheyHurtAndWhy(@TempDir Path dir) throws Exception {
        CliTest.Result report = CliTest.run("report", run(dir).toString());
        assertThat(report.code()).as(report.err()).isZero();
        assertThat(report.out())
                .startsWith("## What this run concludes\n")
                .contains("### pinning")
                .contains(
                        "- **hurts** on debian-21: synchronized against the one other variant measured (reentrant-lock), on time (lower is better):"
                                + " 0.128×")
                .contains(
                        "- **no difference** on debian-25: synchronized against the one other variant measured (reentrant-lock), on time"
                                + " (lower is better):")
                // the measured cause, from the cell's JFR summary, linked to the cell
                .contains("  - why, [debian-21, 2 CPUs](cells/debian-21.linux.cpus-2.par-auto.max-auto.minr-auto"
                        + ".pinning.json): pinning: in synchronized, virtual threads parked pinned to their carrier"
                        + " 64 times, 3,212 ms in all, at `Pinning.sleep:201` (64)")
                .contains("### sleep-bound")
                .contains(
                        "- **pays off** in every valid condition measured: virtual against the one other variant measured (pool:100), on time (lower is better):"
                                + " 5.75×")
                .contains("- not valid: [debian-25, 1 CPU on CPUs 0]")
                .contains("disturbed: measured beside 0.71 CPUs of other work");
        // JDK 25 does not pin: no pinning claimed there
        assertThat(report.out()).doesNotContainPattern("why, \\[debian-25[^\\n]*pinning:");
    }

    @Test
    void publishWritesTheSameDocumentBesideTheRunsOtherFiles(@TempDir Path dir) throws Exception {
        Path run = run(dir);
        Path site = dir.resolve("site");
        CliTest.Result publish = CliTest.run("publish", "--run", run.toString(), "--site", site.toString());
        assertThat(publish.code()).as(publish.err()).isZero();
        CliTest.Result report = CliTest.run("report", run.toString(), "--format", "json");
        String runId = Json.MAPPER
                .readTree(run.resolve("run.json").toFile())
                .path("runId")
                .asText();
        var published = Json.MAPPER.readTree(
                site.resolve("data/runs/" + runId + "/conclusions.json").toFile());
        assertThat(published).isEqualTo(Json.MAPPER.readTree(report.out()));
        assertThat(published.path("conclusions")).hasSizeGreaterThanOrEqualTo(2);
    }

    @Test
    void asJsonItIsADocumentOfThePublishedSchema(@TempDir Path dir) throws Exception {
        CliTest.Result report = CliTest.run("report", run(dir).toString(), "--format", "json");
        assertThat(report.code()).as(report.err()).isZero();
        var doc = Json.MAPPER.readTree(report.out());
        assertThat(ResultsSchemaTest.schema().validate(doc)).isEmpty();
        assertThat(doc.path("thresholdPercent").asDouble()).isEqualTo(10.0);
        var pinning = java.util.stream.StreamSupport.stream(
                        doc.path("conclusions").spliterator(), false)
                .filter(w -> w.path("workload").asText().equals("pinning"))
                .findFirst()
                .orElseThrow();
        assertThat(pinning.path("rules")).hasSize(2);
        assertThat(pinning.path("rules")
                        .get(0)
                        .path("where")
                        .get(0)
                        .path("axis")
                        .asText())
                .isEqualTo("jdk");
        assertThat(pinning.path("rules").get(0).path("conclusion").asText()).isEqualTo("hurts");
        assertThat(pinning.path("findings")
                        .get(0)
                        .path("causes")
                        .get(0)
                        .path("kind")
                        .asText())
                .isEqualTo("pinning");
    }

    @Test
    void onAPublishedDashboardEachConditionLinksToItsCellView(@TempDir Path dir) throws Exception {
        CliTest.Result report = CliTest.run("report", run(dir).toString(), "--site", "https://bench.example.org/loom");
        assertThat(report.code()).as(report.err()).isZero();
        assertThat(report.out())
                .contains("[debian-21, 2 CPUs](https://bench.example.org/loom/#/cell?cell=debian-21.linux.cpus-2"
                        + ".par-auto.max-auto.minr-auto.pinning&run=20261121T233407Z-f5f3)")
                .contains("why, [debian-21, 2 CPUs](https://bench.example.org/loom/#/cell?cell=debian-21.linux"
                        + ".cpus-2.par-auto.max-auto.minr-auto.pinning&focus=why&run=20261121T233407Z-f5f3)");
    }

    @Test
    void aMistakeIsSaidWithExitTwo(@TempDir Path dir) throws Exception {
        CliTest.Result badFormat = CliTest.run("report", run(dir).toString(), "--format", "html");
        assertThat(badFormat.code()).isEqualTo(2);
        assertThat(badFormat.err()).contains("error: --format must be markdown or json, got 'html'");
        CliTest.Result missing = CliTest.run("report", dir.resolve("nothing").toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err()).startsWith("error: ").doesNotContain("Exception");
    }
}
