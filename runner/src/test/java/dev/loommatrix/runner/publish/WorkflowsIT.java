package dev.loommatrix.runner.publish;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.result.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The GitHub workflows, checked here since GitHub is not: actionlint, the hygiene rules (least
 * permissions, SHA-pinned actions, timeouts, no pull_request_target), and the workflows' command
 * sequence (plan → one run per cell → merge → publish → compare) and pr.yml's A/B run
 * (scripts/ci/ab.sh) run locally.
 */
class WorkflowsIT {

    static final Path ROOT = Path.of(System.getProperty("loom.projectRoot", ".."))
            .toAbsolutePath()
            .normalize();
    static final Path WORKFLOWS = ROOT.resolve(".github/workflows");

    static String run(Path dir, List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(20, TimeUnit.MINUTES)).isTrue();
        return p.exitValue() + "\n" + out;
    }

    @Test
    void actionlintIsClean() throws Exception {
        String actionlint = System.getenv().getOrDefault("LOOM_ACTIONLINT", "actionlint");
        String result = run(ROOT, List.of(actionlint, "-no-color"), Map.of());
        assertThat(result).as(result).startsWith("0\n");
    }

    /** zizmor, the Actions security linter: nothing at low or above; the two suppressions say why inline. */
    @Test
    void zizmorFindsNothing() throws Exception {
        String zizmor = System.getenv().getOrDefault("LOOM_ZIZMOR", "zizmor");
        String result = run(
                ROOT,
                List.of(zizmor, "--offline", "--min-severity", "low", "--color", "never", ".github/workflows"),
                Map.of());
        assertThat(result).as(result).startsWith("0\n").contains("No findings to report");
        // each suppression is explained where it is written
        for (String file : List.of("pr-comment.yml")) {
            String text = Files.readString(WORKFLOWS.resolve(file));
            Matcher ignore =
                    Pattern.compile("# zizmor: ignore\\[[a-z-]+\\] — \\S").matcher(text);
            assertThat(ignore.find())
                    .as(file + ": a suppression with its reason")
                    .isTrue();
        }
    }

    /**
     * The review of pr-comment.yml (issue #17): the pull request comes from the trusted event, not the
     * fork's artifact; the comment is found by a hidden marker and our author, mentions are neutralized,
     * one writer per pull request, and a failed or cancelled pr run says so instead of leaving a stale
     * verdict. matrix.yml's publish retries a rejected push on the new history, commits only a change, never
     * publishes a cancelled run, tells a missing history branch from a failed fetch, and keeps Postgres
     * from losing the night.
     */
    @Test
    void theCommentAndPublishJobsDoWhatTheReviewAsked() throws Exception {
        String comment = Files.readString(WORKFLOWS.resolve("pr-comment.yml"));
        assertThat(comment)
                .doesNotContain("pr-number")
                .contains("github.event.workflow_run.head_sha", "head.sha", "<!-- loom-matrix:pr-comparison -->")
                .contains("github-actions[bot]", "s/@/@\\xe2\\x80\\x8b/g", "concurrency:", "CONCLUSION")
                .doesNotContain("--edit-last");
        assertThat(Files.readString(WORKFLOWS.resolve("pr.yml"))).doesNotContain("pr-number");
        String matrix = Files.readString(WORKFLOWS.resolve("matrix.yml"));
        assertThat(matrix)
                .contains(
                        "!cancelled()",
                        "for attempt in",
                        "git -C site diff --cached --quiet ||",
                        "ls-remote --exit-code")
                .contains("continue-on-error: true", "steps.runner-jdk.outputs.path", "name: cli")
                .doesNotContain("if: always() && needs.plan.result");
        assertThat(Files.readString(WORKFLOWS.resolve("ci.yml"))).contains("--preserve-env=JAVA_HOME,PATH,HOME");
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyJobHasLeastPermissionsATimeoutAndPinnedActions() throws Exception {
        Pattern uses = Pattern.compile("uses: ([^@\\s]+)@(\\S+)(.*)");
        try (Stream<Path> files = Files.list(WORKFLOWS)) {
            for (Path file : files.toList()) {
                String text = Files.readString(file);
                assertThat(text).as(file + ": no pull_request_target").doesNotContain("pull_request_target");
                Matcher m = uses.matcher(text);
                while (m.find()) {
                    assertThat(m.group(2))
                            .as(file + ": " + m.group(1) + " pinned by full commit SHA")
                            .matches("[0-9a-f]{40}");
                    assertThat(m.group(3))
                            .as(file + ": the version in a comment")
                            .matches("\\s+# v\\d.*");
                }
                var workflow =
                        (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(text);
                assertThat(workflow.get("permissions"))
                        .as(file + ": nothing by default")
                        .isEqualTo(Map.of());
                var jobs = (Map<String, Map<String, Object>>) workflow.get("jobs");
                jobs.forEach((name, job) -> {
                    assertThat(job).as(file + " job " + name).containsKeys("timeout-minutes", "permissions");
                });
            }
        }
        String triggers =
                Files.readString(WORKFLOWS.resolve("matrix.yml")) + Files.readString(WORKFLOWS.resolve("pr.yml"));
        assertThat(triggers).contains("schedule:", "workflow_dispatch:", "pull_request:");
        assertThat(Files.readString(WORKFLOWS.resolve("pr-comment.yml")))
                .contains("workflow_run:")
                .doesNotContain("actions/checkout");
    }

    /** 256: one job per cell, as for most matrices; 1: the plan's cells in one shard job. */
    @ParameterizedTest
    @ValueSource(ints = {256, 1})
    void theWorkflowsCommandSequenceRunsLocally(int maxJobs, @TempDir Path tmp) throws Exception {
        Path matrix = tmp.resolve("m.yaml");
        Files.writeString(
                matrix,
                """
                schema: 1
                jdks:
                  - {id: host, vm: hotspot, version: %d, javaHome: "%s"}
                cpus: [1, 2]
                workloads:
                  - {id: sleep-bound, variants: [virtual, "pool:20"], params: {tasks: 200, sleepMs: 20}}
                repetitions: 2
                warmup: 0
                timeout: 2m
                memory: 512m
                """
                        .formatted(Runtime.version().feature(), System.getProperty("java.home")));
        Path work = tmp.resolve("work");
        String result = run(
                ROOT,
                List.of("bash", "scripts/ci/pipeline.sh", work.toString(), matrix.toString(), "", "local"),
                Map.of("JAVA_HOME", System.getProperty("java.home"), "MAX_JOBS", String.valueOf(maxJobs)));
        assertThat(result).as(result).matches("(?s)[04]\n.*");

        JsonNode plan = Json.MAPPER.readTree(work.resolve("plan.json").toFile());
        int jobs = Math.min(2, maxJobs);
        assertThat(plan.get("include")).hasSize(jobs);
        assertThat(plan.get("include").get(0).get("runsOn").asText()).isEqualTo("ubuntu-latest");
        // the jobs partition the plan: together all of its cells, each once, merged into one run
        try (Stream<Path> shards = Files.list(work.resolve("shards"))) {
            assertThat(shards.toList()).hasSize(jobs);
        }
        try (Stream<Path> cells = Files.list(work.resolve("merged/cells"))) {
            assertThat(cells.toList()).hasSize(2);
        }
        var index = History.readIndex(work.resolve("site"));
        assertThat(index.runs())
                .extracting(History.Entry::runId)
                .containsExactly("20260101T000000Z-base", "20260101T010000Z-again");
        assertThat(index.runs().get(1).trigger()).isEqualTo("workflow_dispatch");
        assertThat(index.runs().get(1).compared())
                .map(History.Compared::baseline)
                .contains("20260101T000000Z-base");
        assertThat(Files.readString(work.resolve("compare.md"))).contains("20260101T000000Z-base");
    }

    /**
     * pr.yml's A/B flow (scripts/ci/ab.sh) on a team's repository: its own program, built by its one build
     * setting in the merge base's and the head's checkouts, measured in one interleaved run. The head makes
     * every render task wait 20 % longer (10 → 12 ms): render is flagged in both variants and confirmed by
     * more pairs; parse is not. Then an A/A run (the head against itself): nothing is flagged.
     */
    @Test
    void aPullRequestsAbRunFindsAKnownSlowdownAndAnAaRunFindsNothing(@TempDir Path tmp) throws Exception {
        Path repo = tmp.resolve("repo");
        Path fixture = Path.of("src/test/resources/ab-project");
        try (Stream<Path> files = Files.walk(fixture)) {
            for (Path f : files.toList()) {
                Path target = repo.resolve(fixture.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
        String workload =
                """
                  - id: %s
                    program:
                      classpath: [build/work.jar]
                      mainClass: Work
                      args: [%s, "7"]
                      metrics: {roundMs: {unit: ms, direction: lower}}
                    variants:
                      virtual: {properties: {work.virtual: "true"}}
                      platform: {properties: {work.virtual: "false"}}
                    baseline: platform
                """;
        Files.writeString(
                repo.resolve("matrix.yaml"),
                """
                schema: 1
                jdks:
                  - {id: host, vm: hotspot, version: %d, javaHome: "%s"}
                cpus: [2]
                workloads:
                %s%s
                repetitions: 3
                warmup: 0
                timeout: 5m
                memory: 512m
                """
                        .formatted(
                                Runtime.version().feature(),
                                System.getProperty("java.home"),
                                workload.formatted("parse", "parse"),
                                workload.formatted("render", "render")));
        Files.writeString(repo.resolve(".gitignore"), "build/\n");
        Map<String, String> env = Map.of(
                "JAVA_HOME",
                System.getProperty("java.home"),
                "LOOM_BENCHMARK_BUILD",
                "sh build.sh",
                "LOOM_CLI",
                ROOT.resolve("loom-matrix").toString(),
                "GIT_AUTHOR_NAME",
                "t",
                "GIT_AUTHOR_EMAIL",
                "t@example.com",
                "GIT_COMMITTER_NAME",
                "t",
                "GIT_COMMITTER_EMAIL",
                "t@example.com");
        git(repo, env, "init", "-q", "-b", "main");
        git(repo, env, "add", "-A");
        git(repo, env, "commit", "-q", "-m", "base");
        Path source = repo.resolve("src/Work.java");
        Files.writeString(source, Files.readString(source).replace("RENDER_MS = 10;", "RENDER_MS = 12;"));
        git(repo, env, "commit", "-q", "-am", "render waits longer");

        Path ab = ROOT.resolve("scripts/ci/ab.sh");
        String result = run(
                repo,
                List.of(
                        "bash",
                        ab.toString(),
                        tmp.resolve("pr").toString(),
                        "HEAD~1",
                        "--backend",
                        "local",
                        "--blocks",
                        "8"),
                env);
        assertThat(result).as(result).startsWith("4\n");
        JsonNode report = Json.MAPPER.readTree(tmp.resolve("pr/ab/compare.json").toFile());
        assertThat(report.get("ab").get("differences").toString()).contains("artifact of render");
        assertThat(report.get("regressions").asInt()).isEqualTo(2);
        for (JsonNode c : report.get("comparisons")) {
            boolean render = c.get("cellId").asText().endsWith("render");
            assertThat(c.get("test").asText()).as(c.toString()).isEqualTo("signed-rank");
            assertThat(c.get("verdict").asText()).as(c.toString()).isEqualTo(render ? "regression" : "unchanged");
            if (render) {
                assertThat(c.get("ratio").asDouble()).as(c.toString()).isBetween(1.10, 1.30);
                assertThat(c.get("confirmation").get("confirmed").asBoolean()).isTrue();
                assertThat(c.get("confirmation").get("extraPairs").asInt()).isEqualTo(8);
                assertThat(c.get("pairs").asInt()).isEqualTo(16);
            }
        }
        assertThat(report.get("resolution").get("aToAMedian").asDouble()).isLessThan(0.10);
        String md = Files.readString(tmp.resolve("pr/ab/compare.md"));
        assertThat(md).contains("A/B: head ", "confirmed after 8 more pairs", "What this run could resolve");
        // the two sides are ordinary runs
        try (Stream<Path> cells = Files.list(tmp.resolve("pr/ab/baseline/cells"))) {
            assertThat(cells.toList()).hasSize(2);
        }

        String aa = run(
                repo,
                List.of(
                        "bash",
                        ab.toString(),
                        tmp.resolve("aa").toString(),
                        "HEAD",
                        "--backend",
                        "local",
                        "--blocks",
                        "8"),
                env);
        assertThat(aa).as(aa).startsWith("0\n").contains("An **A/A run**");
        JsonNode aaReport =
                Json.MAPPER.readTree(tmp.resolve("aa/ab/compare.json").toFile());
        assertThat(aaReport.get("ab").get("differences")).isEmpty();
        assertThat(aaReport.get("regressions").asInt()
                        + aaReport.get("improvements").asInt())
                .isZero();
    }

    private static void git(Path repo, Map<String, String> env, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        String result = run(repo, command, env);
        assertThat(result).as(result).startsWith("0\n");
    }
}
