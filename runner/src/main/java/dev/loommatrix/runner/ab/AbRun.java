package dev.loommatrix.runner.ab;

import dev.loommatrix.core.compare.CompareReport;
import dev.loommatrix.core.compare.Comparer;
import dev.loommatrix.core.compare.SequentialPlan;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.result.RunStatus;
import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.ContainerEngine;
import dev.loommatrix.runner.run.CellPlacement;
import dev.loommatrix.runner.run.CellRecorder;
import dev.loommatrix.runner.run.MatrixRun;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * An A/B run: a baseline and a candidate measured in the same cells, on this machine, in one run. Per cell,
 * the two sides alternate in <em>blocks</em> — each block one side's cell with one repetition per
 * variant, fresh JVMs — in pairs ordered AB or BA, half of each, shuffled (reproducibly per run and cell).
 * Block k of the baseline and block k of the candidate ran back to back, so whatever the machine was doing
 * then (a neighbour, a frequency phase) touched both, and compare pairs them.
 *
 * <p>The run's lifecycle: the first pass of every cell, the looks after it ({@link LookScheduler} decides them),
 * the confirmation of the changes flagged, the report ({@link AbReport}). How a pair is measured is
 * {@link PairMeasurer}'s; how a side's blocks become its record, {@link BlockMerge}'s.
 *
 * <p>Layout: the candidate's run is the directory itself ({@code run.json}, {@code cells/}), the
 * baseline's is {@code baseline/} — two ordinary run directories that every other command reads — each
 * block's own run under {@code blocks/<cell>/<pair>-<side>/}, and the verdict in {@code compare.json} and
 * {@code compare.md}.
 */
public final class AbRun {

    /**
     * One side: how its cells are named in reports, what it plans, and the backends that run it (they carry
     * the side's harness).
     */
    public record Side(
            String label,
            List<Cell> cells,
            RunManifest manifest,
            Optional<? extends ContainerEngine> docker,
            Backend local,
            Optional<Path> harness) {}

    /**
     * How many pairs, and the statistics' settings: the sequential plan (one look is the fixed design), each
     * cell's first pass (the first look at which its test can say anything; absent cells: the plan's first
     * look), the pairs that confirm a flagged change, the threshold, the time budget for the looks after the
     * first pass, and the cells the budget left out (not among the sides' cells), each with why.
     *
     * @param budgetPairs the most pairs a cell may get when the budget affords them: the budget's last look may go
     *     past the plan's last up to here ({@code --max-pairs} given: the plan's last)
     */
    public record Settings(
            SequentialPlan plan,
            Map<String, Integer> firstPasses,
            int confirmBlocks,
            double threshold,
            Optional<Duration> budget,
            MatrixRun.BackendChoice choice,
            Map<String, String> notMeasured,
            MatrixRun.OnDisturbed onDisturbed,
            int budgetPairs,
            Pairing pairing) {

        public Settings {
            firstPasses = Map.copyOf(firstPasses);
            notMeasured = Map.copyOf(notMeasured);
            budgetPairs = Math.max(budgetPairs, plan.maxPairs());
        }

        /** The most pairs the last look may take: past the plan's last only with a budget to afford them. */
        int lastLookPairs() {
            return budget.isPresent() ? budgetPairs : plan.maxPairs();
        }

        /** The plan's first look: the first pass of a cell whose test can speak at it. */
        public int blocks() {
            return plan.firstPass();
        }

        public int firstPass(String cellId) {
            return firstPasses.getOrDefault(cellId, plan.firstPass());
        }

        public double alpha() {
            return plan.alpha();
        }
    }

    /**
     * How a cell's block pairs are measured: one side's block, then the other's (in a balanced random order), or
     * both at once in lockstep ({@link Lockstep}, issue #30), where the cell allows it.
     */
    public enum Pairing {
        BACK_TO_BACK,
        LOCKSTEP
    }

    /** What the run ended with. */
    public record Outcome(CompareReport report, int failedCells, boolean stopped) {}

    private final Path root;
    private final PrintStream out;
    private final Settings settings;
    private final Blocks blocks;
    /** The level the latest look tested at (the report says it). */
    private double lastLevel = Double.NaN;

    /**
     * What the budget's time is read from: the system's, or a test's scripted clock (the looks, the budget's last
     * look and the time recorded are decided by it).
     */
    private final Clock clock;

    public AbRun(Path root, PrintStream out, Settings settings) {
        this(root, out, settings, Clock.systemUTC());
    }

    public AbRun(Path root, PrintStream out, Settings settings, Clock clock) {
        this.root = root;
        this.out = out;
        this.settings = settings;
        this.clock = clock;
        this.blocks = new Blocks(root, settings, clock);
    }

    public RunDirectory candidateDir() {
        return new RunDirectory(root);
    }

    public RunDirectory baselineDir() {
        return new RunDirectory(root.resolve("baseline"));
    }

    /** Ctrl-C: stops the block now running; the run ends without a verdict. */
    public void stop(Duration wait) {
        blocks.stop(wait);
    }

    public Outcome run(Side baseline, Side candidate) throws IOException, InterruptedException {
        Pairings pairings = new Pairings(settings, blocks, baseline, candidate);
        AbSides.Matched matched =
                AbSides.match(baseline.cells(), candidate.cells(), baseline.harness(), candidate.harness());
        List<String> measured =
                matched.pairs().stream().map(p -> p.candidate().id()).toList();
        RunManifest candidateManifest = candidate.manifest().withCells(measured);
        RunManifest baselineManifest = baseline.manifest().withCells(measured);
        candidateDir().writeManifest(candidateManifest);
        baselineDir().writeManifest(baselineManifest);
        matched.notComparable().forEach(n -> out.printf("not comparable: %s (%s); not run%n", n.cellId(), n.reason()));
        CellPairs pairs = new CellPairs(blocks, pairings, baseline, candidate, matched, baselineDir(), candidateDir());
        double[] estimatedPairMs = estimatedPairMs(baseline, candidate, matched);
        Instant began = clock.instant();
        FirstPass first = firstPass(baseline, candidate, matched, pairs, estimatedPairMs, began);
        if (blocks.stopping()) {
            finish(candidateManifest, baselineManifest, RunStatus.INTERRUPTED);
            return new Outcome(null, first.failed(), true);
        }
        LookScheduler scheduler = new LookScheduler(settings, matched);
        Looks looks = Looks.take(
                settings,
                out,
                blocks,
                scheduler,
                pairs,
                first.pace(),
                level -> compare(baseline, candidate, level),
                began,
                clock);
        Set<String> remeasured = confirm(pairs, scheduler, first.pace(), looks.latest);
        if (blocks.stopping()) {
            finish(candidateManifest, baselineManifest, RunStatus.INTERRUPTED);
            return new Outcome(null, first.failed(), true);
        }
        CompareReport all = remeasured.isEmpty() ? looks.latest : compare(baseline, candidate, lastLevel);
        CompareReport report = AbReport.of(
                all,
                AbReport.verdicts(looks.latest, all, remeasured, settings.threshold(), settings.confirmBlocks()),
                settings,
                baseline,
                candidate,
                matched,
                List.copyOf(remeasured),
                new AbReport.Looks(
                        looks.look + 1,
                        looks.ended,
                        lastLevel,
                        Duration.between(began, clock.instant()).toSeconds(),
                        AbReport.pairsById(
                                matched, pairs.pairs(), first.notRun().keySet()),
                        looks.stopped,
                        first.notRun()),
                pairings.words(first.notRun().keySet()));
        AbReport.write(root, report);
        finish(candidateManifest, baselineManifest, RunStatus.FINISHED);
        return new Outcome(report, first.failed(), false);
    }

    /**
     * The first pass: each cell's first pairs, one cell after another. The cells' failures, the pace their pairs
     * kept, and the cells this host did not run (a side or both: skipped, as their records say), with why.
     */
    private record FirstPass(int failed, Pace pace, Map<String, String> notRun) {}

    private FirstPass firstPass(
            Side baseline,
            Side candidate,
            AbSides.Matched matched,
            CellPairs pairs,
            double[] estimatedPairMs,
            Instant began)
            throws IOException, InterruptedException {
        int total = matched.pairs().size();
        double estimatedAll = 0;
        for (int i = 0; i < total; i++) {
            estimatedAll += estimatedPairMs[i]
                    * settings.firstPass(matched.pairs().get(i).candidate().id());
        }
        double estimatedDone = 0;
        int failed = 0;
        // what each cell's pairs took: the looks are planned from it
        double[] fullMsPerPair = new double[total];
        Map<String, String> notRun = new TreeMap<>();
        for (int i = 0; i < total && !blocks.stopping(); i++) {
            String id = matched.pairs().get(i).candidate().id();
            int count = settings.firstPass(id);
            Instant started = clock.instant();
            failed += pairs.measure(i, count, null) ? 0 : 1;
            long spentMs = Duration.between(started, clock.instant()).toMillis();
            fullMsPerPair[i] = spentMs / (double) Math.max(1, count);
            estimatedDone += estimatedPairMs[i] * count;
            // a cell this host cannot run says so, not "6 pairs in 0 s"
            Optional<String> skipped = HostRuns.notRunWhy(
                    baseline.label(), skippedWhy(baselineDir(), id), candidate.label(), skippedWhy(candidateDir(), id));
            skipped.ifPresent(why -> notRun.put(id, why));
            out.printf(
                    "[%d/%d] %s: %s — ETA %s%n",
                    i + 1,
                    total,
                    id,
                    skipped.map(r -> "skipped (" + r + ")")
                            .orElse(count + " pairs in "
                                    + Duration.between(started, clock.instant()).toSeconds() + " s"),
                    CellRecorder.formatDuration(
                            remainingMs(began, clock.instant(), estimatedDone, estimatedAll - estimatedDone)));
        }
        return new FirstPass(failed, new Pace(matched, fullMsPerPair, pairs::candidateRecord), notRun);
    }

    /**
     * The ETA's unit: the cost model's estimate of a pair of blocks of each cell ({@link PairCost}; a side this host
     * skips takes no time), scaled by how its estimates fared so far (as run's).
     */
    private double[] estimatedPairMs(Side baseline, Side candidate, AbSides.Matched matched)
            throws InterruptedException {
        CellPlacement baselinePlacement = new CellPlacement(settings.choice(), baseline.docker(), baseline.local());
        CellPlacement candidatePlacement = new CellPlacement(settings.choice(), candidate.docker(), candidate.local());
        double[] perPair = new double[matched.pairs().size()];
        for (int i = 0; i < perPair.length; i++) {
            AbSides.Pair p = matched.pairs().get(i);
            perPair[i] = PairCost.pairMs(
                    p.baseline(),
                    baselinePlacement.expectsToRun(p.baseline()),
                    p.candidate(),
                    candidatePlacement.expectsToRun(p.candidate()));
        }
        return perPair;
    }

    /**
     * The confirmation: each cell with a flagged change gets {@code confirmBlocks} more pairs of its flagged variants
     * (at the pace its pairs kept). The cells measured again.
     */
    private Set<String> confirm(CellPairs pairs, LookScheduler scheduler, Pace pace, CompareReport latest)
            throws IOException, InterruptedException {
        Set<String> remeasured = new LinkedHashSet<>();
        if (settings.confirmBlocks() == 0) {
            return remeasured;
        }
        latest.comparisons().stream().filter(LookScheduler::isFlagged).forEach(c -> remeasured.add(c.cellId()));
        Map<Integer, List<String>> toConfirm = scheduler.toConfirm(latest.comparisons());
        if (!remeasured.isEmpty()) {
            out.printf(
                    "confirming %d cells (%d more pairs each) — ETA %s%n",
                    remeasured.size(), settings.confirmBlocks(), CellRecorder.formatDuration((long)
                            pace.confirmingMs(toConfirm, settings.confirmBlocks())));
        }
        int n = 0;
        for (var entry : toConfirm.entrySet()) {
            if (blocks.stopping()) {
                break;
            }
            out.printf(
                    "confirming [%d/%d] %s: %d more pairs%n",
                    ++n,
                    remeasured.size(),
                    pairs.pairOf(entry.getKey()).candidate().id(),
                    settings.confirmBlocks());
            pairs.measure(entry.getKey(), settings.confirmBlocks(), entry.getValue());
        }
        return remeasured;
    }

    /** What is left at the pace so far: the time taken per estimated ms, times the estimated ms left. */
    static long remainingMs(Instant began, double estimatedDone, double estimatedLeft) {
        return remainingMs(began, Instant.now(), estimatedDone, estimatedLeft);
    }

    static long remainingMs(Instant began, Instant now, double estimatedDone, double estimatedLeft) {
        if (estimatedDone <= 0) {
            return (long) estimatedLeft;
        }
        return (long) (Duration.between(began, now).toMillis() / estimatedDone * estimatedLeft);
    }

    private CompareReport compare(Side baseline, Side candidate, double level) throws IOException {
        lastLevel = level;
        return Comparer.compare(
                baseline.label(),
                baselineDir().readCells(),
                candidate.label(),
                candidateDir().readCells(),
                settings.threshold(),
                level);
    }

    /** Why a side's cell was skipped, if its record says it was. */
    private static Optional<String> skippedWhy(RunDirectory side, String cellId) throws IOException {
        return side.readCell(cellId)
                .filter(c -> c.status() == CellStatus.SKIPPED)
                .map(c -> c.reason().orElse("skipped"));
    }

    private void finish(RunManifest candidate, RunManifest baseline, RunStatus status) throws IOException {
        String now = clock.instant().toString();
        candidateDir().writeManifest(candidate.finish(now, status));
        baselineDir().writeManifest(baseline.finish(now, status));
    }
}
