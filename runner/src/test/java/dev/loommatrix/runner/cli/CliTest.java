package dev.loommatrix.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.result.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The real CLI in-process: every CLI test drives it through {@link #run}, other packages' tests too. */
public class CliTest {

    public record Result(int code, String out, String err) {}

    public static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LoomMatrix.mainWithoutExit(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void validateAGoodMatrix() {
        Result r = run("validate", "--matrix", "../matrix.yaml");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("ok (4 jdks, 12 workloads, 144 cells)");
    }

    @Test
    void aBadMatrixExitsTwoWithEveryProblem() {
        Result r = run("validate", "--matrix", "../core/src/test/resources/matrices/many-errors.yaml");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .contains("many-errors.yaml:6:5: error: unknown key 'jvmargs'")
                // the eleven of the file, and the one only its profile 'quick' has (validate checks every profile)
                .contains("many-errors.yaml:25:11: error: cpus must not be empty\n"
                        + "  hint: an axis needs at least one value; remove the key to use the default"
                        + " (found with --profile quick)")
                .contains("12 problems found.");
        assertThat(r.err()).doesNotContain("Exception");
    }

    @Test
    void usageMistakesExitTwo() {
        assertThat(run("validate", "--matrix", "nope.yaml").code()).isEqualTo(2);
        assertThat(run("plan", "--matrix", "../matrix.yaml", "--shard", "3/2").err())
                .contains("shard must be I/N with 1 ≤ I ≤ N");
        assertThat(run("plan", "--matrix", "../matrix.yaml", "--format", "xml").code())
                .isEqualTo(2);
        assertThat(run("frobnicate").code()).isEqualTo(2);
        assertThat(run("run", "--matrix", "../matrix.yaml", "--retry-failed").err())
                .contains("--retry-failed needs --resume --out DIR");
    }

    /** The workflows consume these two formats: their bytes are sealed (one matrix with include/exclude). */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"json", "github"})
    void planFormatsAreSealedByGoldenFiles(String format) throws Exception {
        Result r = run(
                "plan",
                "--matrix",
                "../core/src/test/resources/plans/include-exclude.yaml",
                "--profile",
                "small",
                "--format",
                format);
        assertThat(r.code()).isZero();
        dev.loommatrix.core.testing.Golden.assertMatches(
                java.nio.file.Path.of("src/test/resources/golden/plan-" + format + ".json"), r.out());
    }

    @Test
    void planJsonAndGithubFormats() throws Exception {
        JsonNode json =
                Json.MAPPER.readTree(run("plan", "--matrix", "../matrix.yaml", "--profile", "quick", "--format", "json")
                        .out());
        assertThat(json.get("cells")).hasSize(44);
        assertThat(json.get("cells").get(0).get("id").asText())
                .isEqualTo("temurin-21.linux.cpus-2.par-auto.max-auto.minr-auto.mass-start");
        assertThat(json.get("cells").get(0).get("coordinates").get("vm").asText())
                .isEqualTo("hotspot");
        JsonNode github =
                Json.MAPPER.readTree(run("plan", "--matrix", "../matrix.yaml", "--format", "github", "--shard", "1/3")
                        .out());
        // the three shards are disjoint and together the plan (issue #32: this was "between 1 and 120 cells")
        java.util.List<String> all = new java.util.ArrayList<>();
        for (int k = 1; k <= 3; k++) {
            JsonNode shard = Json.MAPPER.readTree(
                    run("plan", "--matrix", "../matrix.yaml", "--format", "github", "--shard", k + "/3")
                            .out());
            assertThat(shard.get("include").size()).as("shard %d of 3", k).isPositive();
            shard.get("include").forEach(row -> all.add(row.get("cell").asText()));
        }
        java.util.List<String> planned = new java.util.ArrayList<>();
        Json.MAPPER
                .readTree(run("plan", "--matrix", "../matrix.yaml", "--format", "json")
                        .out())
                .get("cells")
                .forEach(c -> planned.add(c.get("id").asText()));
        assertThat(all).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(planned);
        JsonNode first = github.get("include").get(0);
        assertThat(first.get("cell").asText()).isEqualTo(first.get("cells").asText());
        assertThat(first.get("runsOn").asText()).isEqualTo("ubuntu-latest");
        assertThat(first.get("timeoutMinutes").asInt()).isEqualTo(20 + 30); // set-up + the cell's 30m timeout

        JsonNode sharded =
                Json.MAPPER.readTree(run("plan", "--matrix", "../matrix.yaml", "--format", "github", "--max-jobs", "7")
                        .out());
        assertThat(sharded.get("include")).hasSize(7);
        assertThat(sharded.get("include").get(0).has("cell")).isFalse();
        assertThat(sharded.get("include").get(0).get("name").asText()).matches("linux 1/7 \\(\\d+ cells\\)");
        assertThat(run("plan", "--matrix", "../matrix.yaml", "--max-jobs", "7").err())
                .contains("--max-jobs applies to --format github only");
    }

    @Test
    void everySubcommandHasHelpAndVersion() {
        for (String command : java.util.List.of("validate", "plan", "run", "merge", "compare", "publish", "serve")) {
            Result help = run(command, "--help");
            assertThat(help.code()).as(command).isZero();
            assertThat(help.out()).as(command).contains("Usage: loom-matrix " + command);
            assertThat(run(command, "--version").out()).as(command).startsWith("loom-matrix ");
        }
    }

    @Test
    void helpListsExitCodes() {
        Result r = run("--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("Exit codes:").contains("3   the run finished but some cells failed");
        // every code users script against, 5 and 6 included (they were missing from the help)
        for (ExitCode code : ExitCode.values()) {
            assertThat(r.out())
                    .containsPattern("(?m)^\\s*" + code.code + "\\s+" + java.util.regex.Pattern.quote(code.meaning));
        }
    }

    @Test
    void resumeRefusesAnotherProfileAndSaysWhenTheMatrixChanged(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
        java.nio.file.Path matrix = tmp.resolve("m.yaml");
        String yaml =
                """
                schema: 1
                jdks:
                  - {id: absent, vm: openj9, version: 21, javaHome: /nonexistent/jdk}
                workloads:
                  - {id: sleep-bound, variants: [virtual]}
                profiles:
                  p: {repetitions: 2}
                """;
        java.nio.file.Files.writeString(matrix, yaml);
        String out = tmp.resolve("run").toString();
        assertThat(run("run", "--matrix", matrix.toString(), "--backend", "local", "--out", out)
                        .code())
                .isZero(); // the one cell is skipped: no such JDK here

        Result other = run("run", "--matrix", matrix.toString(), "--profile", "p", "--resume", "--out", out);
        assertThat(other.code()).isEqualTo(2);
        assertThat(other.err()).contains("was started with no profile and no shard, not --profile p and no shard");

        assertThat(run("run", "--matrix", matrix.toString(), "--resume", "--out", out)
                        .err())
                .doesNotContain("changed since the run started");
        java.nio.file.Files.writeString(matrix, yaml + "timeout: 20m\n");
        Result edited = run("run", "--matrix", matrix.toString(), "--resume", "--out", out);
        assertThat(edited.code()).isZero();
        assertThat(edited.err()).contains("m.yaml changed since the run started");
    }

    @Test
    void aMissingRunDirectoryIsTheUsersMistakeSaidPlainly(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        Result publish = run(
                "publish",
                "--run",
                dir.resolve("nope").toString(),
                "--site",
                dir.resolve("site").toString());
        assertThat(publish.code()).isEqualTo(2);
        assertThat(publish.err())
                .contains("--run " + dir.resolve("nope") + " is not a run directory (no run.json); pass the directory "
                        + "`run` wrote")
                .doesNotContain("Exception");
        assertThat(dir.resolve("site")).doesNotExist();
    }

    /**
     * The layout ab writes — the candidate's run at the root, the baseline's under baseline/, blocks, the verdict —
     * with a real A/B run's verdict (benchmarks/results/2026-11-26-ab-budget/ab-5pct-after.json: a harness 5 %
     * slower in two workloads, 14 comparisons, 2 regressions).
     */
    private static java.nio.file.Path abRun(java.nio.file.Path dir, boolean withVerdict) throws java.io.IOException {
        java.nio.file.Path ab = dir.resolve("ab");
        java.nio.file.Files.createDirectories(ab.resolve("baseline"));
        java.nio.file.Files.createDirectories(ab.resolve("blocks"));
        String golden = java.nio.file.Files.readString(java.nio.file.Path.of("src/test/resources/golden/run.json"));
        java.nio.file.Files.writeString(ab.resolve("run.json"), golden.replace("20261121T233407Z-f5f3", "ab-1"));
        java.nio.file.Files.writeString(
                ab.resolve("baseline").resolve("run.json"), golden.replace("20261121T233407Z-f5f3", "ab-1-baseline"));
        if (withVerdict) {
            java.nio.file.Files.copy(
                    java.nio.file.Path.of("src/test/resources/fixtures/records/ab-5pct-regression.json"),
                    ab.resolve("compare.json"));
        }
        return ab;
    }

    @Test
    void anAbRunIsPublishedAsWhatItIsApartFromTheNightlyHistory(
            @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path site = dir.resolve("site");
        Result publish = run("publish", "--run", abRun(dir, true).toString(), "--site", site.toString());
        assertThat(publish.code()).as(publish.err()).isZero();
        assertThat(publish.out())
                .contains("published A/B run ab-1 (5 % slower sleep-bound and fib-fanout vs this harness) → ")
                .contains("#/ab?run=ab-1 (1 A/B runs in the site)")
                .contains("kept apart from the nightly history");
        var index = dev.loommatrix.core.result.Json.MAPPER.readTree(
                site.resolve("data/ab/index.json").toFile());
        var entry = index.path("runs").get(0);
        assertThat(entry.path("regressions").asInt()).isEqualTo(2);
        assertThat(entry.path("unchanged").asInt()).isEqualTo(3);
        assertThat(entry.path("inconclusive").asInt()).isEqualTo(9);
        assertThat(entry.path("aToA").asBoolean()).isFalse();
        assertThat(entry.path("ended").asText()).isEqualTo("budget");
        assertThat(site.resolve("data/ab/ab-1/compare.json")).exists();
        assertThat(site.resolve("index.html")).exists();
        // nothing of it in the nightly history: no run, no trend (an empty index, for the dashboard to load)
        assertThat(dev.loommatrix.runner.publish.History.readIndex(site).runs()).isEmpty();
        assertThat(site.resolve("data/runs")).doesNotExist();
        assertThat(site.resolve("data/trends")).doesNotExist();

        // a nightly run after it: the history has that one alone, and the A/B run stays listed
        java.nio.file.Path nightly = dir.resolve("nightly");
        java.nio.file.Files.createDirectories(nightly);
        java.nio.file.Files.copy(
                java.nio.file.Path.of("src/test/resources/golden/run.json"), nightly.resolve("run.json"));
        assertThat(run("publish", "--run", nightly.toString(), "--site", site.toString())
                        .code())
                .isZero();
        var history = dev.loommatrix.runner.publish.History.readIndex(site);
        assertThat(history.runs()).extracting(e -> e.runId()).containsExactly("20261121T233407Z-f5f3");
        assertThat(dev.loommatrix.runner.publish.AbRuns.read(site).runs())
                .extracting(e -> e.runId())
                .containsExactly("ab-1");
    }

    @Test
    void anAbRunStoppedBeforeItsVerdictHasNothingToPublish(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path ab = abRun(dir, false);
        Result publish = run(
                "publish", "--run", ab.toString(), "--site", dir.resolve("site").toString());
        assertThat(publish.code()).isEqualTo(2);
        assertThat(publish.err())
                .contains(ab + " is an A/B run (loom-matrix ab) that has no verdict (no compare.json")
                .doesNotContain("Exception");
        assertThat(dir.resolve("site")).doesNotExist();
    }

    @Test
    void anAbRunWhoseCellsWereSkippedFailsNoCheck(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        // issue #32: a runner without one of the matrix's JDKs skips its cells; run exits 0 on that, and so does ab
        java.nio.file.Path matrix = absentJdkMatrix(dir);
        Result ab = run(
                "ab",
                "--matrix",
                matrix.toString(),
                "--backend",
                "local",
                "--out",
                dir.resolve("ab").toString());
        assertThat(ab.code()).as(ab.out() + ab.err()).isZero();
        var cell = dev.loommatrix.core.result.Json.MAPPER.readTree(dir.resolve("ab")
                .resolve("cells")
                .resolve("absent.linux.cpus-2.par-auto.max-auto.minr-auto.sleep-bound.json")
                .toFile());
        assertThat(cell.path("status").asText()).isEqualTo("skipped");
        assertThat(ab.out())
                .contains("sleep-bound: skipped (javaHome /nonexistent/jdk of absent has no runnable bin/java)");
    }

    @Test
    void abWithJsonFormatPrintsTheVerdictAloneOnStandardOutput(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        // a script reads `ab --format json`'s standard output as one JSON document: the progress goes to stderr
        java.nio.file.Path matrix = absentJdkMatrix(dir);
        Result ab = run(
                "ab",
                "--matrix",
                matrix.toString(),
                "--backend",
                "local",
                "--format",
                "json",
                "--out",
                dir.resolve("ab").toString());
        assertThat(ab.code()).as(ab.out() + ab.err()).isZero();
        var verdict = dev.loommatrix.core.result.Json.MAPPER.readTree(ab.out());
        assertThat(verdict.isObject()).as(ab.out()).isTrue();
        assertThat(verdict)
                .isEqualTo(dev.loommatrix.core.result.Json.MAPPER.readTree(
                        dir.resolve("ab").resolve("compare.json").toFile()));
        assertThat(ab.err()).contains("sleep-bound: skipped");
    }

    /** A matrix whose one JDK this host does not have: its cells are skipped, an A/B run of it measures nothing. */
    private static java.nio.file.Path absentJdkMatrix(java.nio.file.Path dir) throws java.io.IOException {
        return java.nio.file.Files.writeString(
                dir.resolve("m.yaml"),
                """
                schema: 1
                jdks:
                  - {id: absent, vm: openj9, version: 21, javaHome: /nonexistent/jdk}
                workloads:
                  - {id: sleep-bound, variants: [virtual]}
                """);
    }
}
