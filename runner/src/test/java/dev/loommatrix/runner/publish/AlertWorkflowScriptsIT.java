package dev.loommatrix.runner.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.bisect.Change;
import dev.loommatrix.core.result.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The nightly's regression alert and the bisection's comment (issue #53), their shell run as GitHub runs it, taken
 * from the YAML, against the stand-in for {@code gh api} that answers from fixtures shaped as GitHub's REST API
 * documents them (issues with their labels, authors and bodies; a created issue's number). The regressions are
 * written by the runner's own {@link Regressions} type, so a renamed field fails here.
 */
class AlertWorkflowScriptsIT {

    private static Regressions.Regression regression(String key, String run, String cause) {
        List<Trends.Annotation> notes =
                switch (cause) {
                    case "code" -> List.of();
                    case "image" ->
                        List.of(new Trends.Annotation(
                                run, Optional.of("cell-" + key), "image", "sha256:old", "sha256:new"));
                    default ->
                        List.of(new Trends.Annotation(run, Optional.of("cell-" + key), cause, "21.0.5+11", "21.0.6+7"));
                };
        return new Regressions.Regression(
                key,
                "sleep-bound · virtual · wallMs — cell-" + key,
                "cell-" + key,
                "sleep-bound",
                "virtual",
                "wallMs",
                Optional.empty(),
                run,
                "2026-12-01T02:00:00Z",
                "r8",
                Optional.of("1111111111111111111111111111111111111111"),
                Optional.of("2222222222222222222222222222222222222222"),
                new Change(1.061, 1.049, 1.073),
                "+6.1 % (+4.9 % to +7.3 %) worse from run " + run + " on",
                notes,
                cause,
                "#/history?cell=cell-" + key + "&variant=virtual&workload=sleep-bound");
    }

    private static Map<String, String> env(Path tmp, String maxNew) {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", tmp.resolve("bin") + ":" + System.getenv("PATH"));
        env.put("GH_DIR", tmp.resolve("gh").toString());
        env.put("GH_TOKEN", "not-a-token");
        env.put("REPO", "owner/repo");
        env.put("SITE_URL", "https://owner.github.io/repo/");
        env.put("MAX_NEW", maxNew);
        env.put("LABEL", "loom-matrix-regression");
        env.put("RUN_URL", "https://github.com/owner/repo/actions/runs/1");
        env.put("SERVER_URL", "https://github.com");
        env.put("BISECT_WORKFLOW", "benchmarks-bisect.yml");
        env.put("GITHUB_STEP_SUMMARY", tmp.resolve("summary.md").toString());
        env.put("GITHUB_OUTPUT", tmp.resolve("output.txt").toString());
        return env;
    }

    private static void fakeGh(Path tmp) throws Exception {
        Files.createDirectories(tmp.resolve("bin"));
        Files.createDirectories(tmp.resolve("gh"));
        Path gh = tmp.resolve("bin/gh");
        Files.copy(Path.of("src/test/resources/workflows/fake-gh"), gh);
        Files.setPosixFilePermissions(gh, PosixFilePermissions.fromString("rwxr-xr-x"));
        // GET /repos/{owner}/{repo}/issues?state=all&labels=…: a closed issue that reported aaaa's change at r9, the
        // open issue of bbbb's series (an earlier change), someone's copy of dddd's marker, and a pull request
        Files.writeString(
                tmp.resolve("gh/issues.json"),
                """
                [{"number": 3, "state": "closed", "user": {"login": "github-actions[bot]"},
                  "body": "<!-- loom-matrix:regression key=aaaa run=r9 -->\\nfixed"},
                 {"number": 4, "state": "open", "user": {"login": "github-actions[bot]"},
                  "body": "<!-- loom-matrix:regression key=bbbb run=r2 -->\\nthe first step"},
                 {"number": 5, "state": "open", "user": {"login": "github-actions[bot]"},
                  "body": "<!-- loom-matrix:regression key=ffff run=r1 -->\\nan older step"},
                 {"number": 6, "state": "open", "user": {"login": "someone"},
                  "body": "<!-- loom-matrix:regression key=dddd run=r9 -->\\nsilence it"},
                 {"number": 7, "state": "open", "user": {"login": "github-actions[bot]"}, "pull_request": {},
                  "body": "<!-- loom-matrix:regression key=eeee run=r9 -->"}]
                """);
    }

    /**
     * Four regressions: one already reported (its issue closed since) is left alone; a new step of a series whose
     * issue is open updates that issue (its earlier marker kept) and comments on it; a new series opens an issue
     * — one only, as max-new-issues 1 asks; the next is named in the summary, and a marker copied into someone
     * else's issue does not silence it. A step where the JDK build changed says so and is not bisected; the code's
     * step is handed to the dispatch with its commits.
     */
    @Test
    void eachChangeIsReportedOnceInItsSeriesIssueAndNeverAsAStorm(@TempDir Path tmp) throws Exception {
        fakeGh(tmp);
        Files.createDirectories(tmp.resolve("regressions"));
        Json.MAPPER.writeValue(
                tmp.resolve("regressions/regressions.json").toFile(),
                new Regressions(
                        1,
                        7,
                        List.of(
                                regression("aaaa", "r9", "code"),
                                regression("bbbb", "r9", "code"),
                                regression("cccc", "r9", "jdk build"),
                                regression("dddd", "r9", "code"),
                                regression("ffff", "r9", "image"))));
        String script = WorkflowScriptsIT.step("loom-matrix-alert.yml", "issue", "Open or update the issues");
        String result = WorkflowScriptsIT.bash(tmp, script, env(tmp, "1"));
        assertThat(result).as(result).startsWith("0\n");

        String calls = Files.readString(tmp.resolve("gh/calls.log"));
        assertThat(calls)
                .contains("-X GET repos/owner/repo/issues -f state=all -f labels=loom-matrix-regression")
                .contains("-X PATCH repos/owner/repo/issues/4 ")
                .contains("-X POST repos/owner/repo/issues/4/comments ")
                .doesNotContain("issues/3", "issues/6", "issues/7");
        assertThat(calls.lines().filter(l -> l.startsWith("api -X POST repos/owner/repo/issues ")))
                .singleElement()
                .asString()
                .contains("labels[]=loom-matrix-regression", "title=loom-matrix: 6.1 % worse: sleep-bound");

        String sent = Files.readString(tmp.resolve("gh/sent.log"));
        String patched = sent.substring(sent.indexOf("== PATCH repos/owner/repo/issues/4"));
        assertThat(patched.substring(0, patched.indexOf("\n== ")))
                .contains("<!-- loom-matrix:regression key=bbbb run=r9 -->")
                .contains("<!-- loom-matrix:regression key=bbbb run=r2 -->")
                .contains("**6.1 % worse** (95 % interval 4.9 % to 7.3 %)")
                .contains("https://github.com/owner/repo/compare/1111111111111111111111111111111111111111..."
                        + "2222222222222222222222222222222222222222")
                .contains("- Chart: https://owner.github.io/repo/#/history?cell=cell-bbbb&variant=virtual")
                .contains("Bisection: dispatched (benchmarks-bisect.yml)");
        String opened = sent.substring(sent.indexOf("== POST repos/owner/repo/issues\n"));
        opened = opened.substring(0, opened.indexOf("\n== ") < 0 ? opened.length() : opened.indexOf("\n== "));
        assertThat(opened)
                .contains("<!-- loom-matrix:regression key=cccc run=r9 -->")
                .contains("the jdk build changed too, so the step may not be the code's")
                .contains("jdk build: 21.0.5+11 → 21.0.6+7")
                .contains("`loom-matrix ab`")
                .doesNotContain("Bisection: dispatched");

        assertThat(Files.readString(tmp.resolve("summary.md")))
                .contains("cell-aaaa: already reported in #3")
                .contains("cell-bbbb: a new step, #4 updated")
                .contains("cell-cccc: #101 opened")
                .contains("cell-dddd: not opened (at most 1 new issues a night: raise max-new-issues)")
                .contains("cell-ffff: a new step, #5 updated");
        // the code's step is bisected, the new image's measured on both images; the JDK build's (no image to
        // measure) is not, and the unopened one has no issue
        String output = Files.readString(tmp.resolve("output.txt"));
        String commits = "\"good\":\"1111111111111111111111111111111111111111\","
                + "\"bad\":\"2222222222222222222222222222222222222222\",";
        assertThat(output.strip())
                .isEqualTo("bisect=[{" + commits + "\"cell\":\"cell-bbbb\",\"series\":\"cell-bbbb virtual\","
                        + "\"issue\":\"4\",\"images\":\"\"},{" + commits + "\"cell\":\"cell-ffff\","
                        + "\"series\":\"cell-ffff virtual\",\"issue\":\"5\",\"images\":\"sha256:old sha256:new\"}]");
        String imageIssue = sent.substring(sent.indexOf("== PATCH repos/owner/repo/issues/5"));
        assertThat(imageIssue)
                .contains("the image changed too", "image: sha256:old → sha256:new", "`loom-matrix bisect --images`")
                .contains("Bisection: dispatched");

        // the dispatch: the caller's bisect workflow on the default branch, with those inputs
        String dispatchStep = WorkflowScriptsIT.step("loom-matrix-alert.yml", "dispatch", "Dispatch the bisections");
        Map<String, String> env = env(tmp, "1");
        env.put("WORKFLOW", "benchmarks-bisect.yml");
        env.put("BISECT", output.strip().substring("bisect=".length()));
        env.put("REF", "main");
        Files.delete(tmp.resolve("gh/calls.log"));
        String dispatched = WorkflowScriptsIT.bash(tmp, dispatchStep, env);
        assertThat(dispatched).as(dispatched).startsWith("0\n");
        String dispatch = "api -X POST repos/owner/repo/actions/workflows/benchmarks-bisect.yml/dispatches -f ref=main"
                + " -f inputs[good]=1111111111111111111111111111111111111111"
                + " -f inputs[bad]=2222222222222222222222222222222222222222";
        assertThat(Files.readString(tmp.resolve("gh/calls.log")).strip().lines())
                .containsExactly(
                        dispatch + " -f inputs[cell]=cell-bbbb -f inputs[series]=cell-bbbb virtual -f inputs[issue]=4"
                                + " -f inputs[images]=",
                        dispatch + " -f inputs[cell]=cell-ffff -f inputs[series]=cell-ffff virtual -f inputs[issue]=5"
                                + " -f inputs[images]=sha256:old sha256:new");
    }

    /** The nightly ran again with nothing new: every change already reported, nothing written, nothing dispatched. */
    @Test
    void aNightWithNothingNewWritesNothing(@TempDir Path tmp) throws Exception {
        fakeGh(tmp);
        Files.createDirectories(tmp.resolve("regressions"));
        Json.MAPPER.writeValue(
                tmp.resolve("regressions/regressions.json").toFile(),
                new Regressions(1, 7, List.of(regression("aaaa", "r9", "code"))));
        String script = WorkflowScriptsIT.step("loom-matrix-alert.yml", "issue", "Open or update the issues");
        String result = WorkflowScriptsIT.bash(tmp, script, env(tmp, "1"));
        assertThat(result).as(result).startsWith("0\n");
        assertThat(Files.readString(tmp.resolve("gh/calls.log"))).doesNotContain("POST", "PATCH");
        assertThat(Files.readString(tmp.resolve("output.txt")).strip()).isEqualTo("bisect=[]");
    }

    /**
     * The bisection's answer lands on the issue it was dispatched for, mentions neutralized; an issue input that is
     * not a number is refused before anything is sent.
     */
    @Test
    void theBisectionsAnswerIsAddedToItsIssue(@TempDir Path tmp) throws Exception {
        fakeGh(tmp);
        Files.createDirectories(tmp.resolve("bisect"));
        Files.writeString(
                tmp.resolve("bisect/bisect.md"),
                "### loom-matrix bisect\nThe first bad commit is 2222222 (@someone)\n");
        String script = WorkflowScriptsIT.step("loom-matrix-bisect.yml", "comment", "Add the answer to the issue");
        Map<String, String> env = env(tmp, "1");
        env.put("ISSUE", "4");
        env.put("RESULT", "success");
        String result = WorkflowScriptsIT.bash(tmp, script, env);
        assertThat(result).as(result).startsWith("0\n");
        assertThat(Files.readString(tmp.resolve("gh/calls.log")))
                .contains("-X POST repos/owner/repo/issues/4/comments");
        assertThat(Files.readString(tmp.resolve("gh/sent-POST.md")))
                .startsWith("<!-- loom-matrix:bisection -->")
                .contains("The first bad commit is 2222222 (@\u200bsomeone)")
                .contains("artifact loom-matrix-bisect of https://github.com/owner/repo/actions/runs/1");

        Files.delete(tmp.resolve("gh/calls.log"));
        env.put("ISSUE", "4; echo pwned");
        String refused = WorkflowScriptsIT.bash(tmp, script, env);
        assertThat(refused).startsWith("1\n").contains("issue must be an issue number");
        assertThat(tmp.resolve("gh/calls.log")).doesNotExist();
    }
}
