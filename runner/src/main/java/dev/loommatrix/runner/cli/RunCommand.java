package dev.loommatrix.runner.cli;

import dev.loommatrix.core.matrix.Matrix;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.ClassFileCheck;
import dev.loommatrix.core.plan.Planner;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.result.RunStatus;
import dev.loommatrix.runner.backend.ContainerEngine;
import dev.loommatrix.runner.backend.container.ContainerBackend;
import dev.loommatrix.runner.backend.local.JdkLocator;
import dev.loommatrix.runner.backend.local.LocalBackend;
import dev.loommatrix.runner.run.MatrixRun;
import dev.loommatrix.runner.run.NewRun;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "run",
        description = "Run every cell of the matrix (or of one shard) and record the results in a run directory.")
final class RunCommand implements Callable<Integer> {

    @Mixin
    MatrixOptions options;

    @Option(names = "--shard", paramLabel = "I/N", description = "Only shard I of N.")
    String shard;

    @Option(
            names = "--cell",
            paramLabel = "CELL_ID",
            description = "Only this cell (repeatable): how the dashboard's \"reproduce this cell\" command runs one.")
    List<String> onlyCells = new java.util.ArrayList<>();

    @Option(
            names = "--backend",
            defaultValue = "auto",
            description =
                    "auto (containers when a Docker engine answers and the image can be had, else the host's JDKs), docker, or local. Default: ${DEFAULT-VALUE}.")
    String backend;

    @Option(names = "--out", paramLabel = "DIR", description = "The run directory (default: results/<run-id>).")
    Path out;

    @Option(names = "--resume", description = "Continue the run in --out: cells with a result file are not run again.")
    boolean resume;

    @Option(
            names = "--retry-failed",
            description = "With --resume: also run the failed and timed-out cells again (a lost Docker engine, a"
                    + " flaky runner). Each earlier attempt is kept in attempts/<cell-id>/<n>/, and the new record"
                    + " lists them.")
    boolean retryFailed;

    @Option(
            names = "--run-id",
            paramLabel = "ID",
            description =
                    "The run's id (default: UTC time and a random suffix). Shards of one CI run pass the same id, so merge keeps it.")
    String requestedRunId;

    @Option(
            names = "--on-disturbed",
            paramLabel = "flag|rerun|fail",
            defaultValue = "flag",
            description = "A cell measured beside other work (from 0.25 CPUs of it on average): flag it, its samples"
                    + " kept (default); rerun it (at most " + MatrixRun.RERUNS + " more times, while it stays"
                    + " disturbed); or fail it (its numbers kept and called invalid: exit 3).")
    String onDisturbed;

    @Option(
            names = "--no-wait",
            description = "Exit (code 6) instead of waiting when another run is measuring on this host or Docker"
                    + " engine (one measurement per machine: a waiting run says whose run it waits for).")
    boolean noWait;

    @Option(
            names = "--parallel-cells",
            paramLabel = "N",
            defaultValue = "1",
            description = "Run up to N container cells at once, each on its own disjoint cpuset (default 1: one at a"
                    + " time, as neighbours disturb measurements; records say when a cell ran beside others).")
    int parallelCells;

    @Spec
    CommandSpec spec;

    @picocli.CommandLine.ParentCommand
    LoomMatrix parent;

    @Override
    public Integer call() throws Exception {
        MatrixRun.BackendChoice choice = Measuring.backendChoice(backend);
        Matrix matrix = options.load();
        List<Cell> cells =
                Measuring.only(PlanCommand.select(ClassFileCheck.check(Planner.plan(matrix)), shard), onlyCells);
        // the CLI's own output stream (the one mainWithoutExit was given), not a new one on the process's
        PrintStream console = parent.out();
        var err = spec.commandLine().getErr();

        if (retryFailed && !resume) {
            throw new LoomMatrix.UsageException("--retry-failed needs --resume --out DIR, the run to retry cells of");
        }
        // the engine is asked while the run's directory and manifest are made (host facts, git): a run's start is
        // most of what the runner adds to a short matrix
        var connecting =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> choice == MatrixRun.BackendChoice.LOCAL
                        ? Optional.<ContainerEngine>empty()
                        : ContainerBackend.connect().map(ContainerEngine.class::cast));
        Target target = target(matrix, cells, err);
        Optional<ContainerEngine> docker = answering(connecting.join(), choice, err);
        RunDirectory dir = target.dir();
        RunManifest manifest = target.manifest();
        String runId = manifest.runId();
        console.printf("run %s: %d cells → %s%n", runId, cells.size(), dir.root());
        // the machine's settings known to add noise, said once (run.json host.tuning keeps them)
        manifest.host().tuning().ifPresent(t -> t.warnings()
                .forEach(w -> err.println("warning: " + w + " (run.json: host.tuning)")));
        if (parallelCells < 1
                || (parallelCells > 1
                        && docker.isPresent()
                        && parallelCells > docker.get().hostCpus())) {
            throw new LoomMatrix.UsageException("--parallel-cells must be from 1 to this host's "
                    + docker.map(ContainerEngine::hostCpus).orElse(1) + " CPUs (one CPU at least per cell), got "
                    + parallelCells);
        }
        // one measurement per machine: held until the run has ended (the kernel releases it if the run is killed)
        try (var lock = Measuring.measurementLock(docker.map(ContainerEngine::engineId), runId, "run", noWait, err)) {
            return measure(dir, manifest, cells, choice, docker, console);
        }
    }

    /** The run's directory and manifest: the one continued (--resume), or a new one. */
    private record Target(RunDirectory dir, RunManifest manifest) {}

    private Target target(Matrix matrix, List<Cell> cells, java.io.PrintWriter err) throws Exception {
        if (resume) {
            if (out == null) {
                throw new LoomMatrix.UsageException("--resume needs --out DIR, the run directory to continue");
            }
            RunDirectory dir = new RunDirectory(out);
            RunManifest manifest = dir.readManifest();
            checkSameMatrix(manifest.matrix(), err);
            return new Target(dir, manifest);
        }
        String runId = requestedRunId != null ? requestedRunId : NewRun.id();
        if (!runId.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
            throw new LoomMatrix.UsageException(
                    "--run-id may contain letters, digits, '.', '_' and '-', got '" + runId + "'");
        }
        RunDirectory dir = new RunDirectory(out != null ? out : Path.of("results", runId));
        if (Files.exists(dir.manifestFile())) {
            throw new LoomMatrix.UsageException(
                    dir.root() + " already holds a run; use --resume to continue it, or another --out");
        }
        return new Target(
                dir,
                NewRun.manifest(
                        runId,
                        options.matrix,
                        matrix.id(),
                        Optional.ofNullable(options.profile),
                        Optional.ofNullable(shard),
                        cells));
    }

    /** The Docker engine that answered (none when the local backend was chosen); a docker choice needs one. */
    private static Optional<ContainerEngine> answering(
            Optional<ContainerEngine> docker, MatrixRun.BackendChoice choice, java.io.PrintWriter err) {
        if (docker.isEmpty() && choice == MatrixRun.BackendChoice.AUTO) {
            err.println("note: no Docker engine answers; linux cells run on the local backend with this host's JDKs "
                    + "(start Docker, or set DOCKER_HOST, for containers)");
        }
        if (docker.isEmpty() && choice == MatrixRun.BackendChoice.DOCKER) {
            throw new LoomMatrix.UsageException(
                    "--backend docker, but no Docker engine answers (start dockerd or set DOCKER_HOST)");
        }
        return docker;
    }

    private int measure(
            RunDirectory dir,
            RunManifest manifest,
            List<Cell> cells,
            MatrixRun.BackendChoice choice,
            Optional<ContainerEngine> docker,
            PrintStream console)
            throws IOException, InterruptedException {
        MatrixRun run = new MatrixRun(
                        dir, console, choice, docker, new LocalBackend(JdkLocator.forHost()), parallelCells)
                .onDisturbed(Measuring.disturbedPolicy(onDisturbed));
        // Ctrl-C (SIGINT) and SIGTERM: stop the current cell and leave a consistent run directory.
        Thread onSignal = new Thread(() -> run.stop(java.time.Duration.ofSeconds(30)), "loom-matrix-stop");
        Runtime.getRuntime().addShutdownHook(onSignal);
        MatrixRun.Totals totals = run.run(
                manifest,
                cells,
                retryFailed
                        ? MatrixRun.Resume.RETRY_FAILED
                        : resume ? MatrixRun.Resume.KEEP_ENDED : MatrixRun.Resume.NO);
        if (run.wasStopped()) {
            console.printf(
                    "interrupted: %d cells finished are kept in %s; continue with --resume --out %s%n",
                    totals.ended(), dir.root(), dir.root());
            return ExitCode.INTERNAL_ERROR.code;
        }
        Runtime.getRuntime().removeShutdownHook(onSignal);
        dir.writeManifest(manifest.finish(Instant.now().toString(), RunStatus.FINISHED));
        console.printf(
                "done: %d ok, %s%d failed, %d timed out, %d skipped%s → %s%n",
                totals.ok(),
                totals.invalid() > 0 ? totals.invalid() + " invalid, " : "",
                totals.failed(),
                totals.timedOut(),
                totals.skipped(),
                totals.resumed() > 0 ? ", " + totals.resumed() + " already done" : "",
                dir.root());
        if (totals.skipped() > 0 && totals.skipped() * 2 >= manifest.cells().size()) {
            // exit 0 is right (a skipped cell is not a failure), but half a matrix unmeasured must not read as done
            console.printf(
                    "note: %d of the %d cells were skipped: this host lacks what they need (a JDK, an image);"
                            + " each says what would run it (%s report %s)%n",
                    totals.skipped(), manifest.cells().size(), Output.command(), dir.root());
        }
        if (shard == null) {
            // the answer first, in a line per workload (issue #51); the report says why, with links to the cells
            var conclusions = dev.loommatrix.core.conclude.RunConclusions.of(
                    dev.loommatrix.core.conclude.RunConclusions.inPlanOrder(dir.readCells(), manifest.cells()),
                    dev.loommatrix.core.conclude.RunConclusions.DEFAULT_THRESHOLD);
            var lines = dev.loommatrix.core.conclude.ConclusionsInBrief.run(conclusions);
            if (!lines.isEmpty()) {
                console.printf(
                        "conclusions (±10 %% is no difference; %s report %s says why):%n",
                        Output.command(), dir.root());
                lines.forEach(l -> console.println("  " + l));
            }
            // what to do with it: the dashboard (a shard's part is merged first, as the workflows do)
            console.printf(
                    "next: %1$s publish --run %2$s --site site && %1$s serve site%n", Output.command(), dir.root());
        }
        return totals.anyFailed() ? ExitCode.CELLS_FAILED.code : ExitCode.OK.code;
    }

    private String matrixSha256() throws java.io.IOException, java.security.NoSuchAlgorithmException {
        return NewRun.sha256(options.matrix);
    }

    /**
     * A resumed run must plan the same cells as the run it continues: another profile or shard is
     * refused (its cells would join a run that never planned them); an edited matrix file is allowed —
     * a longer timeout for a retry is a fair edit — but said, since changed parameters would mix.
     */
    private void checkSameMatrix(RunManifest.MatrixInfo started, java.io.PrintWriter err) throws Exception {
        if (!started.profile().equals(Optional.ofNullable(options.profile))
                || !started.shard().equals(Optional.ofNullable(shard))) {
            throw new LoomMatrix.UsageException("the run in " + out + " was started with "
                    + describe(started.profile(), started.shard()) + ", not "
                    + describe(Optional.ofNullable(options.profile), Optional.ofNullable(shard))
                    + "; resume it with the same --profile and --shard");
        }
        if (!started.sha256().equals(matrixSha256())) {
            err.println("note: " + options.matrix + " changed since the run started (" + started.file()
                    + ", sha256 "
                    + started.sha256()
                            .substring(0, Math.min(12, started.sha256().length()))
                    + "…); the cells run now use the file as it is, the finished ones keep what they ran with");
        }
    }

    private static String describe(Optional<String> profile, Optional<String> shard) {
        return profile.map(p -> "--profile " + p).orElse("no profile") + " and "
                + shard.map(s -> "--shard " + s).orElse("no shard");
    }
}
