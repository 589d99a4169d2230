package dev.loommatrix.runner.bisect;

import dev.loommatrix.core.bisect.Bisection;
import dev.loommatrix.core.result.Json;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code loom-matrix bisect} (issue #53): from a good and a bad commit of a team's repository to the commit where a
 * series stepped. It says its cost before it starts (the steps, the builds, the budget a step), builds the good
 * commit, then lets {@link Bisection} choose each commit to measure and {@link BisectSteps} build and measure it;
 * the answer goes to {@code bisect.json} and {@code bisect.md} in its directory, which a second run with the same
 * directory resumes from.
 */
public final class BisectRun {

    /**
     * What to bisect.
     *
     * @param repository the team's git repository
     * @param build the shell command that builds a checkout, run in its root
     * @param out the bisection's directory (worktrees, builds, steps, the answer)
     * @param threshold the smallest regression worth bisecting (0.03: 3 %)
     * @param stepped the steps for the worse a published history found (empty: none given); without cells asked
     *     for, the cells are those of the steps at a commit of the range
     * @param images empty, or the image before the step and the one after it: then the bad commit is measured on
     *     the two instead of bisecting commits
     */
    public record Request(
            Path repository,
            String good,
            String bad,
            String build,
            Path out,
            double threshold,
            BisectSteps.Settings steps,
            List<Stepped> stepped,
            List<String> images) {

        public Request {
            stepped = List.copyOf(stepped);
            images = List.copyOf(images);
            if (!images.isEmpty() && images.size() != 2) {
                throw new IllegalArgumentException("images: the one before the step and the one after it");
            }
        }
    }

    /** A series that stepped for the worse at a commit, as the nightly's history found it. */
    public record Stepped(String commit, String cellId, String variant) {}

    /** The user's mistake: a ref that names nothing, a range that is empty, a good commit that does not build. */
    public static final class BisectException extends Exception {
        BisectException(String message) {
            super(message);
        }
    }

    private BisectRun() {}

    /** The settings every step shares, for the command line to make. */
    public static BisectSteps.Settings settings(
            Path matrix,
            Optional<String> profile,
            List<String> cells,
            Optional<String> series,
            String backend,
            Duration budget) {
        return new BisectSteps.Settings(matrix, profile, cells, series, backend, budget);
    }

    /** Bisects; the answer, also written to {@code bisect.json} and {@code bisect.md}. */
    public static BisectReport run(Request request, AbStep ab, PrintStream console, Clock clock)
            throws IOException, InterruptedException, BisectException {
        Git git = new Git(request.repository());
        Git.Commit good = resolve(git, request.good(), "--good");
        Git.Commit bad = resolve(git, request.bad(), "--bad");
        if (!git.isAncestor(good, bad) || good.id().equals(bad.id())) {
            throw new BisectException(
                    "--good " + request.good() + " (" + good.shortId() + ") is not an ancestor of --bad "
                            + request.bad() + " (" + bad.shortId() + "): give the older, good commit as --good");
        }
        List<Git.Commit> commits = git.between(good, bad);
        if (commits.isEmpty()) {
            throw new BisectException("no commit on the main line after " + good.shortId() + " up to " + bad.shortId()
                    + " (git log --first-parent " + good.shortId() + ".." + bad.shortId() + " lists none)");
        }
        request = withSteppedCells(request, commits, console);
        Path root = request.out().toAbsolutePath();
        Files.createDirectories(root);
        Builds builds = new Builds(git, root, request.build());
        if (!request.images().isEmpty()) {
            return answered(ImageAb.run(request, builds, good, bad, commits.size(), root, ab, console), root, console);
        }
        announce(console, request, good, bad, commits.size(), root);
        console.printf("building good %s %s%n", good.shortId(), good.subject());
        Builds.Built goodBuild = builds.build(good);
        if (goodBuild.failure().isPresent()) {
            throw new BisectException("the good commit " + good.shortId() + " does not build ("
                    + goodBuild.failure().get() + "); its log is " + goodBuild.log()
                    + ": give a good commit that builds, or another --build");
        }
        if (!Files.isRegularFile(goodBuild.worktree().resolve(request.steps().matrix()))) {
            throw new BisectException("no matrix file " + request.steps().matrix() + " in the good commit "
                    + good.shortId() + ": give its path inside the repository with --matrix");
        }
        BisectSteps steps =
                new BisectSteps(builds, good, goodBuild.worktree(), commits, root, request.steps(), ab, console, clock);
        Bisection.Result result = Bisection.run(commits.size(), request.threshold(), steps);
        return answered(BisectReport.of(result, good, bad, commits, steps.series()), root, console);
    }

    /** The answer written to {@code bisect.json} and {@code bisect.md}, and said. */
    private static BisectReport answered(BisectReport report, Path root, PrintStream console) throws IOException {
        Json.writeAtomically(root.resolve("bisect.json"), report);
        Path md = root.resolve("bisect.md");
        Json.writeAtomically(md, report.markdown());
        console.println();
        console.println(report.answer());
        console.println("the steps and their A/B reports: " + md);
        return report;
    }

    /**
     * The cells asked for; else, where a history's steps were given, the cells whose series stepped at a commit of
     * this range (the series too, when there is one); else every cell.
     */
    static Request withSteppedCells(Request r, List<Git.Commit> commits, PrintStream console) throws BisectException {
        BisectSteps.Settings s = r.steps();
        if (!s.cells().isEmpty() || r.stepped().isEmpty()) {
            return r;
        }
        List<Stepped> here = r.stepped().stream()
                .filter(x -> commits.stream().anyMatch(c -> c.id().startsWith(x.commit())))
                .toList();
        if (here.isEmpty()) {
            throw new BisectException("none of the history's steps for the worse is at a commit after " + r.good()
                    + " up to " + r.bad() + ": give the cells with --cell");
        }
        List<String> cells = here.stream().map(Stepped::cellId).distinct().toList();
        Optional<String> series = s.series()
                .or(() -> here.size() == 1
                        ? Optional.of(
                                here.getFirst().cellId() + " " + here.getFirst().variant())
                        : Optional.empty());
        console.println("the cells whose series stepped in this range: " + String.join(", ", cells));
        return new Request(
                r.repository(),
                r.good(),
                r.bad(),
                r.build(),
                r.out(),
                r.threshold(),
                new BisectSteps.Settings(s.matrix(), s.profile(), cells, series, s.backend(), s.budget()),
                r.stepped(),
                r.images());
    }

    /** The cost before anything is built: the steps, the builds, the budget and what it leaves a step. */
    static void announce(PrintStream console, Request r, Git.Commit good, Git.Commit bad, int commits, Path root) {
        int steps = Bisection.steps(commits);
        Duration budget = r.steps().budget();
        console.printf(
                Locale.ROOT,
                "bisect: %d commit%s after good %s up to bad %s: at most %d steps (the bad commit against good, then %d"
                        + " halving%s of the range), %d builds (good's too), within %s: about %s a step%n",
                commits,
                commits == 1 ? "" : "s",
                good.shortId(),
                bad.shortId(),
                steps,
                steps - 1,
                steps - 1 == 1 ? "" : "s",
                steps + 1,
                words(budget),
                words(budget.dividedBy(steps)));
        console.println("  a commit that does not build is skipped; a commit showing part of the change adds steps;"
                + " killed, it resumes from its finished steps when run again with --out " + root);
    }

    private static String words(Duration d) {
        long s = d.toSeconds();
        return s >= 120 ? (s + 30) / 60 + " min" : s + " s";
    }

    private static Git.Commit resolve(Git git, String ref, String option)
            throws IOException, InterruptedException, BisectException {
        return git.resolve(ref)
                .orElseThrow(() -> new BisectException(option + " " + ref
                        + ": no such commit in this repository (git log -1 " + ref + " found none)"));
    }
}
