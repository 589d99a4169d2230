package dev.loommatrix.runner.bisect;

import dev.loommatrix.core.bisect.Bisection;
import dev.loommatrix.core.bisect.Change;
import dev.loommatrix.core.compare.CompareReport;
import dev.loommatrix.core.compare.Comparison;
import dev.loommatrix.core.result.Json;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A bisection's steps on this machine: each probed commit built in its worktree, then an A/B of the good build
 * against it ({@code steps/<commit>/}: an ordinary A/B directory, its {@code compare.md} the step's evidence). A step
 * whose A/B finished before (a bisection killed and started again) is read, not measured again: the bisection then
 * walks the same path to where it stopped.
 */
final class BisectSteps implements Bisection.Probe {

    /** A step gets at least this much of the budget: an A/B's first pass cannot be shorter. */
    static final Duration LEAST_STEP = Duration.ofMinutes(1);

    /** What the steps share: the matrix in each worktree, what to measure, and the budget. */
    record Settings(
            Path matrix,
            Optional<String> profile,
            List<String> cells,
            Optional<String> series,
            String backend,
            Duration budget) {
        Settings {
            cells = List.copyOf(cells);
        }
    }

    private final Builds builds;
    private final Git.Commit good;
    private final Path goodWorktree;
    private final List<Git.Commit> commits;
    private final Path root;
    private final Settings settings;
    private final AbStep ab;
    private final PrintStream console;
    private final Clock clock;
    private final Instant start;
    private Optional<Series> series = Optional.empty();
    private int stepNumber;

    BisectSteps(
            Builds builds,
            Git.Commit good,
            Path goodWorktree,
            List<Git.Commit> commits,
            Path root,
            Settings settings,
            AbStep ab,
            PrintStream console,
            Clock clock) {
        this.builds = builds;
        this.good = good;
        this.goodWorktree = goodWorktree;
        this.commits = List.copyOf(commits);
        this.root = root;
        this.settings = settings;
        this.ab = ab;
        this.console = console;
        this.clock = clock;
        this.start = clock.instant();
    }

    /** The series the steps follow, once the first step has picked it. */
    Optional<Series> series() {
        return series;
    }

    @Override
    public Bisection.Probed at(Bisection.Question q) throws IOException, InterruptedException {
        Git.Commit commit = commits.get(q.commit());
        stepNumber++;
        console.printf(Locale.ROOT, "step %d: %s %s%n", stepNumber, commit.shortId(), commit.subject());
        Builds.Built built = builds.build(commit);
        if (built.failure().isPresent()) {
            console.printf(
                    "  does not build (%s): skipped; its log is %s%n",
                    built.failure().get(), built.log());
            return new Bisection.Probed.NotBuilt(built.failure().get());
        }
        Path dir = root.resolve("steps").resolve(commit.shortId());
        Path compare = dir.resolve("compare.json");
        String evidence = root.relativize(dir.resolve("compare.md")).toString();
        if (Files.isRegularFile(compare)) {
            console.println("  measured before: read from " + dir);
        } else {
            Optional<String> failed = measure(q, commit, built.worktree(), dir);
            if (failed.isPresent()) {
                return new Bisection.Probed.NotMeasured(failed.get(), evidence);
            }
        }
        CompareReport report = Json.MAPPER.readValue(compare.toFile(), CompareReport.class);
        Optional<Comparison> c = series.isEmpty()
                ? Series.worst(report, settings.series())
                : report.comparisons().stream().filter(series.get()::matches).findFirst();
        if (c.isEmpty()) {
            String why = series.isEmpty()
                    ? "its A/B compared nothing"
                            + settings.series()
                                    .map(s -> " matching '" + s + "'")
                                    .orElse("")
                    : "its A/B has no comparison of " + series.get().words();
            console.println("  " + why);
            return new Bisection.Probed.NotMeasured(why, evidence);
        }
        if (series.isEmpty()) {
            series = Optional.of(Series.of(c.get()));
            console.println("  following " + series.get().words());
        }
        Change change = Change.of(c.get());
        console.printf(
                "  %s against good, %d pairs%n",
                change.words(), c.get().pairs() == null ? 0 : c.get().pairs());
        return new Bisection.Probed.Measured(change, evidence);
    }

    /** Runs the step's A/B into {@code dir}; why it gave no report, if it did not. */
    private Optional<String> measure(Bisection.Question q, Git.Commit commit, Path worktree, Path dir)
            throws IOException, InterruptedException {
        if (Files.exists(dir)) {
            deleteTree(dir); // a step killed midway: measured again from its start
        }
        Files.createDirectories(dir.getParent());
        Duration budget = stepBudget(q.stepsLeft());
        console.printf(
                Locale.ROOT,
                "  A/B against good at a threshold of %.1f %%, budget %d s (log: %s)%n",
                100 * q.threshold(),
                budget.toSeconds(),
                root.relativize(dir.resolveSibling(commit.shortId() + ".log")));
        List<String> args = AbStep.args(
                goodWorktree.resolve(settings.matrix()),
                "good " + good.shortId(),
                worktree.resolve(settings.matrix()),
                commit.shortId(),
                q.threshold(),
                budget,
                settings,
                dir);
        Path logFile = dir.resolveSibling(commit.shortId() + ".log");
        int code = ab.runLogged(args, logFile);
        if (!Files.isRegularFile(dir.resolve("compare.json"))) {
            return Optional.of("its A/B ended without a report (exit " + code + ": " + Builds.lastLine(logFile) + ")");
        }
        return Optional.empty();
    }

    /** The budget left, shared by the steps still to come, at least {@link #LEAST_STEP} each. */
    Duration stepBudget(int stepsLeft) {
        Duration left = settings.budget().minus(Duration.between(start, clock.instant()));
        Duration share = left.dividedBy(Math.max(1, stepsLeft));
        return share.compareTo(LEAST_STEP) < 0 ? LEAST_STEP : share;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
