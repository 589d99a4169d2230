package dev.loommatrix.runner.cli;

import dev.loommatrix.core.result.Json;
import dev.loommatrix.runner.bisect.BisectRun;
import dev.loommatrix.runner.publish.Regressions;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code loom-matrix bisect}: the command line of {@link BisectRun}. */
@Command(
        name = "bisect",
        description = "Find the commit that made a series worse: in a git repository, build the commits between a"
                + " good and a bad one in worktrees and measure each as an A/B of the good build against it (lockstep,"
                + " sequential looks), halving the range until one commit is left. Says its steps, builds and budget"
                + " before it starts; skips a commit that does not build; resumes from its finished steps with the"
                + " same --out.")
final class BisectCommand implements Callable<Integer> {

    @Option(names = "--good", required = true, paramLabel = "REF", description = "A commit without the regression.")
    String good;

    @Option(
            names = "--bad",
            paramLabel = "REF",
            defaultValue = "HEAD",
            description = "A later commit with it (default: ${DEFAULT-VALUE}).")
    String bad;

    @Option(
            names = "--build",
            required = true,
            paramLabel = "COMMAND",
            description = "How a checkout is built, run by sh in its root, e.g. \"./mvnw -q -B package -DskipTests\".")
    String build;

    @Option(
            names = "--repo",
            paramLabel = "DIR",
            defaultValue = ".",
            description = "The git repository (default: the current directory).")
    Path repo;

    @Option(
            names = "--matrix",
            paramLabel = "FILE",
            defaultValue = "matrix.yaml",
            description = "The matrix file's path inside the repository (default: ${DEFAULT-VALUE}).")
    Path matrix;

    @Option(names = "--profile", paramLabel = "NAME", description = "A profile of the matrix to apply first.")
    String profile;

    @Option(names = "--cell", paramLabel = "CELL_ID", description = "Only this cell (repeatable; default: every cell).")
    List<String> cells = new ArrayList<>();

    @Option(
            names = "--site",
            paramLabel = "DIR",
            description = "A published site: without --cell, the cells are those whose series stepped for the worse"
                    + " between good and bad in its history (data/regressions.json).")
    Path site;

    @Option(
            names = "--images",
            arity = "2",
            paramLabel = "IMAGE",
            description = "The image before the step and the one after it (a change point where the JDK image"
                    + " changed): the bad commit is measured on the two, the code the same on both sides, instead of"
                    + " bisecting commits.")
    List<String> images = new ArrayList<>();

    @Option(
            names = "--series",
            paramLabel = "CELL [VARIANT]",
            description = "The series to follow: a cell, a variant, or both (default: the one with the largest"
                    + " regression from good to bad).")
    String series;

    @Option(
            names = "--threshold",
            paramLabel = "PERCENT",
            defaultValue = "3",
            description = "The smallest regression worth bisecting, from good to bad (default: ${DEFAULT-VALUE}).")
    double thresholdPercent;

    @Option(
            names = "--budget",
            paramLabel = "DURATION",
            defaultValue = "20m",
            description = "Time for the whole bisection, shared by its steps (default: ${DEFAULT-VALUE}).")
    String budget;

    @Option(names = "--backend", defaultValue = "auto", description = "auto, docker or local (as for run).")
    String backend;

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "The bisection's directory (default: results/bisect-GOOD-BAD); the same again resumes it.")
    Path out;

    @picocli.CommandLine.ParentCommand
    LoomMatrix parent;

    @Override
    public Integer call() throws Exception {
        Measuring.backendChoice(backend);
        if (!(thresholdPercent > 0)) {
            throw new LoomMatrix.UsageException("--threshold must be above 0, got " + thresholdPercent);
        }
        var request = new BisectRun.Request(
                repo,
                good,
                bad,
                build,
                out != null ? out : Path.of("results", "bisect-" + safe(good) + "-" + safe(bad)),
                thresholdPercent / 100,
                BisectRun.settings(
                        matrix,
                        Optional.ofNullable(profile),
                        cells,
                        Optional.ofNullable(series),
                        backend,
                        AbCommand.duration(budget)),
                stepped(),
                images);
        try {
            BisectRun.run(
                    request,
                    (args, log) -> LoomMatrix.mainWithoutExit(args.toArray(String[]::new), log, log),
                    parent.out(),
                    Clock.systemUTC());
        } catch (BisectRun.BisectException e) {
            throw new LoomMatrix.UsageException(e.getMessage());
        }
        return ExitCode.OK.code;
    }

    /** The steps for the worse the site's history found, if a site was given. */
    private List<BisectRun.Stepped> stepped() throws java.io.IOException {
        if (site == null) {
            return List.of();
        }
        Path file = site.resolve("data/regressions.json");
        if (!java.nio.file.Files.isRegularFile(file)) {
            throw new LoomMatrix.UsageException("--site " + site + ": no data/regressions.json there (loom-matrix"
                    + " publish writes it): give the site's directory, or the cells with --cell");
        }
        return Json.MAPPER.readValue(file.toFile(), Regressions.class).regressions().stream()
                .filter(r -> r.badCommit().isPresent())
                .map(r -> new BisectRun.Stepped(r.badCommit().get(), r.cellId(), r.variant()))
                .toList();
    }

    /** A ref as a directory name: "HEAD~16" as "HEAD-16". */
    private static String safe(String ref) {
        return ref.replaceAll("[^A-Za-z0-9._-]", "-");
    }
}
