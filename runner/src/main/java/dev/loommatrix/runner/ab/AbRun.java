package dev.loommatrix.runner.ab;

import dev.loommatrix.core.compare.CompareReport;
import dev.loommatrix.core.compare.Comparer;
import dev.loommatrix.core.compare.Comparison;
import dev.loommatrix.core.compare.MarkdownReport;
import dev.loommatrix.core.compare.SequentialPlan;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.EnvironmentRecord;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.result.RunStatus;
import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.ContainerEngine;
import dev.loommatrix.runner.backend.HarnessCommand;
import dev.loommatrix.runner.records.RawResults;
import dev.loommatrix.runner.run.CellPlacement;
import dev.loommatrix.runner.run.CellRecorder;
import dev.loommatrix.runner.run.MatrixRun;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

/**
 * An A/B run: a baseline and a candidate measured in the same cells, on this machine, in one run. Per cell,
 * the two sides alternate in <em>blocks</em> — each block one side's cell with one repetition per
 * variant, fresh JVMs — in pairs ordered AB or BA, half of each, shuffled (reproducibly per run and cell).
 * Block k of the baseline and block k of the candidate ran back to back, so whatever the machine was doing
 * then (a neighbour, a frequency phase) touched both, and compare pairs them.
 *
 * <p>Then compare; comparisons flagged in this first pass are <em>confirmed</em>: their cells get more
 * pairs and the change counts only when all the pairs together still say it.
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

    static final String METHOD = "group-sequential design, Bonferroni alpha spending over the looks (each look's"
            + " tests exact at its level — the nested t, or signed-rank; Benjamini–Hochberg across comparisons at"
            + " each look; the last look taken, the plan's or the last the budget affords, spends all the alpha left)";

    /** What the run ended with. */
    public record Outcome(CompareReport report, int failedCells, boolean stopped) {}

    private final Path root;
    private final PrintStream out;
    private final Settings settings;
    private volatile boolean stopping;
    /** Why the sides' own harnesses cannot take turns, if one cannot: their jars read once, as the run starts. */
    private Optional<String> harnessesWithoutTurns = Optional.empty();
    /** The blocks measuring now: one, or a lockstep pair's two. */
    private final List<MatrixRun> running = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** How each cell's pairs were measured, for the report ("cell id" → tally). */
    private final Map<String, PairingTally> pairing = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * How a cell's block pairs are measured: one side's block, then the other's (in a balanced random order), or
     * both at once in lockstep ({@link Lockstep}, issue #30), where the cell allows it.
     */
    public enum Pairing {
        BACK_TO_BACK,
        LOCKSTEP
    }

    /** What a cell's pairs were: how many of each way, the turns given alone, and why not lockstep when not. */
    public static final class PairingTally {
        public int lockstep;
        int backToBack;
        public long pairedTurns;
        long aloneTurns;
        /** Attempts of its pairs measured again (disturbed): their turns are in the counts, their forks' records not. */
        public int measuredAgain;

        String why;
        /** The forks' turns as their records count them, and how many began on the turns' CPU. */
        long turnsTaken;

        long turnsOnCpu;
        final java.util.SortedSet<Integer> cpus = new java.util.TreeSet<>();
        final java.util.SortedSet<String> cpuNotSet = new java.util.TreeSet<>();

        public String words() {
            if (lockstep == 0) {
                return "back to back" + (why == null ? "" : " (" + why + ")");
            }
            String words = "lockstep: " + pairs(lockstep) + ", " + pairedTurns + " turns in step"
                    + (aloneTurns == 0 ? "" : ", " + aloneTurns + " alone")
                    + (measuredAgain == 0
                            ? ""
                            : " (with " + measuredAgain + (measuredAgain == 1 ? " attempt" : " attempts")
                                    + " measured again, disturbed)")
                    + placement();
            return backToBack == 0 ? words : words + "; back to back: " + pairs(backToBack);
        }

        /** Where the turns began: ", 140 of 144 begun on CPU 0", and why not where forks could not say. */
        private String placement() {
            String on = cpus.isEmpty()
                    ? ""
                    : ", " + turnsOnCpu + " of " + (measuredAgain == 0 ? "" : "the kept forks' ") + turnsTaken
                            + " begun on CPU "
                            + cpus.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(" or "));
            return on + (cpuNotSet.isEmpty() ? "" : ", not on one CPU (" + String.join("; ", cpuNotSet) + ")");
        }

        /** Counts where a block's forks began their turns (their records' {@code turns}). */
        public void placed(List<RawResults.HarnessRecord> records) {
            for (RawResults.HarnessRecord record : records) {
                record.turns().ifPresent(t -> {
                    turnsTaken += t.taken();
                    t.cpu().ifPresent(cpus::add);
                    turnsOnCpu += t.beganOnCpu().orElse(0);
                    t.cpuNotSet().ifPresent(cpuNotSet::add);
                });
            }
        }

        private static String pairs(int n) {
            return n + (n == 1 ? " pair" : " pairs");
        }
    }

    /** {@link #candidateRecord}'s cache: a cell's entry goes when the cell is measured again. */
    private final Map<String, Optional<CellRecord>> candidateRecords = new java.util.HashMap<>();

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
    }

    public RunDirectory candidateDir() {
        return new RunDirectory(root);
    }

    public RunDirectory baselineDir() {
        return new RunDirectory(root.resolve("baseline"));
    }

    /** Ctrl-C: stops the block now running; the run ends without a verdict. */
    public void stop(Duration wait) {
        stopping = true;
        running.forEach(r -> r.stop(wait));
    }

    public Outcome run(Side baseline, Side candidate) throws IOException, InterruptedException {
        if (settings.pairing() == Pairing.LOCKSTEP) {
            harnessesWithoutTurns = harnessWithoutTurns(baseline.harness(), "baseline")
                    .or(() -> harnessWithoutTurns(candidate.harness(), "candidate"));
        }
        AbSides.Matched matched =
                AbSides.match(baseline.cells(), candidate.cells(), baseline.harness(), candidate.harness());
        List<String> measured =
                matched.pairs().stream().map(p -> p.candidate().id()).toList();
        RunManifest candidateManifest = candidate.manifest().withCells(measured);
        RunManifest baselineManifest = baseline.manifest().withCells(measured);
        candidateDir().writeManifest(candidateManifest);
        baselineDir().writeManifest(baselineManifest);
        matched.notComparable().forEach(n -> out.printf("not comparable: %s (%s); not run%n", n.cellId(), n.reason()));
        int total = matched.pairs().size();
        int failed = 0;
        // the ETA: the cost model's estimate of a pair of blocks (both sides, one repetition per variant; a side this
        // host skips takes no time), scaled by how its estimates fared so far (as run's)
        CellPlacement baselinePlacement = new CellPlacement(settings.choice(), baseline.docker(), baseline.local());
        CellPlacement candidatePlacement = new CellPlacement(settings.choice(), candidate.docker(), candidate.local());
        double[] perPair = new double[total];
        for (int i = 0; i < total; i++) {
            AbSides.Pair p = matched.pairs().get(i);
            perPair[i] = (estimateMs(baselinePlacement, p.baseline()) + estimateMs(candidatePlacement, p.candidate()))
                    / Math.max(1, p.candidate().repetitions() + p.candidate().warmup());
        }
        double estimatedAll = 0;
        for (int i = 0; i < total; i++) {
            estimatedAll += perPair[i]
                    * settings.firstPass(matched.pairs().get(i).candidate().id());
        }
        double estimatedDone = 0;
        Instant began = clock.instant();
        // the pairs each cell has so far, by its index in the matched pairs
        int[] pairsOf = new int[total];
        // what each cell's pairs took: the looks are planned from it (the cost model's estimate, scaled by one pace
        // for all cells, put the undecided cells' next 4 pairs at 249 s where they took 166 s, and 167 s of a
        // 10-minute budget went unused)
        long[] spentMs = new long[total];
        // comparisons measured no more: they could not be decided within the pairs their cell could still get
        // ("cell series" → why)
        Map<String, String> stopped = new java.util.TreeMap<>();
        // the cells this host did not run, a side or both (skipped, as their records say), with why
        Map<String, String> notRun = new java.util.TreeMap<>();
        for (int i = 0; i < total && !stopping; i++) {
            AbSides.Pair pair = matched.pairs().get(i);
            String id = pair.candidate().id();
            int pairs = settings.firstPass(id);
            Instant started = clock.instant();
            failed += measure(baseline, candidate, pair, 0, pairs, null) ? 0 : 1;
            spentMs[i] += Duration.between(started, clock.instant()).toMillis();
            pairsOf[i] = pairs;
            estimatedDone += perPair[i] * pairs;
            // a cell this host cannot run says so, not "6 pairs in 0 s"
            Optional<String> skipped = notRunWhy(
                    baseline.label(), skippedWhy(baselineDir(), id), candidate.label(), skippedWhy(candidateDir(), id));
            skipped.ifPresent(why -> notRun.put(id, why));
            out.printf(
                    "[%d/%d] %s: %s — ETA %s%n",
                    i + 1,
                    total,
                    id,
                    skipped.map(r -> "skipped (" + r + ")")
                            .orElse(pairs + " pairs in "
                                    + Duration.between(started, clock.instant()).toSeconds() + " s"),
                    CellRecorder.formatDuration(
                            remainingMs(began, clock.instant(), estimatedDone, estimatedAll - estimatedDone)));
        }
        if (stopping) {
            finish(candidateManifest, baselineManifest, RunStatus.INTERRUPTED);
            return new Outcome(null, failed, true);
        }
        // the looks after the first pass: the cells of the comparisons still undecided get the pairs of the next
        // look, while the budget lasts (the first pass is always measured: without it nothing can be decided). A
        // cell whose first pass went past a look (its test could say nothing before) waits for the look beyond it.
        List<Integer> looks = settings.plan().looks();
        // The budget's last look (issue #30: a budget that ended the run at look 3 of 6 left half of α unspent):
        // NextLook decides it, before that look's data, from what each cell's pairs took; the levels still sum to α.
        Optional<Long> budgetMs = settings.budget().map(Duration::toMillis);
        // what a pair of every variant of a cell takes: the first pass measured them all
        double[] fullMsPerPair = new double[total];
        for (int i = 0; i < total; i++) {
            fullMsPerPair[i] = spentMs[i] / (double) Math.max(1, pairsOf[i]);
        }
        boolean lastLook = looks.size() == 1;
        if (!lastLook && budgetMs.isPresent()) {
            // the first look is the last only when not one more pair of every cell fits: otherwise the next look
            // (made the last, if it must be, with the pairs that fit) spends the α left
            double round = java.util.Arrays.stream(fullMsPerPair).sum();
            lastLook = Duration.between(began, clock.instant()).toMillis() + round > budgetMs.get();
        }
        CompareReport first = compare(baseline, candidate, settings.plan().level(0, lastLook));
        int look = 0;
        // the budget made a look before the plan's last the last one: the budget ended measuring
        String ended = lastLook && looks.size() > 1 ? "budget" : "last-look";
        while (!lastLook && look + 1 < looks.size() && !stopping) {
            List<Comparison> undecided = first.comparisons().stream()
                    .filter(c -> !SequentialPlan.decided(c, settings.threshold()))
                    .filter(c -> !stopped.containsKey(seriesKey(c)))
                    .toList();
            if (undecided.isEmpty()) {
                ended = stopped.isEmpty() ? "decided" : "futile";
                break;
            }
            long leftMs = budgetMs.orElse(0L)
                    - Duration.between(began, clock.instant()).toMillis();
            java.util.OptionalLong left =
                    budgetMs.isPresent() ? java.util.OptionalLong.of(leftMs) : java.util.OptionalLong.empty();
            // room to confirm the flags so far and one more: of the dearest comparison still undecided
            List<Comparison> flaggedSoFar =
                    first.comparisons().stream().filter(AbRun::isFlagged).toList();
            long confirmReserveMs = confirmReserveMs(matched, fullMsPerPair, flaggedSoFar, undecided);
            // the look as it would be for every undecided cell, whole: the pairs a cell can still get at most
            NextLook whole = NextLook.after(
                    looks,
                    look,
                    settings.lastLookPairs(),
                    pairsOf,
                    fullMsPerPair,
                    cellsOf(matched, undecided),
                    left,
                    confirmReserveMs);
            // futility: a comparison whose interval could not clear the threshold either side at the most pairs it
            // can get (the budget's last look's, else the plan's most), tested at the most α a later look can have,
            // is measured no more — the budget goes to the comparisons that can be decided (an A/A run of the ab
            // profile spent a third of each round on echo-server, mass-start virtual and thread-local pool:cpus,
            // 10–45 % detectable whatever they got)
            // (a cheap cell the budget can take past the plan's last: as far as it could go were every undecided
            // cell to go on)
            int most = whole.last() && whole.fits()
                    ? whole.pairs()
                    : Math.max(
                            settings.plan().maxPairs(),
                            NextLook.reachable(
                                    pairsOf,
                                    fullMsPerPair,
                                    cellsOf(matched, undecided),
                                    left.orElse(0) - confirmReserveMs,
                                    settings.lastLookPairs()));
            double mostLevel = settings.plan().level(look + 1, true);
            List<Comparison> live = new ArrayList<>();
            for (Comparison c : undecided) {
                var futile = SequentialPlan.futileHalfWidth(c, most, mostLevel, settings.threshold());
                if (futile.isPresent()) {
                    stopped.put(
                            seriesKey(c),
                            futileWhy(c, most, futile.getAsDouble(), pairsOf[indexOf(matched, c.cellId())]));
                } else {
                    live.add(c);
                }
            }
            if (live.isEmpty()) {
                out.printf(
                        "look %d: none of the %d undecided comparisons could be decided within %d pairs; stopping%n",
                        look + 2, undecided.size(), most);
                ended = "futile";
                break;
            }
            // each cell measures only the variants of its comparisons still live (every variant is a JVM of its
            // own; a suite's benchmarks share their variant's)
            Map<Integer, List<String>> variantsOf = liveVariants(matched, live);
            double[] msPerPairSoFar = new double[total];
            for (int i = 0; i < total; i++) {
                msPerPairSoFar[i] = fullMsPerPair[i]
                        * variantShare(matched.pairs().get(i), variantsOf.get(i), fullMsPerPair[i] / 2);
            }
            NextLook next = NextLook.after(
                    looks,
                    look,
                    settings.lastLookPairs(),
                    pairsOf,
                    msPerPairSoFar,
                    variantsOf.keySet(),
                    left,
                    confirmReserveMs(matched, fullMsPerPair, flaggedSoFar, live));
            if (!next.fits()) {
                out.printf(
                        "budget: look %d (%d pairs) for %d undecided cells would take about %s, beyond the %s"
                                + " left of the budget, and not one more pair fits; stopping%n",
                        look + 2,
                        next.pairs(),
                        next.cells().size(),
                        CellRecorder.formatDuration(next.ms()),
                        CellRecorder.formatDuration(Math.max(0, leftMs)));
                ended = "budget";
                break;
            }
            int target = next.pairs();
            List<Integer> toMeasure = next.cells();
            look++;
            lastLook = next.last();
            if (lastLook && look + 1 < looks.size()) {
                ended = "budget";
            }
            if (toMeasure.isEmpty()) {
                continue; // every undecided cell is already past this look
            }
            out.printf(
                    "look %d of %d%s: %d cells undecided, up to %d pairs each%s%s — ETA %s%n",
                    look + 1,
                    looks.size(),
                    lastLook && look + 1 < looks.size() ? " (the budget's last: all α left)" : "",
                    toMeasure.size(),
                    target,
                    next.onePairMore().isEmpty()
                            ? ""
                            : " (" + next.onePairMore().size() + " of them " + (target + 1) + ": the budget's rest)",
                    stopped.isEmpty()
                            ? ""
                            : "; " + stopped.size() + " comparisons measured no more (could not be decided within "
                                    + most + " pairs)",
                    CellRecorder.formatDuration(next.ms()));
            for (int i : toMeasure) {
                if (stopping) {
                    break;
                }
                if (next.pairsOf(i) <= pairsOf[i]) {
                    continue;
                }
                measure(
                        baseline,
                        candidate,
                        matched.pairs().get(i),
                        pairsOf[i],
                        next.pairsOf(i) - pairsOf[i],
                        variantsOf.get(i));
                pairsOf[i] = next.pairsOf(i);
            }
            first = compare(baseline, candidate, settings.plan().level(look, lastLook));
        }
        if ((lastLook || look + 1 == looks.size())
                && first.comparisons().stream().allMatch(c -> SequentialPlan.decided(c, settings.threshold()))) {
            ended = "decided";
        }
        int looksTaken = look + 1;
        Map<String, Comparison> flagged = new LinkedHashMap<>();
        first.comparisons().stream().filter(AbRun::isFlagged).forEach(c -> flagged.put(key(c), c));
        Set<String> remeasured = new LinkedHashSet<>();
        // a flagged cell confirms the flagged variants only
        Map<Integer, List<String>> confirmVariants = liveVariants(matched, List.copyOf(flagged.values()));
        if (settings.confirmBlocks() > 0) {
            flagged.values().forEach(c -> remeasured.add(c.cellId()));
            // confirming a cell costs confirmBlocks of its pairs, at the pace its pairs kept
            double confirmMs = confirmingMs(matched, fullMsPerPair, confirmVariants);
            if (!remeasured.isEmpty()) {
                out.printf(
                        "confirming %d cells (%d more pairs each) — ETA %s%n",
                        remeasured.size(), settings.confirmBlocks(), CellRecorder.formatDuration((long) confirmMs));
            }
            int n = 0;
            for (var entry : confirmVariants.entrySet()) {
                if (stopping) {
                    break;
                }
                int i = entry.getKey();
                AbSides.Pair pair = matched.pairs().get(i);
                out.printf(
                        "confirming [%d/%d] %s: %d more pairs%n",
                        ++n, remeasured.size(), pair.candidate().id(), settings.confirmBlocks());
                measure(baseline, candidate, pair, pairsOf[i], settings.confirmBlocks(), entry.getValue());
                pairsOf[i] += settings.confirmBlocks();
            }
        }
        if (stopping) {
            finish(candidateManifest, baselineManifest, RunStatus.INTERRUPTED);
            return new Outcome(null, failed, true);
        }
        CompareReport second = remeasured.isEmpty() ? first : compare(baseline, candidate, lastLevel);
        List<Comparison> verdicts = new ArrayList<>();
        for (Comparison c : second.comparisons()) {
            Comparison before = first.comparisons().stream()
                    .filter(f -> key(f).equals(key(c)))
                    .findFirst()
                    .orElse(c);
            if (!remeasured.contains(c.cellId()) || !flagged.containsKey(key(c))) {
                // not flagged: its verdict stands as the last look gave it, unless that look left it undecided
                verdicts.add(SequentialPlan.decided(before, settings.threshold()) ? before : before.undecided());
                continue;
            }
            verdicts.add(afterConfirmation(before, c, settings.threshold(), settings.confirmBlocks()));
        }
        CompareReport report = withPlanLists(
                second.asAbRun(
                        new CompareReport.AbRun(
                                baseline.label(),
                                candidate.label(),
                                matched.differences(),
                                settings.blocks(),
                                settings.confirmBlocks(),
                                List.copyOf(remeasured),
                                new CompareReport.Sequential(
                                        METHOD,
                                        looks,
                                        settings.plan().levelPerLook(),
                                        settings.budget()
                                                .map(Duration::toSeconds)
                                                .orElse(null),
                                        Duration.between(began, clock.instant()).toSeconds(),
                                        looksTaken,
                                        ended,
                                        pairsById(matched, pairsOf, notRun.keySet()),
                                        settings.notMeasured(),
                                        lastLevel,
                                        stopped,
                                        notRun),
                                pairingWords(notRun.keySet())),
                        verdicts),
                matched,
                settings.alpha());
        Json.writeAtomically(root.resolve("compare.json"), report);
        Files.writeString(root.resolve("compare.md"), MarkdownReport.render(report), StandardCharsets.UTF_8);
        finish(candidateManifest, baselineManifest, RunStatus.FINISHED);
        return new Outcome(report, failed, false);
    }

    /**
     * A flagged comparison after its confirmation: confirmed when all its pairs ({@code all}) still say what the
     * look that flagged it ({@code flagged}) said; not confirmed, it is what all its pairs now say — inconclusive
     * where its interval still straddles the threshold (a 2.0 % slowdown at {@code --threshold 2} read "unchanged"
     * with its interval at +1.3 … +2.7 %).
     */
    static Comparison afterConfirmation(Comparison flagged, Comparison all, double threshold, int extraPairs) {
        boolean confirmed = all.verdict() == flagged.verdict();
        Comparison judged = confirmed || SequentialPlan.decided(all, threshold) ? all : all.undecided();
        return judged.withConfirmation(new Comparison.Confirmation(extraPairs, flagged.verdict(), confirmed));
    }

    /** "1m20s": as the progress lines say durations. */
    public static String formatDuration(long ms) {
        return CellRecorder.formatDuration(ms);
    }

    /** What is left at the pace so far: the time taken per estimated ms, times the estimated ms left. */
    public static long remainingMs(Instant began, double estimatedDone, double estimatedLeft) {
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

    /** How each cell's pairs were measured, as the report says it (a cell not run here had no pairs to speak of). */
    private Map<String, String> pairingWords(Set<String> notRun) {
        Map<String, String> words = new java.util.TreeMap<>();
        pairing.forEach((cell, tally) -> {
            if (!notRun.contains(cell)) {
                words.put(cell, tally.words());
            }
        });
        return words;
    }

    /** The level the latest look tested at (the report says it). */
    private double lastLevel = Double.NaN;

    /**
     * Runs pairs {@code from} … {@code from + count − 1} of one cell, then writes both sides' records from
     * every block the cell has so far. False when a block of either side failed (skipped is not failed).
     */
    private boolean measure(
            Side baseline, Side candidate, AbSides.Pair pair, int from, int count, List<String> variants)
            throws IOException, InterruptedException {
        String id = pair.candidate().id();
        List<Boolean> baselineFirst = balancedOrder(candidate.manifest().runId() + "/" + id + "/" + from, count);
        // empty: in lockstep; else why not ("" when back to back is what was asked for)
        Optional<String> whyBackToBack = settings.pairing() == Pairing.LOCKSTEP
                ? whyNotLockstep(pair)
                        .or(() -> harnessesWithoutTurns)
                        .or(() -> engineElsewhere(baseline, pair.baseline()))
                : Optional.of("");
        for (int k = from; k < from + count && !stopping; k++) {
            String seed = candidate.manifest().runId();
            Cell a = only(pair.baseline(), variants);
            Cell b = only(pair.candidate(), variants);
            if (whyBackToBack.isEmpty() && inLockstep(baseline, candidate, a, b, k, seed)) {
                continue;
            }
            if (baselineFirst.get(k - from)) {
                measureBlock(baseline, a, k, "a", seed);
                measureBlock(candidate, b, k, "b", seed);
            } else {
                measureBlock(candidate, b, k, "b", seed);
                measureBlock(baseline, a, k, "a", seed);
            }
            pairing.computeIfAbsent(id, c -> new PairingTally()).backToBack++;
        }
        whyBackToBack
                .filter(why -> !why.isEmpty())
                .ifPresent(why -> pairing.computeIfAbsent(id, c -> new PairingTally()).why = why);
        boolean okBaseline = merge(pair.baseline(), "a", baselineDir(), from + count);
        boolean okCandidate = merge(pair.candidate(), "b", candidateDir(), from + count);
        candidateRecords.remove(id);
        return okBaseline && okCandidate;
    }

    /**
     * Why a cell's pairs cannot be measured in lockstep, if they cannot: only the harness's iterated forks take
     * turns, and only forks alike on both sides (the same iterations and warmup forks) stay in step.
     */
    static Optional<String> whyNotLockstep(AbSides.Pair pair) {
        Cell a = pair.baseline();
        Cell b = pair.candidate();
        if (!HarnessCommand.takesTurns(a) || !HarnessCommand.takesTurns(b)) {
            return Optional.of(
                    a.workload().user().isPresent() || b.workload().user().isPresent()
                            ? "a user workload's JVMs do not take turns"
                            : "its forks run once, not by iterations");
        }
        if (!a.iterations().equals(b.iterations()) || a.warmup() != b.warmup()) {
            return Optional.of("the sides' forks differ in iterations or warmup forks");
        }
        if (!LockstepHost.CAN) {
            return Optional.of("this host cannot make named pipes");
        }
        return Optional.empty();
    }

    /**
     * Why a side's own harness ({@code --baseline-harness}, {@code --candidate-harness}) cannot take turns with this
     * runner, if it cannot: a harness built before this runner's turns protocol would refuse {@code --turns}, or
     * end its forks without the tail's word, and fail the cell. This runner's protocol came with
     * {@code TurnCpu}, which the jar then holds.
     */
    public static Optional<String> harnessWithoutTurns(Optional<Path> harness, String name) {
        if (harness.isEmpty()) {
            return Optional.empty();
        }
        try (var jar = new java.util.zip.ZipFile(harness.get().toFile())) {
            return jar.getEntry("dev/loommatrix/harness/measure/TurnCpu.class") != null
                    ? Optional.empty()
                    : Optional.of("the " + name + "'s harness was built before this runner's turns");
        } catch (IOException unreadable) {
            return Optional.of("the " + name + "'s harness jar cannot be read: " + unreadable.getMessage());
        }
    }

    /**
     * Why the cell's containers could not reach this host's pipes, if the cell runs in containers of an engine
     * that is not on this host ({@link ContainerEngine#whyNotThisHost}); both sides use the same engine.
     */
    private Optional<String> engineElsewhere(Side side, Cell cell) {
        boolean inContainers = settings.choice() != MatrixRun.BackendChoice.LOCAL
                && cell.coordinates().os().equals("linux");
        return inContainers ? side.docker().flatMap(ContainerEngine::whyNotThisHost) : Optional.empty();
    }

    /** Whether this host can make named pipes: asked once, and only by a run that asks for lockstep. */
    private static final class LockstepHost {
        static final boolean CAN = Lockstep.available();
    }

    /**
     * Pair k of a cell in lockstep: both sides' blocks at once, their forks' iterations by turns ({@link Lockstep}).
     * False when the pair could not be set up so (it is then measured back to back).
     */
    private boolean inLockstep(Side baseline, Side candidate, Cell a, Cell b, int k, String seed)
            throws IOException, InterruptedException {
        Path turns = root.resolve("blocks").resolve(b.id()).resolve(k + "-turns");
        Optional<Lockstep> coordinator = Lockstep.start(turns, (seed + "/" + b.id() + "/" + k).hashCode());
        if (coordinator.isEmpty()) {
            return false;
        }
        Lockstep.Tally tally;
        int measuredAgain;
        try (Lockstep lockstep = coordinator.get()) {
            Block blockA = block(baseline, a, k, "a", seed);
            Block blockB = block(candidate, b, k, "b", seed);
            // a disturbed block measured again is measured again with its sibling, both in step once more
            PairAttempts attempts = new PairAttempts();
            PairAttempts.Side attemptsA = attempts.side("a");
            PairAttempts.Side attemptsB = attempts.side("b");
            blockA.run().inLockstep(lockstep.dir("a"), blockB.run(), attemptsA);
            blockB.run().inLockstep(lockstep.dir("b"), blockA.run(), attemptsB);
            try (var both = java.util.concurrent.Executors.newFixedThreadPool(2)) {
                var doneA = both.submit(() -> measureBlock(blockA, () -> ended(attemptsA, lockstep)));
                var doneB = both.submit(() -> measureBlock(blockB, () -> ended(attemptsB, lockstep)));
                doneA.get();
                doneB.get();
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                throw new IllegalStateException(e.getCause());
            }
            tally = lockstep.finish();
            measuredAgain = attempts.measuredAgain();
        } finally {
            deleteTree(turns);
        }
        PairingTally cell = pairing.computeIfAbsent(b.id(), c -> new PairingTally());
        cell.lockstep++;
        cell.pairedTurns += tally.pairedTurns();
        cell.aloneTurns += tally.aloneTurns();
        cell.measuredAgain += measuredAgain;
        cell.placed(forkRecords(a, k, "a"));
        cell.placed(forkRecords(b, k, "b"));
        return true;
    }

    /** A lockstep block has ended: its sibling neither waits for its word on an attempt nor for its forks' turns. */
    private static void ended(PairAttempts.Side side, Lockstep lockstep) {
        side.ended();
        lockstep.ended(side.name());
    }

    /**
     * Every fork's record of a block, for where its turns began; none where they cannot be read (a failed block's
     * reason is its cell's, reported with it: this count only leaves it out).
     */
    private List<RawResults.HarnessRecord> forkRecords(Cell cell, int k, String sideName) {
        try {
            return RawResults.allRecords(
                    blockDir(cell.id(), k, sideName).resolve("raw").resolve(cell.id()));
        } catch (IOException | RuntimeException unreadable) {
            return List.of();
        }
    }

    /** The index of a cell among the matched pairs. */
    private static int indexOf(AbSides.Matched matched, String cellId) {
        for (int i = 0; i < matched.pairs().size(); i++) {
            if (matched.pairs().get(i).candidate().id().equals(cellId)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no such cell: " + cellId);
    }

    /** The pairs each cell got, by its id: as the report says them (a cell not run here got none, and is not among them). */
    private static Map<String, Integer> pairsById(AbSides.Matched matched, int[] pairs, Set<String> notRun) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i++) {
            String id = matched.pairs().get(i).candidate().id();
            if (!notRun.contains(id)) {
                out.put(id, pairs[i]);
            }
        }
        return out;
    }

    /** A side's cell by the cost model, or nothing when this host will not run it (it is skipped in no time). */
    private static double estimateMs(CellPlacement placement, Cell cell) throws InterruptedException {
        return placement.expectsToRun(cell) ? dev.loommatrix.core.plan.CostModel.estimateMs(cell) : 0;
    }

    /** Why a side's cell was skipped, if its record says it was. */
    private static Optional<String> skippedWhy(RunDirectory side, String cellId) throws IOException {
        return side.readCell(cellId)
                .filter(c -> c.status() == CellStatus.SKIPPED)
                .map(c -> c.reason().orElse("skipped"));
    }

    /**
     * Why a cell is not run here, if a side of it is not: the reason (both sides alike), else each side's, named —
     * as the plan says it before measuring and the report after.
     */
    public static Optional<String> notRunWhy(
            String baselineLabel, Optional<String> baseline, String candidateLabel, Optional<String> candidate) {
        if (baseline.isPresent() && candidate.isPresent() && baseline.equals(candidate)) {
            return candidate;
        }
        List<String> sides = new ArrayList<>();
        baseline.ifPresent(why -> sides.add("the " + baselineLabel + " side: " + why));
        candidate.ifPresent(why -> sides.add("the " + candidateLabel + " side: " + why));
        return sides.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", sides));
    }

    /** "cell series": a comparison's key in the report's lists. */
    static String seriesKey(Comparison c) {
        return c.cellId() + " " + c.series();
    }

    /** Why a comparison is measured no more, in the report's words. */
    private String futileWhy(Comparison c, int most, double halfWidth, int pairs) {
        return String.format(
                java.util.Locale.ROOT,
                "at its noise (%.1f %% a pair) its interval would still be ±%.1f %% at %d pairs, too wide to clear ±%.0f"
                        + " %% either side from %+.1f %%; stopped after %d pairs",
                c.noise() * 100,
                Math.expm1(halfWidth) * 100,
                most,
                settings.threshold() * 100,
                (c.ratio() - 1) * 100,
                pairs);
    }

    /** The indices of the cells of these comparisons. */
    private static Set<Integer> cellsOf(AbSides.Matched matched, List<Comparison> comparisons) {
        return liveVariants(matched, comparisons).keySet();
    }

    /**
     * Per cell index of these comparisons, the variants to measure: those of the comparisons, in the cell's order.
     * Every variant is a JVM of its own — a built-in workload's, a program's, a JMH suite's run (its benchmarks
     * share it: a variant with one live benchmark is measured with all of them) — so a variant decided or stopped
     * is measured no more. Null (the whole cell) only when no comparison names one of the cell's variants.
     */
    static Map<Integer, List<String>> liveVariants(AbSides.Matched matched, List<Comparison> comparisons) {
        Map<Integer, List<String>> out = new java.util.TreeMap<>();
        for (int i = 0; i < matched.pairs().size(); i++) {
            Cell cell = matched.pairs().get(i).candidate();
            List<String> named = comparisons.stream()
                    .filter(c -> c.cellId().equals(cell.id()))
                    .map(Comparison::variant)
                    .toList();
            if (named.isEmpty()) {
                continue;
            }
            List<String> variants =
                    cell.workload().variants().stream().filter(named::contains).toList();
            out.put(i, variants.isEmpty() ? null : variants);
        }
        return out;
    }

    /**
     * What share of a whole pair of this cell a pair of only these variants takes (null: all, 1): the block's own
     * cost (a container, the side's set-up: {@code blockMs}, what a whole block took, less its variants' JVMs) is
     * paid anyway, each variant adds what its JVM took ({@code processMs}, the median over the candidate's blocks).
     */
    private double variantShare(AbSides.Pair pair, List<String> variants, double blockMs) {
        if (variants == null
                || variants.size() >= pair.candidate().workload().variants().size()) {
            return 1;
        }
        Optional<CellRecord> record;
        try {
            record = candidateRecord(pair.candidate().id());
        } catch (IOException e) {
            return 1;
        }
        if (record.isEmpty()) {
            return 1;
        }
        double all = 0;
        double these = 0;
        for (Measurement m : record.get().measurements()) {
            double ms = m.medianOf("processMs").orElse(Double.NaN);
            if (!Double.isFinite(ms)) {
                return 1; // what a variant takes is not known: the whole pair's cost, on the safe side
            }
            all += ms;
            these += variants.contains(m.variant()) ? ms : 0;
        }
        double fixed = Math.max(0, blockMs - all);
        return all + fixed <= 0 ? 1 : Math.min(1, (fixed + these) / (fixed + all));
    }

    /**
     * The candidate's record of a cell as last written: read once after each time the cell is measured (a look asks
     * for it once per undecided comparison — the reserve, the pace of each cell — and it changes only by
     * {@link #measure}).
     */
    private Optional<CellRecord> candidateRecord(String cellId) throws IOException {
        Optional<CellRecord> record = candidateRecords.get(cellId);
        if (record == null) {
            record = candidateDir().readCell(cellId);
            candidateRecords.put(cellId, record);
        }
        return record;
    }

    /**
     * The room kept to confirm flags (issue #30): {@code confirmBlocks} pairs of every cell with a comparison flagged
     * so far (its flagged variants': a confirmation measures only them), and of the dearest comparison still
     * undecided (its own variant's: one more flag). A whole pair of the dearest cell, kept before, left 58–63 s of
     * an A/A run's 600 unspent, and did not cover two cells flagged.
     */
    private long confirmReserveMs(
            AbSides.Matched matched, double[] fullMsPerPair, List<Comparison> flagged, List<Comparison> undecided) {
        double dearest = 0;
        for (Comparison c : undecided) {
            dearest = Math.max(dearest, confirmingMs(matched, fullMsPerPair, liveVariants(matched, List.of(c))));
        }
        return (long) (confirmingMs(matched, fullMsPerPair, liveVariants(matched, flagged)) + dearest);
    }

    /** What confirming these variants of these cells takes: {@code confirmBlocks} pairs of each. */
    private double confirmingMs(
            AbSides.Matched matched, double[] fullMsPerPair, Map<Integer, List<String>> variantsByCell) {
        double ms = 0;
        for (var entry : variantsByCell.entrySet()) {
            ms += confirmPairMs(matched, fullMsPerPair, entry.getKey(), entry.getValue()) * settings.confirmBlocks();
        }
        return ms;
    }

    /** What a pair of only these variants of cell {@code i} takes, at the pace of its pairs so far. */
    private double confirmPairMs(AbSides.Matched matched, double[] fullMsPerPair, int i, List<String> variants) {
        return fullMsPerPair[i] * variantShare(matched.pairs().get(i), variants, fullMsPerPair[i] / 2);
    }

    /** The cell with only these variants (null: the cell as it is). */
    static Cell only(Cell cell, List<String> variants) {
        if (variants == null || variants.equals(cell.workload().variants())) {
            return cell;
        }
        var w = cell.workload();
        return cell.withWorkload(
                new dev.loommatrix.core.matrix.WorkloadSpec(w.id(), variants, w.params(), w.user(), w.iterations()));
    }

    /** AB or BA for each of {@code count} pairs: half each (the odd one out at random), shuffled. */
    static List<Boolean> balancedOrder(String seed, int count) {
        List<Boolean> order = new ArrayList<>();
        Random random = new Random(seed.hashCode());
        for (int i = 0; i < count; i++) {
            order.add(i < count / 2 || (i == count - 1 && count % 2 == 1 && random.nextBoolean()));
        }
        Collections.shuffle(order, random);
        return order;
    }

    private Path blockDir(String cellId, int k, String side) {
        return root.resolve("blocks").resolve(cellId).resolve(k + "-" + side);
    }

    /** A block set up to run: its run, the cell it measures once, where, and the manifest it writes. */
    private record Block(MatrixRun run, Cell once, RunDirectory dir, RunManifest manifest) {}

    /** Measures one block, back to back with its pair's other. */
    private void measureBlock(Side side, Cell cell, int k, String sideName, String pairSeed)
            throws IOException, InterruptedException {
        measureBlock(block(side, cell, k, sideName, pairSeed), () -> {});
    }

    /**
     * One block: the side's cell with one repetition per variant (the warmups before the first block only), its
     * variants in the pair's order and on the pair's CPUs ({@link MatrixRun#asBlock}).
     */
    private Block block(Side side, Cell cell, int k, String sideName, String pairSeed) {
        Cell once = new Cell(
                cell.coordinates(),
                cell.jdk(),
                cell.workload(),
                cell.jvmArgs(),
                cell.env(),
                1,
                k == 0 ? cell.warmup() : 0,
                cell.iterations(),
                cell.timeout(),
                cell.memoryBytes(),
                cell.pids());
        RunDirectory dir = new RunDirectory(blockDir(cell.id(), k, sideName));
        RunManifest manifest = side.manifest().withCells(List.of(cell.id()));
        // both sides of pair k: the same variant order and the same CPUs
        MatrixRun run = new MatrixRun(
                        dir,
                        new PrintStream(OutputStream.nullOutputStream()),
                        settings.choice(),
                        side.docker(),
                        side.local())
                .asBlock(pairSeed + "/" + cell.id() + "/" + k)
                // a disturbed block is measured again (bounded) or called invalid, as run does a cell
                .onDisturbed(settings.onDisturbed());
        return new Block(run, once, dir, manifest);
    }

    /** Measures a block, then says so ({@code ended}: a lockstep pair's other side then takes its turns alone). */
    private Void measureBlock(Block block, Runnable ended) throws IOException, InterruptedException {
        running.add(block.run());
        try {
            if (!stopping) {
                block.run().run(block.manifest(), List.of(block.once()), MatrixRun.Resume.NO);
                block.dir()
                        .writeManifest(block.manifest().finish(clock.instant().toString(), RunStatus.FINISHED));
            }
        } finally {
            running.remove(block.run());
            ended.run();
        }
        return null;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * The side's record of a cell from its first {@code pairs} blocks: every series' samples one after
     * another with their block numbers; ok when every block was, else the first trouble's status and
     * reason. The environment shown is the first that was not attested, else the first block's.
     */
    private boolean merge(Cell cell, String sideName, RunDirectory into, int pairs) throws IOException {
        List<CellRecord> records = new ArrayList<>();
        List<Integer> numbers = new ArrayList<>();
        CellRecord trouble = null;
        for (int k = 0; k < pairs; k++) {
            Optional<CellRecord> record = new RunDirectory(blockDir(cell.id(), k, sideName)).readCell(cell.id());
            if (record.isEmpty()) {
                continue;
            }
            records.add(record.get());
            numbers.add(k);
            if (trouble == null && record.get().status() != CellStatus.OK) {
                trouble = record.get();
            }
        }
        if (records.isEmpty()) {
            return false;
        }
        Map<String, List<Measurement>> bySeries = new LinkedHashMap<>();
        Map<String, List<Integer>> blocksOf = new LinkedHashMap<>();
        for (int i = 0; i < records.size(); i++) {
            for (Measurement m : records.get(i).measurements()) {
                bySeries.computeIfAbsent(m.series(), s -> new ArrayList<>()).add(m);
                blocksOf.computeIfAbsent(m.series(), s -> new ArrayList<>()).add(numbers.get(i));
            }
        }
        String summarized = cell.workload().user().isPresent() ? null : "wallMs";
        List<Measurement> measurements = new ArrayList<>();
        bySeries.forEach((series, parts) -> measurements.add(Measurement.ofBlocks(
                blocksOf.get(series),
                parts,
                summarized != null ? summarized : parts.get(0).metric().name())));
        CellRecord first = records.get(0);
        CellRecord last = records.get(records.size() - 1);
        Optional<EnvironmentRecord> environment = records.stream()
                .flatMap(r -> r.environment().stream())
                .filter(e -> !e.attested())
                .findFirst()
                .or(first::environment);
        CellRecord.Execution execution = new CellRecord.Execution(
                first.execution().backend(),
                first.execution().driver() + "; A/B: " + records.size() + " blocks of one repetition per variant",
                first.execution().startedAt(),
                last.execution().finishedAt(),
                records.stream().mapToLong(r -> r.execution().durationMs()).sum(),
                first.execution().variantOrder(),
                first.execution().fallbackReason(),
                Optional.empty(),
                List.of(),
                records.stream()
                        .flatMap(r -> r.execution().leftBehind().stream())
                        .toList(),
                mostDisturbed(records, numbers));
        CellRecord source = trouble != null ? trouble : first;
        into.writeCell(CellRecord.of(
                cell.id(),
                cell.coordinates(),
                source.status(),
                // which block failed helps; a cell this host cannot run is skipped in every block alike
                source.reason()
                        .map(r -> source.status() == CellStatus.SKIPPED
                                ? r
                                : "block " + numbers.get(records.indexOf(source)) + ": " + r),
                source.logTail(),
                environment,
                measurements,
                execution,
                first.baseline(),
                first.contrast()));
        // skipped is not failed (issue #32): a cell this host cannot run (a JDK it lacks) fails no check, as in run
        return (trouble == null || !trouble.status().isFailure()) && records.size() == pairs;
    }

    /**
     * The side's interference over its blocks (issue #32): the block with the most other work, its flag naming the
     * block — one disturbed block is enough to say so of the side.
     */
    static Optional<dev.loommatrix.core.result.Interference> mostDisturbed(
            List<CellRecord> records, List<Integer> numbers) {
        int worst = -1;
        for (int i = 0; i < records.size(); i++) {
            var it = records.get(i).execution().interference();
            if (it.isPresent()
                    && (worst < 0
                            || it.get().otherCpusMean()
                                    > records.get(worst)
                                            .execution()
                                            .interference()
                                            .orElseThrow()
                                            .otherCpusMean())) {
                worst = i;
            }
        }
        if (worst < 0) {
            return Optional.empty();
        }
        var it = records.get(worst).execution().interference().orElseThrow();
        String block = "block " + numbers.get(worst) + " of " + records.size() + ": ";
        return Optional.of(new dev.loommatrix.core.result.Interference(
                block + it.source(),
                it.everyMs(),
                it.otherCpusMean(),
                it.otherCpusMax(),
                it.thresholdCpus(),
                it.stealCpusMean(),
                it.throttledMs(),
                it.cpuPressureMean(),
                it.cpuMhz(),
                it.series(),
                it.unavailable(),
                it.disturbed().map(d -> block + d)));
    }

    private static boolean isFlagged(Comparison c) {
        return c.verdict() == Comparison.Verdict.regression || c.verdict() == Comparison.Verdict.improvement;
    }

    private static String key(Comparison c) {
        return c.cellId() + "\u0000" + c.series();
    }

    private void finish(RunManifest candidate, RunManifest baseline, RunStatus status) throws IOException {
        String now = clock.instant().toString();
        candidateDir().writeManifest(candidate.finish(now, status));
        baselineDir().writeManifest(baseline.finish(now, status));
    }

    /**
     * The plan's own findings (cells on one side only, cells defined differently) beside compare's, and the
     * false-alarm rate of the whole run.
     */
    private static CompareReport withPlanLists(CompareReport report, AbSides.Matched matched, double alpha) {
        List<String> onlyBaseline = new ArrayList<>(matched.onlyBaseline());
        onlyBaseline.addAll(report.onlyInBaseline());
        List<String> onlyCandidate = new ArrayList<>(matched.onlyCandidate());
        onlyCandidate.addAll(report.onlyInCandidate());
        List<CompareReport.NotComparable> unlike = new ArrayList<>(matched.notComparable());
        unlike.addAll(report.notComparable());
        return new CompareReport(
                report.schemaVersion(),
                report.baseline(),
                report.candidate(),
                report.threshold(),
                alpha, // the rate spent over every look; each look tested at the plan's level per look
                report.comparisons(),
                report.regressions(),
                report.improvements(),
                onlyBaseline,
                onlyCandidate,
                unlike,
                report.repetitionsNeeded(),
                report.resolution(),
                report.ab(),
                report.headlines(),
                report.disturbed());
    }
}
