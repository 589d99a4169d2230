package dev.loommatrix.runner.init;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The workflows {@code loom-matrix init} writes into a team's repository (issue #29): a few lines each that call
 * this project's reusable workflows (the nightly matrix with publish and its regression alert, the pull-request A/B,
 * its comment, the bisection the alert dispatches), pinned to
 * the release that wrote them.
 */
public final class CallingWorkflows {

    /** The directory GitHub reads workflows from, relative to the repository. */
    public static final String DIRECTORY = ".github/workflows";

    /** The {@code name:} of the pull-request workflow, which the comment workflow's workflow_run names. */
    static final String PR_NAME = "benchmarks-pr";

    /** The bisect workflow's file, which the nightly's alert dispatches by name. */
    static final String BISECT_FILE = "benchmarks-bisect.yml";

    private static final Pattern REPOSITORY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+");
    private static final Pattern FULL_SHA = Pattern.compile("[0-9a-f]{40}");

    /**
     * Where the reusable workflows are called from: {@code repository} (owner/name) at {@code ref}, with the words
     * that say which release it is (the comment after a commit pin).
     */
    public record Source(String repository, String ref, String label) {

        public Source {
            if (!REPOSITORY.matcher(repository).matches()) {
                throw new IllegalArgumentException(
                        "expected OWNER/REPO@REF (a GitHub repository), got repository '" + repository + "'");
            }
            if (ref.isBlank() || ref.contains(" ")) {
                throw new IllegalArgumentException(
                        "expected OWNER/REPO@REF with a tag or commit, got ref '" + ref + "'");
            }
        }

        /**
         * The release this CLI is: pinned by its commit (what zizmor asks of every {@code uses:}), the version in a
         * comment; the reusable workflow finds the release tag that names the commit and downloads that release. A
         * development build names its commit alone (built from source on each run); without a commit, the tag.
         */
        public static Source ofThisBuild(String repository, String version, Optional<String> commit) {
            boolean released = !version.endsWith("-SNAPSHOT") && !version.equals("dev");
            if (commit.filter(c -> FULL_SHA.matcher(c).matches()).isPresent()) {
                return new Source(
                        repository,
                        commit.get(),
                        released ? "v" + version : version + ", an unreleased commit: built from source on each run");
            }
            return new Source(repository, released ? "v" + version : "main", version);
        }

        /** {@code OWNER/REPO@REF}, as {@code --uses} takes it. */
        public static Source parse(String text) {
            int at = text.lastIndexOf('@');
            if (at < 0) {
                throw new IllegalArgumentException(
                        "expected OWNER/REPO@REF (e.g. acme/loom-matrix@v0.1.0), got '" + text + "'");
            }
            return new Source(text.substring(0, at), text.substring(at + 1), text.substring(at + 1));
        }

        String uses(String workflow) {
            String comment = label.equals(ref) ? "" : "   # " + label;
            return repository + "/.github/workflows/" + workflow + "@" + ref + comment;
        }
    }

    private CallingWorkflows() {}

    /** File name (in {@link #DIRECTORY}) → content, in the order they are written. */
    public static Map<String, String> of(Starter.Project project, Source source, boolean quickProfile) {
        String build = project.build().orElse("");
        Map<String, String> files = new LinkedHashMap<>();
        files.put("benchmarks.yml", nightly(source, build));
        files.put("benchmarks-pr.yml", pullRequest(source, build, quickProfile));
        files.put("benchmarks-pr-comment.yml", pullRequestComment(source));
        files.put("benchmarks-bisect.yml", bisect(source, build));
        return files;
    }

    /** The nightly: every cell, published with its history. */
    private static String nightly(Source source, String build) {
        String with = build.isEmpty() ? "" : "    with:\n      build: " + yamlScalar(build) + "\n";
        return """
                # loom-matrix's nightly matrix: every cell of matrix.yaml, published to GitHub Pages with its history (the
                # branch loom-matrix-history). Pages: Settings > Pages > Source "GitHub Actions". PostgreSQL for Grafana:
                # the secret LOOM_POSTGRES_URL. More inputs (profile, runners, keep-runs): the called workflow's header.
                name: benchmarks
                on:
                  schedule:
                    - cron: "17 2 * * *"
                  workflow_dispatch:
                permissions: {}
                jobs:
                  matrix:
                    uses: %s
                    permissions: {actions: read, contents: write, pages: write, id-token: write}
                %s    secrets:
                      postgres-url: ${{ secrets.LOOM_POSTGRES_URL }}
                  # an issue for each new step for the worse (at most one new a night), bisected by benchmarks-bisect.yml
                  alert:
                    needs: matrix
                    uses: %s
                    permissions: {issues: write, actions: write}
                    with:
                      site-url: ${{ needs.matrix.outputs.page-url }}
                      bisect-workflow: %s
                """
                .formatted(
                        source.uses("loom-matrix-nightly.yml"),
                        with,
                        source.uses("loom-matrix-alert.yml"),
                        BISECT_FILE);
    }

    /** The workflow the nightly's alert dispatches: the commits between a regression's two runs, bisected. */
    private static String bisect(Source source, String build) {
        String with = build.isEmpty() ? "" : "      build: " + yamlScalar(build) + "\n";
        return """
                # loom-matrix bisect, dispatched by benchmarks.yml's alert for a step for the worse (or by hand: Actions >
                # benchmarks-bisect > Run workflow): the commits between good and bad built and measured against good, the
                # answer added to the issue. More inputs (budget, runner, backend): the called workflow's header.
                name: benchmarks-bisect
                on:
                  workflow_dispatch:
                    inputs:
                      good: {description: A commit without the regression, required: true}
                      bad: {description: A later commit with it, required: true}
                      cell: {description: Only this cell (empty for every cell), default: ""}
                      series: {description: The series to follow, default: ""}
                      issue: {description: The issue the answer is added to, default: ""}
                      images: {description: The image before the step and after it (measured instead of commits), default: ""}
                permissions: {}
                jobs:
                  bisect:
                    uses: %s
                    permissions: {actions: read, contents: read, issues: write}
                    with:
                %s      good: ${{ inputs.good }}
                      bad: ${{ inputs.bad }}
                      cell: ${{ inputs.cell }}
                      series: ${{ inputs.series }}
                      issue: ${{ inputs.issue }}
                      images: ${{ inputs.images }}
                """
                .formatted(source.uses("loom-matrix-bisect.yml"), with);
    }

    /** A pull request's verdict: its merge base and head measured side by side. */
    private static String pullRequest(Source source, String build, boolean quickProfile) {
        return """
                # loom-matrix's verdict on a pull request: the merge base and the head, built and measured side by side on
                # one runner (matrix.yaml's quick profile where it has one), compared pair by pair; benchmarks-pr-comment.yml
                # posts it. It runs the pull request's code: keep it on GitHub-hosted runners in a public repository.
                name: %s
                on:
                  pull_request:
                permissions: {}
                concurrency:
                  group: benchmarks-pr-${{ github.event.pull_request.number }}
                  cancel-in-progress: true
                jobs:
                  ab:
                    uses: %s
                    permissions: {actions: read, contents: read}
                %s"""
                .formatted(PR_NAME, source.uses("loom-matrix-pr.yml"), prInputs(build, quickProfile));
    }

    /** The verdict posted on the pull request, from this repository's context (so forks' too). */
    private static String pullRequestComment(Source source) {
        return """
                # Posts benchmarks-pr.yml's verdict on the pull request, forks' included: it runs in this repository's
                # context and checks out nothing from the pull request (the called workflow's header says how).
                name: benchmarks-pr-comment
                on:
                  workflow_run:   # zizmor: ignore[dangerous-triggers] — the one way to comment on a fork's pull request
                    workflows: [%s]
                    types: [completed]
                permissions: {}
                jobs:
                  comment:
                    if: github.event.workflow_run.event == 'pull_request'
                    uses: %s
                    permissions: {actions: read, pull-requests: write}
                """
                .formatted(PR_NAME, source.uses("loom-matrix-pr-comment.yml"));
    }

    private static String prInputs(String build, boolean quickProfile) {
        String inputs = (quickProfile ? "      profile: quick\n" : "")
                + (build.isEmpty() ? "" : "      build: " + yamlScalar(build) + "\n");
        return inputs.isEmpty() ? "" : "    with:\n" + inputs;
    }

    /** A build command as a YAML plain scalar when it can be one, else double-quoted. */
    static String yamlScalar(String text) {
        boolean plain = text.matches("[A-Za-z0-9./][^#:\"'\\[\\]{},&*!|>%@`]*") && !text.endsWith(" ");
        return plain ? text : "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
