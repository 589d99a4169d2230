package dev.loommatrix.runner.cli;

import dev.loommatrix.core.compare.MarkdownReport;
import dev.loommatrix.core.matrix.Matrix;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.runner.ab.AbPlan;
import dev.loommatrix.runner.ab.AbRun;
import dev.loommatrix.runner.ab.HostRuns;
import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.ContainerEngine;
import dev.loommatrix.runner.run.CellPlacement;
import dev.loommatrix.runner.run.MatrixRun;
import dev.loommatrix.runner.run.NewRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
        name = "ab",
        description = "Measure a baseline and a candidate in the same cells on this machine in one run, interleaved"
                + " (pairs of blocks in balanced random order, a fresh JVM each), compare them pair by pair, and"
                + " measure flagged changes again before calling them. The sides differ by their matrix file"
                + " (another build of your artifacts, another JDK entry) and/or their harness jar; the same on both"
                + " sides is an A/A run. Exit 4 on a confirmed regression, 3 when cells failed, 5 with"
                + " --require-verdict when a comparison is inconclusive.")
final class AbCommand implements Callable<Integer> {

    @Mixin
    MatrixOptions options;

    @Option(
            names = "--baseline-matrix",
            paramLabel = "FILE",
            description = "The baseline's matrix file, e.g. in a checkout of the merge base with its artifacts built"
                    + " (default: --matrix, for a harness or A/A comparison). Its paths are relative to it.")
    Path baselineMatrix;

    @Option(
            names = "--baseline-harness",
            paramLabel = "JAR",
            description = "Another build of the harness for the baseline (this repository's own pull requests).")
    Path baselineHarness;

    @Option(
            names = "--candidate-harness",
            paramLabel = "JAR",
            description = "Another build of the harness for the candidate (default: this runner's).")
    Path candidateHarness;

    @Option(
            names = "--baseline-label",
            defaultValue = "baseline",
            paramLabel = "TEXT",
            description = "What the baseline side is called in the report, e.g. a commit (default: baseline).")
    String baselineLabel;

    @Option(
            names = "--candidate-label",
            defaultValue = "candidate",
            paramLabel = "TEXT",
            description = "What the candidate side is called in the report (default: candidate).")
    String candidateLabel;

    @Option(
            names = "--blocks",
            paramLabel = "N",
            description = "Block pairs per cell in the first pass (default: the cells' repetitions, at least 6, for"
                    + " a cell whose forks measure iterations (the nested t); for any other, the first look at which"
                    + " the signed-rank test can find one change among this many comparisons, 2 / 2^N ≤ alpha / looks"
                    + " / comparisons). Fewer than a cell's test needs are measured as asked, with a warning.")
    Integer blocks;

    @Option(
            names = "--budget",
            paramLabel = "DURATION",
            description = "Time for the whole A/B, e.g. 10m: after the first pass, the cells of undecided comparisons"
                    + " get more pairs at each planned look while it lasts (default: no later looks).")
    String budget;

    @Option(
            names = "--max-pairs",
            paramLabel = "N",
            description = "The last look's pairs per cell (default: 40 with --budget, else the first pass: one"
                    + " look). The looks between grow by half each; alpha is spent evenly over them. Not given, the"
                    + " budget's last look takes every pair it affords, up to " + BUDGET_PAIRS + " (a cheap cell).")
    Integer maxPairs;

    /**
     * The most pairs a cell gets when the budget affords them and {@code --max-pairs} is not given: a program that
     * takes 3 s a pair had 40 pairs in 2 of a budget's 10 minutes, its change detectable to 6 %, the rest unspent.
     */
    static final int BUDGET_PAIRS = 400;

    @Option(
            names = "--require-verdict",
            description = "Exit 5 when any comparison is still inconclusive at the end (a check that decided nothing"
                    + " fails instead of passing).")
    boolean requireVerdict;

    @Option(
            names = "--no-wait",
            description = "Exit (code 6) instead of waiting when another run is measuring on this host or Docker"
                    + " engine (one measurement per machine).")
    boolean noWait;

    @Option(
            names = "--on-disturbed",
            paramLabel = "flag|rerun|fail",
            defaultValue = "rerun",
            description = "A block measured beside other work (from 0.25 CPUs of it on average): rerun it (at most "
                    + MatrixRun.RERUNS + " more times, while it stays disturbed; the default: one disturbed block"
                    + " of a pair can move a comparison by more than the change it looks for); flag it, its samples"
                    + " kept and its side marked disturbed; or fail it (its cell fails: exit 3).")
    String onDisturbed;

    @Option(
            names = "--confirm",
            paramLabel = "N",
            description = "More block pairs for each cell with a flagged change before it counts (default: as many"
                    + " as --blocks; 0: no confirmation).")
    Integer confirm;

    @Option(
            names = "--threshold",
            defaultValue = "10",
            paramLabel = "PCT",
            description = "The smallest change that counts, in percent (default: 10).")
    double thresholdPercent;

    @Option(
            names = "--alpha",
            defaultValue = "0.05",
            paramLabel = "P",
            description = "False discovery rate for Benjamini–Hochberg (default: 0.05).")
    double alpha;

    @Option(
            names = "--pairing",
            defaultValue = "lockstep",
            paramLabel = "lockstep|back-to-back",
            description = "How a cell's block pairs are measured: both at once in lockstep (the default), their forks"
                    + " taking turns one iteration at a time, each turn begun on one CPU, so that the machine's drift"
                    + " falls out of each pair (the harness's iterated workloads on a Linux host whose Docker engine"
                    + " is on it; other cells stay back to back, and compare.json says per cell why); or one side's"
                    + " block, then the other's.")
    String pairing;

    @Option(names = "--backend", defaultValue = "auto", description = "auto, docker or local (as for run).")
    String backend;

    @Option(names = "--cell", paramLabel = "CELL_ID", description = "Only this cell (repeatable).")
    List<String> onlyCells = new ArrayList<>();

    @Option(
            names = "--out",
            paramLabel = "DIR",
            description = "The A/B run's directory (default: results/ab-<run-id>).")
    Path out;

    @Option(
            names = "--format",
            defaultValue = "markdown",
            paramLabel = "markdown|json",
            description = "How the verdict is printed (it is also written to compare.md and compare.json).")
    String format;

    @picocli.CommandLine.ParentCommand
    LoomMatrix parent;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        MatrixRun.BackendChoice choice = Measuring.backendChoice(backend);
        MatrixRun.OnDisturbed disturbedPolicy = Measuring.disturbedPolicy(onDisturbed);
        checkOptions();
        AbInputs.Plans plans = AbInputs.plans(options, baselineMatrix, onlyCells);
        Optional<java.time.Duration> timeBudget = budget == null ? Optional.empty() : Optional.of(duration(budget));

        String runId = "ab-" + NewRun.id();
        Path root = out != null ? out : Path.of("results", runId);
        if (Files.exists(root.resolve("run.json"))) {
            throw new LoomMatrix.UsageException(root + " already holds a run; use another --out");
        }

        AbInputs.Engines engines = AbInputs.engines(
                choice, baselineHarness, candidateHarness, spec.commandLine().getErr());
        // with --format json, standard output is the verdict alone (a script parses it): the progress goes to stderr
        var console = format.equals("json") ? parent.err() : parent.out();
        Measured measured;
        // one measurement per machine, both sides' engines (one engine, or two connections to it); the budget's
        // clock starts once the lock is held. The plan is made holding it: which cells this host runs is asked of
        // the backends as a run asks (a container cell's image may be built), and the budget is planned around them
        try (var lock = Measuring.measurementLock(
                engines.candidateDocker().or(engines::baselineDocker).map(ContainerEngine::engineId),
                runId,
                "ab",
                noWait,
                spec.commandLine().getErr())) {
            measured = measure(plans, engines, choice, disturbedPolicy, timeBudget, runId, root, console);
        }
        return verdict(measured, root, console, parent.out());
    }

    /** What the A/B run ended with, and the hook that stops it on a signal (removed once it has a verdict). */
    private record Measured(AbRun.Outcome outcome, Thread onSignal) {}

    /** Plans the run around the cells this host runs, says the plan, and measures it. */
    private Measured measure(
            AbInputs.Plans plans,
            AbInputs.Engines engines,
            MatrixRun.BackendChoice choice,
            MatrixRun.OnDisturbed disturbedPolicy,
            Optional<java.time.Duration> timeBudget,
            String runId,
            Path root,
            java.io.PrintStream console)
            throws Exception {
        HostRuns here = new HostRuns(
                CellPlacement.notRunHere(
                        plans.baselineCells(), choice, engines.baselineDocker(), engines.baselineLocal()),
                CellPlacement.notRunHere(
                        plans.candidateCells(), choice, engines.candidateDocker(), engines.candidateLocal()));
        AbPlan.Ask ask = ask(timeBudget);
        AbPlan layout = AbPlan.of(plans.candidateCells(), ask, here);
        int extra = confirm != null ? confirm : layout.plan().firstPass();
        // the candidate's manifest first, as it always was
        AbRun.Side candidate = side(
                candidateLabel,
                options.matrix,
                plans.candidate(),
                layout.measured(plans.candidateCells()),
                runId,
                engines.candidateDocker(),
                engines.candidateLocal(),
                candidateHarness);
        AbRun.Side baseline = side(
                baselineLabel,
                plans.baseFile(),
                plans.baseline(),
                layout.measured(plans.baselineCells()),
                runId + "-baseline",
                engines.baselineDocker(),
                engines.baselineLocal(),
                baselineHarness);
        layout.announce(console, candidate.cells(), runId, extra, root, ask);
        AbRun run = new AbRun(
                root,
                console,
                new AbRun.Settings(
                        layout.plan(),
                        layout.firstPasses(),
                        extra,
                        thresholdPercent / 100,
                        timeBudget,
                        choice,
                        layout.notMeasured(),
                        disturbedPolicy,
                        maxPairs != null ? maxPairs : BUDGET_PAIRS,
                        pairing()));
        Thread onSignal = new Thread(() -> run.stop(java.time.Duration.ofSeconds(30)), "loom-matrix-ab-stop");
        Runtime.getRuntime().addShutdownHook(onSignal);
        return new Measured(run.run(baseline, candidate), onSignal);
    }

    /** One side: its cells, a new run's manifest of them, its engines and harness. */
    private AbRun.Side side(
            String label,
            Path matrixFile,
            Matrix matrix,
            List<Cell> cells,
            String runId,
            Optional<ContainerEngine> docker,
            Backend local,
            Path harness)
            throws Exception {
        RunManifest manifest = NewRun.manifest(
                runId, matrixFile, matrix.id(), Optional.ofNullable(options.profile), Optional.empty(), cells);
        return new AbRun.Side(label, cells, manifest, docker, local, Optional.ofNullable(harness));
    }

    /** The verdict printed, and the exit code; interrupted, no verdict. */
    private int verdict(Measured measured, Path root, java.io.PrintStream console, java.io.PrintStream out)
            throws Exception {
        AbRun.Outcome outcome = measured.outcome();
        if (outcome.stopped()) {
            console.printf("interrupted: no verdict; the blocks measured are kept in %s%n", root);
            return ExitCode.INTERNAL_ERROR.code;
        }
        Runtime.getRuntime().removeShutdownHook(measured.onSignal());
        console.flush();
        if (format.equals("json")) {
            out.print(Json.MAPPER.writeValueAsString(outcome.report()) + "\n");
        } else {
            out.println();
            out.print(MarkdownReport.render(outcome.report()));
        }
        out.flush();
        return exitCode(outcome);
    }

    /** The options' own mistakes, before any file is read. */
    private void checkOptions() {
        if (!format.equals("markdown") && !format.equals("json")) {
            throw new LoomMatrix.UsageException("--format must be markdown or json, got '" + format + "'");
        }
        pairing();
        if (thresholdPercent < 0 || !(alpha > 0 && alpha < 1)) {
            throw new LoomMatrix.UsageException("--threshold must be ≥ 0 and --alpha between 0 and 1");
        }
        for (Path jar : new Path[] {baselineHarness, candidateHarness}) {
            if (jar != null && !Files.isRegularFile(jar)) {
                throw new LoomMatrix.UsageException("no harness jar at " + jar.toAbsolutePath());
            }
        }
        if (blocks != null && blocks < 2 || confirm != null && confirm < 0 || maxPairs != null && maxPairs < 2) {
            throw new LoomMatrix.UsageException("--blocks and --max-pairs must be at least 2 and --confirm at least 0");
        }
    }

    /** What the options ask of the plan. */
    AbPlan.Ask ask(Optional<java.time.Duration> timeBudget) {
        return new AbPlan.Ask(
                Optional.ofNullable(blocks),
                Optional.ofNullable(maxPairs),
                alpha,
                timeBudget,
                budget,
                baselineLabel,
                candidateLabel);
    }

    AbRun.Pairing pairing() {
        return switch (pairing) {
            case "back-to-back" -> AbRun.Pairing.BACK_TO_BACK;
            case "lockstep" -> AbRun.Pairing.LOCKSTEP;
            default ->
                throw new LoomMatrix.UsageException(
                        "--pairing must be back-to-back or lockstep, not '" + pairing + "'");
        };
    }

    /** A confirmed regression first, then failed cells, then (asked for) a comparison left without a verdict. */
    private int exitCode(AbRun.Outcome outcome) {
        if (outcome.report().regressions() > 0) {
            return ExitCode.REGRESSION.code;
        }
        if (outcome.failedCells() > 0) {
            return ExitCode.CELLS_FAILED.code;
        }
        return requireVerdict && CompareCommand.anyInconclusive(outcome.report())
                ? ExitCode.NO_VERDICT.code
                : ExitCode.OK.code;
    }

    /** The longest budget: a week, as a cell's timeout (GitHub's self-hosted jobs end after 5 days). */
    static final java.time.Duration MAX_BUDGET = java.time.Duration.ofDays(7);

    /** "10m", "90s", "1h": a positive duration of at most a week, else the user's mistake. */
    static java.time.Duration duration(String text) {
        java.util.OptionalLong millis = dev.loommatrix.core.matrix.Durations.millis(text);
        if (millis.isEmpty()) {
            throw new LoomMatrix.UsageException("--budget '" + text
                    + "' is not a duration: write a positive number with a unit, e.g. "
                    + dev.loommatrix.core.matrix.Durations.EXAMPLES);
        }
        if (millis.getAsLong() > MAX_BUDGET.toMillis()) {
            throw new LoomMatrix.UsageException(
                    "--budget '" + text + "' is too long: at most 7 days (168h); 10m suits a pull request");
        }
        return java.time.Duration.ofMillis(millis.getAsLong());
    }
}
