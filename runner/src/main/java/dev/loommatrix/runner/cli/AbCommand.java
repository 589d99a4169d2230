package dev.loommatrix.runner.cli;

import dev.loommatrix.core.compare.MarkdownReport;
import dev.loommatrix.core.compare.SequentialPlan;
import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.ClassFileCheck;
import dev.loommatrix.core.plan.Planner;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.stats.NestedPaired;
import dev.loommatrix.runner.ab.AbRun;
import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.ContainerEngine;
import dev.loommatrix.runner.backend.container.ContainerBackend;
import dev.loommatrix.runner.backend.local.JdkLocator;
import dev.loommatrix.runner.backend.local.LocalBackend;
import dev.loommatrix.runner.run.MatrixRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
        MatrixRun.BackendChoice choice = RunCommand.backendChoice(backend);
        MatrixRun.OnDisturbed disturbedPolicy = RunCommand.disturbedPolicy(onDisturbed);
        checkOptions();
        Path baseFile = baselineMatrix != null ? baselineMatrix : options.matrix;
        if (!Files.isRegularFile(baseFile)) {
            throw new LoomMatrix.UsageException("no baseline matrix file at " + baseFile.toAbsolutePath());
        }
        Optional<String> profile = Optional.ofNullable(options.profile);
        var candidateMatrix = options.load();
        var baselineMatrix = MatrixParser.parse(baseFile, profile);
        List<Cell> planned = RunCommand.only(ClassFileCheck.check(Planner.plan(candidateMatrix)), onlyCells);
        List<Cell> baselinePlanned = ClassFileCheck.check(Planner.plan(baselineMatrix)).stream()
                .filter(c -> onlyCells.isEmpty() || onlyCells.contains(c.id()))
                .toList();
        Optional<java.time.Duration> timeBudget = budget == null ? Optional.empty() : Optional.of(duration(budget));

        String runId = "ab-" + RunCommand.newRunId();
        Path root = out != null ? out : Path.of("results", runId);
        if (Files.exists(root.resolve("run.json"))) {
            throw new LoomMatrix.UsageException(root + " already holds a run; use another --out");
        }

        Optional<ContainerEngine> baselineDocker = choice == MatrixRun.BackendChoice.LOCAL
                ? Optional.empty()
                : ContainerBackend.connect(Optional.ofNullable(baselineHarness)).map(ContainerEngine.class::cast);
        Optional<ContainerEngine> candidateDocker = choice == MatrixRun.BackendChoice.LOCAL
                ? Optional.empty()
                : ContainerBackend.connect(Optional.ofNullable(candidateHarness))
                        .map(ContainerEngine.class::cast);
        if (candidateDocker.isEmpty() && choice == MatrixRun.BackendChoice.DOCKER) {
            throw new LoomMatrix.UsageException(
                    "--backend docker, but no Docker engine answers (start dockerd or set DOCKER_HOST)");
        }
        if (candidateDocker.isEmpty() && choice == MatrixRun.BackendChoice.AUTO) {
            spec.commandLine()
                    .getErr()
                    .println("note: no Docker engine answers; linux cells run on the local backend with this host's"
                            + " JDKs");
        }
        Backend baselineLocal = new LocalBackend(JdkLocator.forHost(), Optional.ofNullable(baselineHarness));
        Backend candidateLocal = new LocalBackend(JdkLocator.forHost(), Optional.ofNullable(candidateHarness));
        var console = parent.out();
        AbRun.Outcome outcome;
        Thread onSignal;
        // one measurement per machine, both sides' engines (one engine, or two connections to it); the budget's
        // clock starts once the lock is held. The plan is made holding it: which cells this host runs is asked of
        // the backends as a run asks (a container cell's image may be built), and the budget is planned around them
        try (var lock = RunCommand.measurementLock(
                candidateDocker.or(() -> baselineDocker).map(ContainerEngine::engineId),
                runId,
                "ab",
                noWait,
                spec.commandLine().getErr())) {
            HostRuns here = new HostRuns(
                    MatrixRun.notRunHere(baselinePlanned, choice, baselineDocker, baselineLocal),
                    MatrixRun.notRunHere(planned, choice, candidateDocker, candidateLocal));
            RunLayout layout = layout(planned, timeBudget, here);
            List<Cell> candidateCells = layout.measured(planned);
            List<Cell> baselineCells = layout.measured(baselinePlanned);
            int extra = confirm != null ? confirm : layout.plan().firstPass();
            RunManifest candidateManifest = RunCommand.newManifest(
                    runId, options.matrix, candidateMatrix.id(), profile, Optional.empty(), candidateCells);
            RunManifest baselineManifest = RunCommand.newManifest(
                    runId + "-baseline", baseFile, baselineMatrix.id(), profile, Optional.empty(), baselineCells);
            AbRun.Side baseline = new AbRun.Side(
                    baselineLabel,
                    baselineCells,
                    baselineManifest,
                    baselineDocker,
                    baselineLocal,
                    Optional.ofNullable(baselineHarness));
            AbRun.Side candidate = new AbRun.Side(
                    candidateLabel,
                    candidateCells,
                    candidateManifest,
                    candidateDocker,
                    candidateLocal,
                    Optional.ofNullable(candidateHarness));
            announce(console, layout, candidateCells, runId, extra, root, timeBudget);
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
            onSignal = new Thread(() -> run.stop(java.time.Duration.ofSeconds(30)), "loom-matrix-ab-stop");
            Runtime.getRuntime().addShutdownHook(onSignal);
            outcome = run.run(baseline, candidate);
        }
        if (outcome.stopped()) {
            console.printf("interrupted: no verdict; the blocks measured are kept in %s%n", root);
            return ExitCode.INTERNAL_ERROR.code;
        }
        Runtime.getRuntime().removeShutdownHook(onSignal);
        console.println();
        console.print(
                format.equals("json")
                        ? Json.MAPPER.writeValueAsString(outcome.report()) + "\n"
                        : MarkdownReport.render(outcome.report()));
        console.flush();
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

    /**
     * What the run will measure, settled before it starts: how many comparisons there will be (each cell's
     * variants, times a JMH suite's benchmarks, of the cells this host runs on both sides), the looks, each cell's
     * first pass and its estimated time here, the cells this host will not run (skipped in no time, each with why),
     * the cells the budget leaves out, and the cells whose first pass is too short for their test to say anything.
     */
    record RunLayout(
            SequentialPlan plan,
            long comparisons,
            Map<String, Integer> firstPasses,
            Map<String, Double> firstPassMs,
            Map<String, String> notRun,
            Map<String, String> notMeasured,
            List<Cell> cannotSpeak) {

        /** The cells the budget leaves in (a cell this host will not run among them: the run records it skipped). */
        List<Cell> measured(List<Cell> cells) {
            return cells.stream().filter(c -> !notMeasured.containsKey(c.id())).toList();
        }

        /** The longest first pass asked for beyond the plan's (a cell the signed-rank test judges), else the plan's. */
        int longestFirstPass() {
            return firstPasses.entrySet().stream()
                    .filter(e -> !notRun.containsKey(e.getKey()))
                    .mapToInt(Map.Entry::getValue)
                    .filter(p -> p > plan.firstPass())
                    .max()
                    .orElse(plan.firstPass());
        }
    }

    /**
     * The cells this host will not run, of each side, each with why ({@link MatrixRun#notRunHere}): a side it skips
     * takes no time, and a cell with a side skipped has no comparison.
     */
    record HostRuns(Map<String, String> baseline, Map<String, String> candidate) {
        static final HostRuns EVERY_CELL = new HostRuns(Map.of(), Map.of());

        HostRuns {
            baseline = Map.copyOf(baseline);
            candidate = Map.copyOf(candidate);
        }

        /** How many of a cell's two sides this host runs. */
        int sidesRun(Cell cell) {
            return (baseline.containsKey(cell.id()) ? 0 : 1) + (candidate.containsKey(cell.id()) ? 0 : 1);
        }

        /** Why a cell is not run here, if a side of it is not: one side's reason names the side. */
        Optional<String> whyNotRun(Cell cell, String baselineLabel, String candidateLabel) {
            return AbRun.notRunWhy(
                    baselineLabel,
                    Optional.ofNullable(baseline.get(cell.id())),
                    candidateLabel,
                    Optional.ofNullable(candidate.get(cell.id())));
        }
    }

    /**
     * The run's layout: each cell's first pass is the first look at which its test can find one change among the
     * comparisons — the nested t where its forks measure iterations, else the signed-rank test (more pairs); with
     * a budget, the cells whose first pass would not fit after the others' are left out, each said. A cell this
     * host will not run costs the budget nothing (it is skipped in no time) and is never left out for it.
     */
    RunLayout layout(List<Cell> planned, Optional<java.time.Duration> timeBudget, HostRuns here) {
        Map<String, String> notRun = new LinkedHashMap<>();
        for (Cell cell : planned) {
            here.whyNotRun(cell, baselineLabel, candidateLabel).ifPresent(why -> notRun.put(cell.id(), why));
        }
        // the cells that will give comparisons: both sides run here
        List<Cell> compared =
                planned.stream().filter(c -> !notRun.containsKey(c.id())).toList();
        long comparisons = Math.max(
                1, compared.stream().mapToLong(AbCommand::comparisonsOf).sum());
        int repetitions =
                Math.max(6, compared.stream().mapToInt(Cell::repetitions).max().orElse(6));
        int first = blocks != null ? blocks : repetitions;
        int last = maxPairs != null ? maxPairs : timeBudget.isPresent() ? 40 : 0;
        SequentialPlan plan = SequentialPlan.of(first, Math.max(first, last), alpha);
        Map<String, Integer> firstPasses = firstPasses(planned, plan, Optional.ofNullable(blocks), comparisons);
        // a pair's cost is both sides'; a side this host skips costs nothing
        Map<String, Double> firstPassMs = new LinkedHashMap<>();
        planned.forEach(c -> firstPassMs.put(c.id(), pairMs(c) * firstPasses.get(c.id()) * here.sidesRun(c) / 2));
        Map<String, String> notMeasured = timeBudget
                .map(b -> outOfBudget(planned, firstPasses, firstPassMs, b, budget))
                .orElse(Map.of());
        List<Cell> cannotSpeak = compared.stream()
                .filter(c -> !notMeasured.containsKey(c.id()))
                .filter(c -> firstPasses.get(c.id()) < plan.pairsNeeded(nestedPlanned(c), comparisons))
                .toList();
        return new RunLayout(plan, comparisons, firstPasses, firstPassMs, notRun, notMeasured, cannotSpeak);
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

    /**
     * Said before measuring: the pairs and looks, a first pass too short for a cell's test to find anything (the
     * knob is --blocks), the cells this host will not run, the cells the budget leaves out, and a first pass
     * estimated beyond the budget.
     */
    void announce(
            java.io.PrintStream console,
            RunLayout layout,
            List<Cell> cells,
            String runId,
            int extra,
            Path root,
            Optional<java.time.Duration> timeBudget) {
        SequentialPlan plan = layout.plan();
        // the cells this host runs: those the counts below speak of
        long runs =
                cells.stream().filter(c -> !layout.notRun().containsKey(c.id())).count();
        int pairs = plan.firstPass();
        int signedRankPass = layout.longestFirstPass();
        long comparisons = layout.comparisons();
        console.printf(
                "A/B run %s: %s against %s, %d pairs per cell%s (+%d to confirm a flagged change) → %s%n",
                runId,
                candidateLabel,
                baselineLabel,
                pairs,
                signedRankPass > pairs
                        ? " (" + signedRankPass
                                + " for a cell whose forks measure no iterations: the signed-rank test needs them)"
                        : "",
                extra,
                root);
        console.printf(
                "plan: about %d comparisons; %s%n",
                comparisons,
                plan.looks().size() == 1
                        ? "one look at alpha " + alpha
                        : "looks at " + plan.looks() + " pairs, each at alpha " + alpha + " / "
                                + plan.looks().size()
                                + " (a group-sequential design: the false-alarm rate stays " + alpha + ")"
                                + timeBudget
                                        .map(b -> ", within " + budget
                                                + "; the last look the budget affords takes every pair it can and"
                                                + " tests at all the alpha left")
                                        .orElse(""));
        if (!layout.cannotSpeak().isEmpty()) {
            int needed = layout.cannotSpeak().stream()
                    .mapToInt(c -> plan.pairsNeeded(nestedPlanned(c), comparisons))
                    .max()
                    .orElse(pairs);
            console.printf(
                    "warning: with %d pairs, %d of %d cells cannot show a change among %d comparisons (%s): they would"
                            + " be inconclusive; --blocks %d, or fewer comparisons (--cell)%n",
                    pairs,
                    layout.cannotSpeak().size(),
                    runs,
                    comparisons,
                    layout.cannotSpeak().stream().allMatch(AbCommand::nestedPlanned)
                            ? "the nested t needs " + NestedPaired.MIN_PAIRS + " pairs"
                            : String.format(
                                    java.util.Locale.ROOT,
                                    "a cell whose forks measure fewer than %d iterations is judged by the signed-rank"
                                            + " test, which needs 2 / 2^N ≤ %.3g, N ≥ %d",
                                    NestedPaired.MIN_ITERATIONS,
                                    plan.levelPerLook() / comparisons,
                                    SequentialPlan.pairsNeeded(plan.levelPerLook(), comparisons)),
                    needed);
        }
        layout.notRun().forEach((cell, why) -> console.printf("not run on this host: %s: %s%n", cell, why));
        layout.notMeasured().forEach((cell, why) -> console.printf("budget: not measured: %s: %s%n", cell, why));
        if (timeBudget.isPresent()) {
            // the first pass is always measured (without it nothing can be decided): said when it alone would
            // take longer than the budget, by the cost model's estimate (a pair: both sides' cell once, a side this
            // host skips in no time)
            double firstPassMs = cells.stream()
                    .mapToDouble(c -> layout.firstPassMs().get(c.id()))
                    .sum();
            if (firstPassMs > timeBudget.get().toMillis()) {
                console.printf(
                        "warning: the first pass (%s of %d cells) is estimated at %s, beyond the %s budget: it"
                                + " runs anyway, and no later look fits; fewer cells (--cell) or a longer --budget%n",
                        signedRankPass > pairs ? pairs + "–" + signedRankPass + " pairs" : pairs + " pairs",
                        runs,
                        AbRun.formatDuration((long) firstPassMs),
                        budget);
            }
        }
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

    /**
     * Each cell's first pass: the first look at which its test can find one change among {@code comparisons}, or
     * {@code --blocks} as asked.
     */
    static Map<String, Integer> firstPasses(
            List<Cell> cells, SequentialPlan plan, Optional<Integer> blocks, long comparisons) {
        Map<String, Integer> firstPasses = new LinkedHashMap<>();
        for (Cell cell : cells) {
            firstPasses.put(cell.id(), blocks.orElseGet(() -> plan.firstPass(nestedPlanned(cell), comparisons)));
        }
        return firstPasses;
    }

    /** A pair of blocks of a cell by the cost model: both sides, one repetition per variant. */
    static double pairMs(Cell cell) {
        return 2
                * dev.loommatrix.core.plan.CostModel.estimateMs(cell)
                / Math.max(1, cell.repetitions() + cell.warmup());
    }

    /**
     * The cells a time budget leaves out, each with why: the first passes are taken cheapest first — cells judged
     * by the nested t first (they decide from fewer pairs), then by their first pass's estimated time — while
     * they fit; a cell whose first pass would not fit after them is not measured (its comparisons would have no
     * verdict anyway, after the budget was spent). The first cell is always measured. A cell whose first pass costs
     * nothing here ({@code firstPassMs}: this host skips both its sides) is never left out.
     */
    static Map<String, String> outOfBudget(
            List<Cell> cells,
            Map<String, Integer> firstPasses,
            Map<String, Double> firstPassMs,
            java.time.Duration budget,
            String budgetText) {
        List<Cell> order = cells.stream()
                // a cell this host will not run takes no time: nothing to fit
                .filter(c -> firstPassMs.get(c.id()) > 0)
                .sorted(java.util.Comparator.comparing((Cell c) -> !nestedPlanned(c))
                        .thenComparingDouble(c -> firstPassMs.get(c.id())))
                .toList();
        double spent = 0;
        Map<String, String> out = new LinkedHashMap<>();
        for (Cell cell : order) {
            double ms = firstPassMs.get(cell.id());
            if (spent > 0 && spent + ms > budget.toMillis()) {
                out.put(
                        cell.id(),
                        String.format(
                                java.util.Locale.ROOT,
                                "its first pass (%d pairs, about %s%s) does not fit the %s budget after the other"
                                        + " cells' (about %s); --budget %dm measures it",
                                firstPasses.get(cell.id()),
                                AbRun.formatDuration((long) ms),
                                nestedPlanned(cell) ? "" : ": one value a fork, so the signed-rank test's count",
                                budgetText,
                                AbRun.formatDuration((long) spent),
                                (long) Math.ceil((spent + ms) / 60_000 * 1.2)));
            } else {
                spent += ms;
            }
        }
        return out;
    }

    /** Whether a cell's comparisons are planned for the nested t: every fork measures enough iterations. */
    static boolean nestedPlanned(Cell cell) {
        return cell.measuredIterationsPerFork() >= NestedPaired.MIN_ITERATIONS;
    }

    /** The comparisons a cell will give: one per variant, and per benchmark of a JMH suite. */
    static long comparisonsOf(Cell cell) {
        long benchmarks = cell.workload()
                .user()
                .map(u -> u.artifact() instanceof dev.loommatrix.core.matrix.UserWorkload.Jmh jmh
                        ? Math.max(1, jmh.benchmarks().size())
                        : 1)
                .orElse(1);
        return cell.workload().variants().size() * benchmarks;
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
