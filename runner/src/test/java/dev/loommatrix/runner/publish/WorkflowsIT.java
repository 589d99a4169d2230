package dev.loommatrix.runner.publish;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.result.FileTrees;
import dev.loommatrix.core.result.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
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
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        pb.environment().putAll(env);
        var ended = dev.loommatrix.runner.Processes.run(pb, java.time.Duration.ofMinutes(20));
        return ended.exitCode() + "\n" + ended.output();
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
        try (Stream<Path> files = Files.list(WORKFLOWS)) {
            for (Path file : files.toList()) {
                for (String line : Files.readAllLines(file)) {
                    if (line.contains("zizmor: ignore")) {
                        assertThat(line)
                                .as(file + ": a suppression with its reason")
                                .containsPattern("# zizmor: ignore\\[[a-z-]+\\] — \\S");
                    }
                }
            }
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
        // the comment job: one writer per pull request's head, never cancelled midway; artifacts only of a success
        Map<String, Object> comment = job("loom-matrix-pr-comment.yml", "comment");
        assertThat(comment.get("concurrency"))
                .isEqualTo(Map.of(
                        "group",
                        "loom-matrix-pr-comment-${{ github.event.workflow_run.head_repository.full_name }}-"
                                + "${{ github.event.workflow_run.head_branch }}",
                        "cancel-in-progress",
                        false));
        assertThat(step(comment, s -> String.valueOf(s.get("uses")).startsWith("actions/download-artifact@"))
                        .get("if"))
                .isEqualTo("github.event.workflow_run.conclusion == 'success'");
        String commentScript =
                (String) step(comment, s -> "Comment".equals(s.get("name"))).get("run");
        assertThat(commentScript)
                .contains("head.sha == \\\"$HEAD_SHA\\\"", "<!-- loom-matrix:pr-comparison -->")
                .contains("github-actions[bot]", "s/@/@\\xe2\\x80\\x8b/g", "$CONCLUSION")
                .doesNotContain("--edit-last");
        assertThat(env(step(comment, s -> "Comment".equals(s.get("name")))))
                .containsEntry("HEAD_SHA", "${{ github.event.workflow_run.head_sha }}")
                .containsEntry("CONCLUSION", "${{ github.event.workflow_run.conclusion }}");
        assertThat(Files.readString(WORKFLOWS.resolve("loom-matrix-pr.yml"))).doesNotContain("pr-number");
        assertThat(Files.readString(WORKFLOWS.resolve("loom-matrix-pr-comment.yml")))
                .doesNotContain("pr-number");

        // the publish job: never a cancelled run, one publisher at a time, never cancelled midway
        Map<String, Object> publish = job("loom-matrix-nightly.yml", "publish");
        assertThat(publish.get("if")).isEqualTo("${{ !cancelled() && needs.plan.result == 'success' }}");
        assertThat(publish.get("concurrency"))
                .isEqualTo(
                        Map.of("group", "loom-matrix-publish-${{ github.repository }}", "cancel-in-progress", false));
        assertThat((String) step(publish, s -> "Publish and keep the history".equals(s.get("name")))
                        .get("run"))
                .contains("for attempt in", "git -C site diff --cached --quiet ||", "ls-remote --exit-code");
        Map<String, Object> postgres = step(publish, s -> "PostgreSQL (Grafana)".equals(s.get("name")));
        assertThat(postgres.get("continue-on-error")).isEqualTo(true);

        // a run job keeps what it finished when it fails or times out; its CLI keeps its own JDK
        Map<String, Object> run = job("loom-matrix-nightly.yml", "run");
        assertThat(step(run, s -> String.valueOf(s.get("uses")).startsWith("actions/upload-artifact@"))
                        .get("if"))
                .isEqualTo("always()");
        assertThat(env(step(run, s -> "Keep the CLI's JDK as JAVA_HOME".equals(s.get("name")))))
                .containsEntry("RUNNER_JDK", "${{ steps.runner-jdk.outputs.path }}");

        // housekeeping (issue #32): after every run job and A/B on a self-hosted runner, also a failed one
        for (Map<String, Object> job : List.of(run, job("loom-matrix-pr.yml", "ab"))) {
            Map<String, Object> prune =
                    step(job, s -> String.valueOf(s.get("run")).contains(" prune --keep-runs \"$KEEP\""));
            assertThat(prune.get("if")).isEqualTo("always() && runner.environment == 'self-hosted'");
            assertThat(env(prune)).containsEntry("KEEP", "${{ inputs.prune-keep-runs }}");
            List<?> steps = (List<?>) job.get("steps");
            assertThat(steps.getLast())
                    .as("the last step: after the results are kept")
                    .isSameAs(prune);
        }
        assertThat(Files.readString(WORKFLOWS.resolve("ci.yml"))).contains("--preserve-env=JAVA_HOME,PATH,HOME");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> job(String workflow, String name) throws IOException {
        var root = (Map<String, Object>)
                new Load(LoadSettings.builder().build()).loadFromString(Files.readString(WORKFLOWS.resolve(workflow)));
        var jobs = (Map<String, Map<String, Object>>) root.get("jobs");
        assertThat(jobs).as(workflow).containsKey(name);
        return jobs.get(name);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> step(Map<String, Object> job, java.util.function.Predicate<Map<String, Object>> which) {
        var steps = (List<Map<String, Object>>) job.get("steps");
        List<Map<String, Object>> found = steps.stream().filter(which).toList();
        assertThat(found).as("exactly one such step in " + steps).hasSize(1);
        return found.getFirst();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> env(Map<String, Object> step) {
        return (Map<String, Object>) step.getOrDefault("env", Map.of());
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyJobHasLeastPermissionsATimeoutAndPinnedActions() throws Exception {
        // every uses: of a workflow (not the examples in the reusable workflows' header comments)
        Pattern uses = Pattern.compile("(?m)^[ -]*uses: ([^@\\s]+)@(\\S+)(.*)");
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
                    if (job.containsKey("uses")) {
                        // a job that calls a reusable workflow grants what it needs; its jobs have the timeouts
                        assertThat(job).as(file + " job " + name).containsKey("permissions");
                    } else {
                        assertThat(job).as(file + " job " + name).containsKeys("timeout-minutes", "permissions");
                    }
                });
            }
        }
        String triggers =
                Files.readString(WORKFLOWS.resolve("matrix.yml")) + Files.readString(WORKFLOWS.resolve("pr.yml"));
        assertThat(triggers).contains("schedule:", "workflow_dispatch:", "pull_request:");
        assertThat(Files.readString(WORKFLOWS.resolve("pr-comment.yml")))
                .contains("workflow_run:")
                .doesNotContain("actions/checkout");
        assertThat(Files.readString(WORKFLOWS.resolve("loom-matrix-pr-comment.yml")))
                .doesNotContain("actions/checkout");
        // this repository's own workflows are callers of the reusable ones, so those run on every change
        assertThat(Files.readString(WORKFLOWS.resolve("matrix.yml")))
                .contains("uses: ./.github/workflows/loom-matrix-nightly.yml");
        assertThat(Files.readString(WORKFLOWS.resolve("pr.yml")))
                .contains("uses: ./.github/workflows/loom-matrix-pr.yml")
                .contains("matrix: benchmarks/cli-latency/ab.yaml");
        assertThat(Files.readString(WORKFLOWS.resolve("pr-comment.yml")))
                .contains("uses: ./.github/workflows/loom-matrix-pr-comment.yml");
    }

    private static final String PINNED_STEP = "The loom-matrix release this workflow is pinned to";

    @SuppressWarnings("unchecked")
    private static String pinnedStep(String workflow) throws IOException {
        var root = (Map<String, Object>)
                new Load(LoadSettings.builder().build()).loadFromString(Files.readString(WORKFLOWS.resolve(workflow)));
        var jobs = (Map<String, Map<String, Object>>) root.get("jobs");
        var steps = (List<Map<String, Object>>) jobs.get("cli").get("steps");
        return steps.stream()
                .filter(step -> PINNED_STEP.equals(step.get("name")))
                .map(step -> (String) step.get("run"))
                .findFirst()
                .orElseThrow();
    }

    /**
     * How a reusable workflow gets the CLI of the release it is pinned to (GitHub itself cannot run here): the step
     * of both reusable workflows, the same text, run by bash against a fake {@code gh} that answers from fixtures in
     * the shapes GitHub documents (a workflow run's {@code referenced_workflows}: path, sha, ref) and a fake {@code
     * git ls-remote}. A tag pin downloads the release and checks it against SHA256SUMS; a tampered archive fails
     * the check; a commit pin finds the release tag that names the commit (annotated: its peeled line); this
     * repository builds the commit under test; a run that names no such workflow says so.
     */
    @Test
    void theReusableWorkflowsGetTheCliOfTheReleaseTheyArePinnedTo(@TempDir Path tmp) throws Exception {
        String step = pinnedStep("loom-matrix-nightly.yml");
        assertThat(pinnedStep("loom-matrix-pr.yml")).isEqualTo(step);
        assertThat(pinnedStep("loom-matrix-bisect.yml")).isEqualTo(step);
        String sha = "0123456789abcdef0123456789abcdef01234567";
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        Path releases = Files.createDirectories(tmp.resolve("releases/acme/loom-matrix/v0.1.0"));
        Files.writeString(releases.resolve("loom-matrix-0.1.0.tar.gz"), "the archive");
        Files.writeString(releases.resolve("loom-matrix-0.1.0.zip"), "the zip");
        assertThat(run(releases, List.of("bash", "-c", "sha256sum loom-matrix-0.1.0.* > SHA256SUMS"), Map.of()))
                .startsWith("0\n");
        // gh: the run's record from $RUN_JSON; a release's files from the fixture directory, as --pattern asks
        Files.writeString(
                bin.resolve("gh"),
                """
                #!/usr/bin/env bash
                case "$1 $2" in
                  "api repos/team/app/actions/runs/42") cat "$RUN_JSON" ;;
                  "release download")
                    tag="$3"; shift 3
                    while [ $# -gt 0 ]; do
                      case "$1" in --repo) repo="$2"; shift 2 ;; --dir) dir="$2"; shift 2 ;;
                        --pattern) cp "$RELEASES/$repo/$tag"/$2 "$dir"/ 2>/dev/null; shift 2 ;; *) shift ;; esac
                    done ;;
                  *) echo "gh: unexpected $*" >&2; exit 1 ;;
                esac
                """);
        // git ls-remote: the release tag, annotated (the tag object's line, then the commit's peeled line)
        Files.writeString(
                bin.resolve("git"),
                """
                #!/usr/bin/env bash
                if [ "$1" = ls-remote ]; then
                  printf 'fedcba9876543210fedcba9876543210fedcba98\trefs/tags/v0.1.0\n%s\trefs/tags/v0.1.0^{}\n' "$RELEASED_SHA"
                  exit 0
                fi
                exec /usr/bin/git "$@"
                """);
        for (String tool : List.of("gh", "git")) {
            bin.resolve(tool).toFile().setExecutable(true);
        }
        Path script = tmp.resolve("step.sh");
        Files.writeString(script, "set -eo pipefail\n" + step);

        record Case(String name, String path, String ref, String expect) {}
        for (Case c : List.of(
                new Case(
                        "tag",
                        "acme/loom-matrix/.github/workflows/loom-matrix-nightly.yml@v0.1.0",
                        "refs/tags/v0.1.0",
                        "0\n"),
                new Case("commit", "acme/loom-matrix/.github/workflows/loom-matrix-nightly.yml@" + sha, null, "0\n"),
                new Case("none", "acme/other/.github/workflows/elsewhere.yml@v1", "refs/tags/v1", "1\n"))) {
            Path work = Files.createDirectories(tmp.resolve(c.name()));
            Path runJson = tmp.resolve(c.name() + ".json");
            Files.writeString(
                    runJson,
                    Json.MAPPER.writeValueAsString(Map.of(
                            "id",
                            42,
                            "referenced_workflows",
                            List.of(
                                    c.ref() == null
                                            ? Map.of("path", c.path(), "sha", sha)
                                            : Map.of("path", c.path(), "sha", sha, "ref", c.ref())))));
            String result = run(work, List.of("bash", script.toString()), stepEnv(bin, work, runJson, tmp, sha));
            assertThat(result).as(c.name() + ": " + result).startsWith(c.expect());
            if (c.expect().equals("0\n")) {
                assertThat(result).contains("loom-matrix v0.1.0 from acme/loom-matrix's release", "OK");
                assertThat(Files.readString(work.resolve("cli/loom-matrix-0.1.0.tar.gz")))
                        .isEqualTo("the archive");
            } else {
                assertThat(result).contains("this run's record names no loom-matrix-nightly.yml");
            }
        }

        // a tampered archive fails the check
        Files.writeString(releases.resolve("loom-matrix-0.1.0.tar.gz"), "something else");
        Path work = Files.createDirectories(tmp.resolve("tampered"));
        String tampered =
                run(work, List.of("bash", script.toString()), stepEnv(bin, work, tmp.resolve("tag.json"), tmp, sha));
        assertThat(tampered).as(tampered).doesNotStartWith("0\n").contains("FAILED");

        // this repository calling its own workflow: the CLI built from the checkout (./mvnw here a stand-in)
        Path self = Files.createDirectories(tmp.resolve("self"));
        Files.writeString(
                self.resolve("mvnw"),
                """
                #!/usr/bin/env bash
                mkdir -p dist/target && echo built > dist/target/loom-matrix-9.9.9-SNAPSHOT.tar.gz
                (cd dist/target && sha256sum loom-matrix-9.9.9-SNAPSHOT.tar.gz > SHA256SUMS)
                """);
        self.resolve("mvnw").toFile().setExecutable(true);
        Path selfJson = tmp.resolve("self.json");
        Files.writeString(
                selfJson,
                Json.MAPPER.writeValueAsString(Map.of(
                        "referenced_workflows",
                        List.of(Map.of(
                                "path", "team/app/.github/workflows/loom-matrix-nightly.yml@refs/heads/main",
                                "sha", sha,
                                "ref", "refs/heads/main")))));
        String built = run(self, List.of("bash", script.toString()), stepEnv(bin, self, selfJson, tmp, sha));
        assertThat(built).as(built).startsWith("0\n").contains("built from team/app at 0123456789ab");
        assertThat(self.resolve("cli/loom-matrix-9.9.9-SNAPSHOT.tar.gz")).hasContent("built");
    }

    /** What the release-finding step sees: the fakes first on the PATH, this run's record, the fixture releases. */
    private static Map<String, String> stepEnv(Path bin, Path work, Path runJson, Path tmp, String releasedSha) {
        return Map.of(
                "PATH",
                bin + ":" + System.getenv("PATH"),
                "GITHUB_REPOSITORY",
                "team/app",
                "GITHUB_RUN_ID",
                "42",
                "RUNNER_TEMP",
                work.toString(),
                "WORKFLOW",
                "loom-matrix-nightly.yml",
                "RUN_JSON",
                runJson.toString(),
                "RELEASES",
                tmp.resolve("releases").toString(),
                "RELEASED_SHA",
                releasedSha);
    }

    /**
     * A caller's mistake in the inputs is caught before anything runs, with the place and the name: actionlint
     * checks a call of a local reusable workflow against its declared inputs (GitHub does the same when the
     * workflow starts).
     */
    @Test
    void aCallersUnknownInputOrWrongTypeFailsWithAClearMessage(@TempDir Path tmp) throws Exception {
        Path workflows = Files.createDirectories(tmp.resolve(".github/workflows"));
        Files.copy(WORKFLOWS.resolve("loom-matrix-nightly.yml"), workflows.resolve("loom-matrix-nightly.yml"));
        Files.writeString(
                workflows.resolve("caller.yml"),
                """
                name: benchmarks
                on: {workflow_dispatch: {}}
                permissions: {}
                jobs:
                  matrix:
                    uses: ./.github/workflows/loom-matrix-nightly.yml
                    permissions: {actions: read, contents: write, pages: write, id-token: write}
                    with:
                      buld: ./mvnw -q package
                      keep-runs: three
                """);
        assertThat(run(tmp, List.of("git", "init", "-q"), Map.of())).startsWith("0\n");
        String actionlint = System.getenv().getOrDefault("LOOM_ACTIONLINT", "actionlint");
        String result = run(tmp, List.of(actionlint, "-no-color", ".github/workflows/caller.yml"), Map.of());
        assertThat(result)
                .as(result)
                .doesNotStartWith("0\n")
                .contains("caller.yml:9:")
                .contains("input \"buld\" is not defined")
                .contains("caller.yml:10:")
                .contains("number");
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
        // every merged cell ok with its samples (issue #32: a run whose every cell failed passed this test), and
        // the second run compared on all of them: 2 cells × 2 variants
        var merged = new dev.loommatrix.core.result.RunDirectory(work.resolve("merged")).readCells();
        assertThat(merged).hasSize(2).allSatisfy(cell -> {
            assertThat(cell.status())
                    .as(cell.cellId() + ": " + cell.reason().orElse(""))
                    .isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
            assertThat(cell.measurements()).hasSize(2).allSatisfy(m -> assertThat(m.samples())
                    .hasSize(2));
        });
        JsonNode compared = Json.MAPPER.readTree(work.resolve("site/data/runs/20260101T010000Z-again/compare.json")
                .toFile());
        assertThat(compared.get("comparisons")).hasSize(4);
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
        FileTrees.copy(fixture, repo);
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
            // the unchanged program finds nothing: never a flag; a noisy runner may leave it undecided at 8 pairs
            // (2026-11-27: a pair's noise 7.4 %, its interval −4.9 … +10.1 % against the 10 % threshold)
            assertThat(c.get("verdict").asText())
                    .as(c.toString())
                    .isIn(render ? List.of("regression") : List.of("unchanged", "inconclusive"));
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

        // the A/A run (parse, the cheaper program) is sequential within a budget and must reach a verdict
        // (--require-verdict: exit 5 otherwise): no comparison flagged, and none left undecided — an inconclusive
        // A/A would say nothing about the method. Here on 2026-11-28 beside other builds: decided at its 4th look.
        String matrix = Files.readString(repo.resolve("matrix.yaml"));
        Files.writeString(repo.resolve("aa.yaml"), matrix.replace(workload.formatted("render", "render"), ""));
        assertThat(Files.readString(repo.resolve("aa.yaml")))
                .contains("id: parse")
                .doesNotContain("id: render");
        git(repo, env, "add", "aa.yaml");
        git(repo, env, "commit", "-q", "-m", "an A/A matrix");
        Map<String, String> aaEnv = new java.util.HashMap<>(env);
        aaEnv.put("LOOM_MATRIX", "aa.yaml");
        String aa = run(
                repo,
                List.of(
                        "bash",
                        ab.toString(),
                        tmp.resolve("aa").toString(),
                        "HEAD",
                        "--backend",
                        "local",
                        "--budget",
                        "4m",
                        "--require-verdict"),
                aaEnv);
        assertThat(aa).as(aa).startsWith("0\n").contains("An **A/A run**");
        JsonNode aaReport =
                Json.MAPPER.readTree(tmp.resolve("aa/ab/compare.json").toFile());
        assertThat(aaReport.get("ab").get("differences")).isEmpty();
        assertThat(aaReport.get("ab").get("sequential").get("ended").asText())
                .as(aaReport.get("ab").get("sequential").toString())
                .isEqualTo("decided");
        for (JsonNode c : aaReport.get("comparisons")) {
            assertThat(c.get("verdict").asText()).as(c.toString()).isEqualTo("unchanged");
        }
    }

    private static void git(Path repo, Map<String, String> env, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        String result = run(repo, command, env);
        assertThat(result).as(result).startsWith("0\n");
    }
}
