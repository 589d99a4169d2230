package dev.loommatrix.runner.cli;

import static dev.loommatrix.core.testing.SyntheticRuns.cell;
import static dev.loommatrix.core.testing.SyntheticRuns.samples;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.core.result.RunManifest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI contract: exit 4 on a regression, 0 against itself; markdown and JSON as docs/contracts.md says. */
class CompareCommandTest {

    static Path run(Path dir, String runId, List<CellRecord> cells) throws Exception {
        RunDirectory run = new RunDirectory(dir);
        run.writeManifest(new RunManifest(
                1,
                runId,
                "2026-11-21T00:00:00Z",
                Optional.of("2026-11-21T00:10:00Z"),
                dev.loommatrix.core.result.RunStatus.FINISHED,
                "test",
                new RunManifest.Git("abc", "main", false),
                RunManifest.Host.of("Linux", "6", "cpu", 2, 1L << 30),
                new RunManifest.MatrixInfo("matrix.yaml", Optional.empty(), "0", Optional.empty()),
                cells.stream().map(CellRecord::cellId).toList()));
        for (CellRecord cell : cells) {
            run.writeCell(cell);
        }
        return dir;
    }

    /** The real CLI in-process, as every CLI test drives it. */
    static CliTest.Result compare(String... args) {
        return CliTest.run(args);
    }

    @Test
    void aRegressionExitsFourAndTheMarkdownLeadsWithIt(@TempDir Path tmp) throws Exception {
        Path base = run(
                tmp.resolve("base"),
                "base-run",
                List.of(
                        cell("sleep-bound", "t21", "virtual", "wallMs", samples(1, 8, 400, 0.02)),
                        cell("mass-start", "t21", "virtual", "wallMs", samples(2, 8, 900, 0.02))));
        Path cand = run(
                tmp.resolve("cand"),
                "cand-run",
                List.of(
                        cell("sleep-bound", "t21", "virtual", "wallMs", samples(3, 8, 560, 0.02)),
                        cell("mass-start", "t21", "virtual", "wallMs", samples(4, 8, 905, 0.02))));
        CliTest.Result md = compare("compare", "--baseline", base.toString(), "--candidate", cand.toString());
        assertThat(md.code()).as(md.err()).isEqualTo(4);
        assertThat(md.out())
                .startsWith("### loom-matrix: cand-run against base-run")
                .contains("**1 regression(s)**")
                .contains("🔴 regression | `t21.linux.cpus-2.par-auto.max-auto.minr-auto.sleep-bound`")
                .contains("<details><summary>All 2 comparisons</summary>");

        CliTest.Result json =
                compare("compare", "--baseline", base.toString(), "--candidate", cand.toString(), "--format", "json");
        assertThat(json.code()).isEqualTo(4);
        JsonNode report = Json.MAPPER.readTree(json.out());
        assertThat(report.get("baseline").asText()).isEqualTo("base-run");
        assertThat(report.get("threshold").asDouble()).isEqualTo(0.10);
        assertThat(report.get("regressions").asInt()).isEqualTo(1);
        JsonNode first = report.get("comparisons").get(0);
        assertThat(first.get("metric").asText()).isEqualTo("wallMs");
        for (String field : List.of(
                "cellId", "variant", "baseline", "candidate", "ratio", "ci95", "pValue", "pAdjusted", "verdict")) {
            assertThat(first.has(field)).as(field).isTrue();
        }
        assertThat(first.get("baseline").get("n").asInt()).isEqualTo(8);

        // Both formats are sealed by golden files (seeded samples and bootstrap: the same bytes every time)
        golden("compare.md", md.out());
        golden("compare.json", json.out());
    }

    static void golden(String name, String actual) throws Exception {
        dev.loommatrix.core.testing.Golden.assertMatches(
                Path.of("src/test/resources/golden").resolve(name), actual);
    }

    @Test
    void aRunAgainstItselfExitsZeroAndAHigherThresholdSilencesTheChange(@TempDir Path tmp) throws Exception {
        Path base = run(
                tmp.resolve("base"),
                "base-run",
                List.of(cell("sleep-bound", "t21", "virtual", "wallMs", samples(1, 8, 400, 0.02))));
        Path cand = run(
                tmp.resolve("cand"),
                "cand-run",
                List.of(cell("sleep-bound", "t21", "virtual", "wallMs", samples(3, 8, 480, 0.02))));
        assertThat(compare("compare", "--baseline", base.toString(), "--candidate", base.toString())
                        .code())
                .isZero();
        assertThat(compare("compare", "--baseline", base.toString(), "--candidate", cand.toString())
                        .code())
                .isEqualTo(4);
        assertThat(compare(
                                "compare",
                                "--baseline",
                                base.toString(),
                                "--candidate",
                                cand.toString(),
                                "--threshold",
                                "25")
                        .code())
                .isZero();
        assertThat(compare("compare", "--baseline", tmp.toString(), "--candidate", base.toString())
                        .code())
                .isEqualTo(2);
    }

    @Test
    void aCellFromANewerSchemaIsRefusedClearly(@TempDir Path tmp) throws Exception {
        CellRecord cell = cell("sleep-bound", "t21", "virtual", "wallMs", samples(1, 8, 400, 0.02));
        Path base = run(tmp.resolve("base"), "base-run", List.of(cell));
        Path file = new RunDirectory(base).cellFile(cell.cellId());
        java.nio.file.Files.writeString(
                file, java.nio.file.Files.readString(file).replace("\"schemaVersion\" : 1", "\"schemaVersion\" : 2"));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LoomMatrix.mainWithoutExit(
                new String[] {"compare", "--baseline", base.toString(), "--candidate", base.toString()},
                new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).isEqualTo(2); // bad input, not an internal error
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains(
                        ".json: $.schemaVersion: results schema 2; this loom-matrix reads schema 1 — upgrade loom-matrix");
        // and files are readable by others (published to static hosts)
        assertThat(java.nio.file.Files.getPosixFilePermissions(file))
                .contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ);
    }

    /** export reads a run directory as compare does, and writes each format; a bad format is exit 2. */
    @Test
    void exportWritesEachFormatOfARun(@TempDir Path tmp) throws Exception {
        Path dir = run(
                tmp.resolve("r"),
                "r1",
                List.of(cell("sleep-bound", "t21", "virtual", "wallMs", samples(1, 4, 400, 0.02))));
        CliTest.Result jmh = compare("export", dir.toString(), "--format", "jmh");
        assertThat(jmh.code()).as(jmh.err()).isZero();
        assertThat(Json.MAPPER
                        .readTree(jmh.out())
                        .get(0)
                        .get("primaryMetric")
                        .get("scoreUnit")
                        .asText())
                .isEqualTo("ms/op");
        assertThat(compare("export", dir.toString(), "--format", "bmf").out()).contains("\"wallMs\"");
        Path csv = tmp.resolve("out.csv");
        assertThat(compare("export", dir.toString(), "--format", "csv", "--out", csv.toString())
                        .code())
                .isZero();
        assertThat(java.nio.file.Files.readAllLines(csv).get(0)).startsWith("runId,cellId,jdk,");
        CliTest.Result bad = compare("export", dir.toString(), "--format", "xml");
        assertThat(bad.code()).isEqualTo(2);
        assertThat(bad.err()).contains("--format must be jmh, bmf or csv, got 'xml'");
    }

    /** Issue #49: a check asked for a verdict that compared nothing (every cell skipped) has none: exit 5. */
    @Test
    void nothingComparedIsNoVerdict(@TempDir Path tmp) throws Exception {
        Path baseline = run(tmp.resolve("a"), "a", List.of());
        Path candidate = run(tmp.resolve("b"), "b", List.of());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        String[] args = {"compare", "--baseline", baseline.toString(), "--candidate", candidate.toString()};
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        assertThat(LoomMatrix.mainWithoutExit(args, print, System.err)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("**No verdict: nothing was compared**");
        String[] required = java.util.stream.Stream.concat(
                        java.util.Arrays.stream(args), java.util.stream.Stream.of("--require-verdict"))
                .toArray(String[]::new);
        assertThat(LoomMatrix.mainWithoutExit(required, print, System.err)).isEqualTo(5);
    }
}
