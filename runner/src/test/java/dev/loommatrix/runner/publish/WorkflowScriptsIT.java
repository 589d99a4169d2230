package dev.loommatrix.runner.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The workflows' own shell, run here as GitHub runs it ({@code bash -eo pipefail}), taken from the YAML
 * so the test runs exactly what ships: loom-matrix-pr-comment.yml's comment step against a stand-in for GitHub's API
 * ({@code gh api} answered from fixtures shaped as GitHub documents them — GitHub itself cannot be here), and
 * loom-matrix-nightly.yml's publish step against a real git remote whose first push is rejected.
 */
class WorkflowScriptsIT {

    static final Path ROOT = WorkflowsIT.ROOT;
    static final String MARKER = "<!-- loom-matrix:pr-comparison -->";

    /** The {@code run:} text of the step with this name in a workflow's job. */
    @SuppressWarnings("unchecked")
    static String step(String workflow, String job, String name) throws Exception {
        Map<String, Object> yaml =
                (Map<String, Object>) new Load(LoadSettings.builder().build())
                        .loadFromString(Files.readString(WorkflowsIT.WORKFLOWS.resolve(workflow)));
        Map<String, Object> jobs = (Map<String, Object>) yaml.get("jobs");
        List<Map<String, Object>> steps =
                (List<Map<String, Object>>) ((Map<String, Object>) jobs.get(job)).get("steps");
        return steps.stream()
                .filter(s -> name.equals(s.get("name")))
                .map(s -> (String) s.get("run"))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no step '" + name + "' in " + workflow + " " + job));
    }

    static String bash(Path dir, String script, Map<String, String> env) throws Exception {
        Path file = dir.resolve("step-" + System.nanoTime() + ".sh");
        Files.writeString(file, script);
        return WorkflowsIT.run(dir, List.of("bash", "--noprofile", "--norc", "-eo", "pipefail", file.toString()), env);
    }

    private static Map<String, String> commentEnv(Path tmp, String headSha, String conclusion) {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", tmp.resolve("bin") + ":" + System.getenv("PATH"));
        env.put("GH_DIR", tmp.resolve("gh").toString());
        env.put("GH_TOKEN", "not-a-token");
        env.put("REPO", "owner/repo");
        env.put("HEAD_SHA", headSha);
        env.put("HEAD_OWNER", "forker");
        env.put("HEAD_BRANCH", "feature");
        env.put("CONCLUSION", conclusion);
        env.put("RUN_URL", "https://github.com/owner/repo/actions/runs/1");
        env.put("GITHUB_STEP_SUMMARY", tmp.resolve("summary.md").toString());
        return env;
    }

    private static void fakeGh(Path tmp) throws Exception {
        Files.createDirectories(tmp.resolve("bin"));
        Files.createDirectories(tmp.resolve("gh"));
        Path gh = tmp.resolve("bin/gh");
        Files.copy(Path.of("src/test/resources/workflows/fake-gh"), gh);
        Files.setPosixFilePermissions(gh, PosixFilePermissions.fromString("rwxr-xr-x"));
        // open pull requests (GET /repos/{owner}/{repo}/pulls): the fork's, an older one from the same branch
        // name with another head, and a maintainer's the artifact would like to write on
        Files.writeString(
                tmp.resolve("gh/pulls.json"),
                """
                [{"number": 7, "head": {"label": "forker:feature", "ref": "feature", "sha": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}},
                 {"number": 8, "head": {"label": "owner:release", "ref": "release", "sha": "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"}},
                 {"number": 9, "head": {"label": "other:feature", "ref": "feature", "sha": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}}]
                """);
        // comments (GET /repos/{owner}/{repo}/issues/{n}/comments): one forged by the fork with the marker, then the
        // bot's
        Files.writeString(
                tmp.resolve("gh/comments.json"),
                """
                [{"id": 222, "user": {"login": "forker"}, "body": "%s\\nforged"},
                 {"id": 111, "user": {"login": "github-actions[bot]"}, "body": "%s\\nthe last verdict"}]
                """
                        .formatted(MARKER, MARKER));
    }

    /**
     * The comment lands on the pull request whose head is the event's head SHA from the event's owner and
     * branch; the artifact's text cannot pick another, cannot take over a comment it forged with the marker,
     * and cannot mention anyone. A failed pr run replaces the verdict; an event matching no open pull request
     * writes nothing.
     */
    @Test
    void theCommentGoesWhereTheEventSaysAndOnlyThere(@TempDir Path tmp) throws Exception {
        fakeGh(tmp);
        String script = step("loom-matrix-pr-comment.yml", "comment", "Comment");
        // one artifact per call of loom-matrix-pr.yml, as download-artifact lays them out (a directory each)
        Files.createDirectories(tmp.resolve("compare/loom-matrix-compare-quick"));
        Files.createDirectories(tmp.resolve("compare/loom-matrix-compare-cli-validate"));
        Files.writeString(
                tmp.resolve("compare/loom-matrix-compare-quick/compare.md"),
                """
                ### loom-matrix A/B
                No regression. cc @maintainer
                <!-- pr-number: 8 -->
                """);
        Files.writeString(
                tmp.resolve("compare/loom-matrix-compare-cli-validate/compare.md"), "### loom-matrix A/B: validate\n");
        String result = bash(tmp, script, commentEnv(tmp, "a".repeat(40), "success"));
        assertThat(result).as(result).startsWith("0\n");
        String calls = Files.readString(tmp.resolve("gh/calls.log"));
        assertThat(calls)
                .contains(
                        "head=forker:feature",
                        "repos/owner/repo/issues/7/comments",
                        "-X PATCH repos/owner/repo/issues/comments/111")
                .doesNotContain("issues/8", "issues/9", "comments/222", "-X POST");
        String sent = Files.readString(tmp.resolve("gh/sent-PATCH.md"));
        assertThat(sent).startsWith(MARKER).contains("@\u200bmaintainer").doesNotContain(" @maintainer");
        // every A/B's report, in the order of their names
        assertThat(sent.indexOf("### loom-matrix A/B: validate"))
                .isPositive()
                .isLessThan(sent.indexOf("No regression"));

        Files.delete(tmp.resolve("gh/calls.log"));
        String failed = bash(tmp, script, commentEnv(tmp, "a".repeat(40), "failure"));
        assertThat(failed).as(failed).startsWith("0\n");
        assertThat(Files.readString(tmp.resolve("gh/sent-PATCH.md")))
                .contains("no verdict for aaaaaaaaaaaa", "ended **failure**")
                .doesNotContain("No regression");

        Files.delete(tmp.resolve("gh/calls.log"));
        String nowhere = bash(tmp, script, commentEnv(tmp, "c".repeat(40), "success"));
        assertThat(nowhere).as(nowhere).startsWith("0\n");
        assertThat(Files.readString(tmp.resolve("gh/calls.log"))).doesNotContain("PATCH", "POST");
    }

    /**
     * matrix.yml's publish against a real remote: the first publish ever starts the history; when a push is
     * rejected (another publish landed first) it fetches and publishes again; a re-run of a published run
     * succeeds with nothing new to commit.
     */
    @Test
    void publishStartsTheHistoryRetriesARejectedPushAndReRunsCleanly(@TempDir Path tmp) throws Exception {
        Path origin = tmp.resolve("origin.git");
        Path checkout = tmp.resolve("checkout");
        Map<String, String> env = new HashMap<>();
        env.put("HOME", tmp.resolve("home").toString()); // the step's `git config --global` stays in here
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("TOKEN", "not-a-token");
        env.put("RUN_ID", "20260101T000000Z-test");
        env.put("KEEP_RUNS", "0"); // the input's default: keep every run
        env.put("HISTORY_BRANCH", "loom-matrix-history");
        env.put("GITHUB_STEP_SUMMARY", tmp.resolve("summary.md").toString());
        Files.createDirectories(tmp.resolve("home"));
        git(tmp, env, "init", "-q", "--bare", origin.toString());
        git(tmp, env, "init", "-q", "-b", "main", checkout.toString());
        git(
                checkout,
                env,
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.com",
                "commit",
                "-q",
                "--allow-empty",
                "-m",
                "code");
        git(checkout, env, "remote", "add", "origin", origin.toString());
        // the CLI as the job has it (loom-matrix on the PATH, installed from the release), and the merged run it
        // publishes
        Path cli = Files.createDirectories(tmp.resolve("bin")).resolve("loom-matrix");
        Files.writeString(cli, "#!/bin/sh\nexec " + ROOT.resolve("loom-matrix") + " \"$@\"\n");
        Files.setPosixFilePermissions(cli, PosixFilePermissions.fromString("rwxr-xr-x"));
        env.put("PATH", tmp.resolve("bin") + ":" + System.getenv("PATH"));
        Files.writeString(
                tmp.resolve("m.yaml"),
                """
                schema: 1
                jdks:
                  - {id: host, vm: hotspot, version: %d, javaHome: "%s"}
                cpus: [1]
                workloads:
                  - {id: sleep-bound, variants: [virtual, "pool:10"], params: {tasks: 50, sleepMs: 10}}
                repetitions: 2
                warmup: 0
                timeout: 2m
                memory: 512m
                """
                        .formatted(Runtime.version().feature(), System.getProperty("java.home")));
        String run = WorkflowsIT.run(
                checkout,
                List.of(
                        cli.toString(),
                        "run",
                        "--matrix",
                        tmp.resolve("m.yaml").toString(),
                        "--backend",
                        "local",
                        "--run-id",
                        "20260101T000000Z-test",
                        "--out",
                        "merged"),
                env);
        assertThat(run).as(run).startsWith("0\n");
        String script = step("loom-matrix-nightly.yml", "publish", "Publish and keep the history");

        // the first publish ever: no history branch yet
        String first = bash(checkout, script, env);
        assertThat(first).as(first).startsWith("0\n");
        assertThat(log(origin, env)).hasSize(1);

        // a rejected push: the remote refuses the next one once, as when another publish landed first
        Path hook = origin.resolve("hooks/pre-receive");
        Files.writeString(
                hook,
                "#!/bin/sh\n[ -f \"$GIT_DIR/rejected-once\" ] && exit 0\ntouch \"$GIT_DIR/rejected-once\"\n"
                        + "echo 'another publish landed first' >&2\nexit 1\n");
        Files.setPosixFilePermissions(hook, PosixFilePermissions.fromString("rwxr-xr-x"));
        env.put("RUN_ID", "20260101T010000Z-again");
        String again = WorkflowsIT.run(
                checkout,
                List.of(
                        cli.toString(),
                        "run",
                        "--matrix",
                        tmp.resolve("m.yaml").toString(),
                        "--backend",
                        "local",
                        "--run-id",
                        "20260101T010000Z-again",
                        "--out",
                        "merged2"),
                env);
        assertThat(again).as(again).startsWith("0\n");
        String retried = bash(checkout, script.replace("--run merged", "--run merged2"), env);
        assertThat(retried).as(retried).startsWith("0\n").contains("push rejected (attempt 1)");
        assertThat(Files.exists(origin.resolve("rejected-once"))).isTrue();
        assertThat(log(origin, env)).hasSize(2);

        // a re-run of the same publish: nothing to commit, and it succeeds
        String rerun = bash(checkout, script.replace("--run merged", "--run merged2"), env);
        assertThat(rerun).as(rerun).startsWith("0\n").doesNotContain("push rejected");
        assertThat(log(origin, env)).hasSize(2);
        String index = WorkflowsIT.run(
                tmp,
                List.of("git", "--git-dir", origin.toString(), "show", "loom-matrix-history:data/index.json"),
                env);
        assertThat(index).contains("20260101T000000Z-test", "20260101T010000Z-again");
    }

    private static List<String> log(Path origin, Map<String, String> env) throws Exception {
        String out = WorkflowsIT.run(
                origin.getParent(),
                List.of("git", "--git-dir", origin.toString(), "log", "--format=%s", "loom-matrix-history"),
                env);
        assertThat(out).startsWith("0\n");
        return out.substring(2).lines().filter(l -> !l.isBlank()).toList();
    }

    private static void git(Path dir, Map<String, String> env, String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        String result = WorkflowsIT.run(dir, command, env);
        assertThat(result).as(result).startsWith("0\n");
    }
}
