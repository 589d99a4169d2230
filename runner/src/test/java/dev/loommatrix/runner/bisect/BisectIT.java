package dev.loommatrix.runner.bisect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.runner.cli.LoomMatrix;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loom-matrix bisect} end to end (issue #53) in a real git repository of a team's program: eight commits after
 * the good one — one changes only the README, one does not compile, one makes the program's work 25 % slower — each
 * probed commit built by {@code javac} in its worktree and measured by the A/B engine against the good build on the
 * local backend. The bisection names the slowing commit with its change, skips the broken one, and says so; run
 * again, it resumes from its finished steps; over the commits before the slowdown it finds no regression.
 */
class BisectIT {

    /** The program: a fixed amount of arithmetic a round, timed by itself, reported in Bencher Metric Format. */
    private static final String PROGRAM =
            """
            package app;

            public class Main {
                static final int WORK = %d;

                public static void main(String[] args) throws Exception {
                    long sink = 0;
                    StringBuilder rounds = new StringBuilder();
                    double[] ms = new double[20];
                    for (int r = -10; r < ms.length; r++) {
                        long t = System.nanoTime();
                        sink += work(WORK);
                        if (r >= 0) {
                            ms[r] = (System.nanoTime() - t) / 1e6;
                            rounds.append(r == 0 ? "" : ", ").append(ms[r]);
                        }
                    }
                    java.util.Arrays.sort(ms);
                    String file = System.getenv("LOOM_METRICS_FILE");
                    if (file != null) {
                        java.nio.file.Files.writeString(java.nio.file.Path.of(file), "{\\"work\\": {\\"workMs\\": "
                                + "{\\"value\\": " + ms[ms.length / 2] + ", \\"iterations\\": [" + rounds + "]}}}");
                    }
                    System.out.println(sink == 42 ? "" : "done");
                }

                static long work(int n) {
                    long x = 1;
                    for (int i = 0; i < n; i++) {
                        x = x * 6364136223846793005L + 1442695040888963407L;
                        x ^= x >>> 29;
                    }
                    return x;
                }
            }
            """;

    private static final String MATRIX =
            """
            schema: 1
            jdks:
              - {id: host-25, vm: hotspot, version: 25}
            cpus: [2]
            repetitions: 3
            warmup: 0
            workloads:
              - id: work
                program:
                  classpath: [build]
                  mainClass: app.Main
                  metrics:
                    workMs: {unit: ms, direction: lower}
                variants:
                  plain: {jvmArgs: [-Xmx256m]}
            """;

    @Test
    void theSlowingCommitIsNamedTheBrokenOneSkippedAndABisectionRunAgainResumes(@TempDir Path dir) throws Exception {
        Path repo = Files.createDirectories(dir.resolve("team"));
        List<String> subjects = history(repo);

        Run first = bisect(repo, dir.resolve("bisect"), "HEAD~8", "HEAD");
        assertThat(first.code()).as(first.console()).isZero();
        JsonNode report = Json.MAPPER.readTree(dir.resolve("bisect/bisect.json").toFile());
        assertThat(report.path("ending").asText()).as(first.console()).isEqualTo("found");
        assertThat(report.path("found")).hasSize(1);
        JsonNode found = report.path("found").get(0);
        assertThat(found.path("commit").path("subject").asText()).isEqualTo("make the work 25 % slower");
        // its change against good, with an interval around the 25 % the commit made
        assertThat(found.path("to").path("low").asDouble()).isBetween(1.10, 1.25);
        assertThat(found.path("to").path("high").asDouble()).isBetween(1.20, 1.45);
        // the bad commit, the skipped one, its neighbour, then the slowing one: ⌈log₂ 8⌉ + 1, and the skip
        JsonNode steps = report.path("steps");
        assertThat(steps.size()).isLessThanOrEqualTo(3 + 1 + 1);
        List<String> probed = new ArrayList<>();
        steps.forEach(s -> probed.add(s.path("commit").path("subject").asText()));
        assertThat(probed).contains("break the build");
        assertThat(steps.get(probed.indexOf("break the build")).path("why").asText())
                .startsWith("skipped: it does not build (exit 1");
        assertThat(first.console())
                .contains("bisect: 8 commits after good")
                .contains("at most 4 steps")
                .contains("the first bad commit is ");
        assertThat(dir.resolve("bisect").resolve(steps.get(0).path("evidence").asText()))
                .isRegularFile();
        assertThat(subjects).contains("make the work 25 % slower");

        // run again with the same directory: every step is read, none measured, the same answer
        Run again = bisect(repo, dir.resolve("bisect"), "HEAD~8", "HEAD");
        assertThat(again.code()).as(again.console()).isZero();
        assertThat(again.console()).contains("measured before").doesNotContain("A/B against good at a threshold");
        assertThat(Json.MAPPER
                        .readTree(dir.resolve("bisect/bisect.json").toFile())
                        .path("found"))
                .isEqualTo(report.path("found"));

        // before the slowdown: the README's change and nothing else measurable
        Run none = bisect(repo, dir.resolve("none"), "HEAD~8", "HEAD~6");
        assertThat(none.code()).as(none.console()).isZero();
        JsonNode noneReport =
                Json.MAPPER.readTree(dir.resolve("none/bisect.json").toFile());
        assertThat(noneReport.path("ending").asText()).as(none.console()).isEqualTo("no-regression");
        assertThat(noneReport.path("answer").asText()).startsWith("no regression between good ");
    }

    @Test
    void aRefThatNamesNothingIsTheUsersMistake(@TempDir Path dir) throws Exception {
        Path repo = Files.createDirectories(dir.resolve("team"));
        history(repo);
        Run run = bisect(repo, dir.resolve("bisect"), "no-such-ref", "HEAD");
        assertThat(run.code()).isEqualTo(2);
        assertThat(run.console()).contains("--good no-such-ref: no such commit in this repository");
    }

    /**
     * Good, then eight commits: the README (nothing measurable), two that change nothing the program does, one that
     * does not compile (the bisection's first probe), one that fixes it, the slowdown, and two after it.
     */
    private static List<String> history(Path repo) throws Exception {
        git(repo, "init", "-q", "-b", "main");
        git(repo, "config", "user.email", "team@example.com");
        git(repo, "config", "user.name", "Team");
        Files.writeString(repo.resolve("matrix.yaml"), MATRIX);
        Path main = Files.createDirectories(repo.resolve("src/app")).resolve("Main.java");
        Files.writeString(main, PROGRAM.formatted(4_000_000));
        Files.writeString(repo.resolve(".gitignore"), "build/\n");
        List<String> subjects = new ArrayList<>();
        commit(repo, "good", subjects);
        Files.writeString(repo.resolve("README.md"), "# team\n");
        commit(repo, "a README", subjects);
        Files.writeString(repo.resolve("NOTES.md"), "notes\n");
        commit(repo, "notes", subjects);
        Files.writeString(repo.resolve("NOTES.md"), "more notes\n");
        commit(repo, "more notes", subjects);
        Files.writeString(main, PROGRAM.formatted(4_000_000).replace("long sink = 0;", "long sink = 0"));
        commit(repo, "break the build", subjects);
        Files.writeString(main, PROGRAM.formatted(4_000_000));
        commit(repo, "fix the build", subjects);
        Files.writeString(main, PROGRAM.formatted(5_000_000));
        commit(repo, "make the work 25 % slower", subjects);
        Files.writeString(repo.resolve("README.md"), "# team\n\nfaster soon\n");
        commit(repo, "README again", subjects);
        Files.writeString(repo.resolve("NOTES.md"), "the last notes\n");
        commit(repo, "last notes", subjects);
        return subjects;
    }

    private static void commit(Path repo, String subject, List<String> subjects) throws Exception {
        git(repo, "add", "-A");
        git(repo, "commit", "-q", "-m", subject);
        subjects.add(subject);
    }

    private static void git(Path repo, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git", "-C", repo.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(String.join(" ", command) + ": " + out).isZero();
    }

    private record Run(int code, String console) {}

    private static Run bisect(Path repo, Path out, String good, String bad) {
        String javac = Path.of(System.getProperty("java.home"), "bin", "javac").toString();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream console = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int code = LoomMatrix.mainWithoutExit(
                new String[] {
                    "bisect",
                    "--repo",
                    repo.toString(),
                    "--good",
                    good,
                    "--bad",
                    bad,
                    "--build",
                    javac + " -d build src/app/Main.java",
                    "--backend",
                    "local",
                    "--budget",
                    "6m",
                    "--out",
                    out.toString()
                },
                console,
                console);
        String text = bytes.toString(StandardCharsets.UTF_8);
        System.out.println(text);
        return new Run(code, text);
    }
}
