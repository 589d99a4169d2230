package dev.loommatrix.runner.ab;

import dev.loommatrix.core.compare.SequentialPlan;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.stats.NestedPaired;
import dev.loommatrix.runner.run.CellRecorder;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What the run will measure, settled before it starts: how many comparisons there will be (each cell's variants,
 * times a JMH suite's benchmarks, of the cells this host runs on both sides), the looks, each cell's first pass and
 * its estimated time here ({@link PairCost}), the cells this host will not run (skipped in no time, each with why),
 * the cells the budget leaves out, and the cells whose first pass is too short for their test to say anything.
 */
public record AbPlan(
        SequentialPlan plan,
        long comparisons,
        Map<String, Integer> firstPasses,
        Map<String, Double> firstPassMs,
        Map<String, String> notRun,
        Map<String, String> notMeasured,
        List<Cell> cannotSpeak) {

    /**
     * What was asked: {@code --blocks}, {@code --max-pairs}, {@code --alpha}, {@code --budget} (and as it was
     * written), and what the sides are called.
     */
    public record Ask(
            Optional<Integer> blocks,
            Optional<Integer> maxPairs,
            double alpha,
            Optional<Duration> budget,
            String budgetText,
            String baselineLabel,
            String candidateLabel) {}

    /**
     * The run's plan: each cell's first pass is the first look at which its test can find one change among the
     * comparisons — the nested t where its forks measure iterations, else the signed-rank test (more pairs); with a
     * budget, the cells whose first pass would not fit after the others' are left out, each said. A cell this host
     * will not run costs the budget nothing (it is skipped in no time) and is never left out for it.
     */
    public static AbPlan of(List<Cell> planned, Ask ask, HostRuns here) {
        Map<String, String> notRun = new LinkedHashMap<>();
        for (Cell cell : planned) {
            here.whyNotRun(cell, ask.baselineLabel(), ask.candidateLabel())
                    .ifPresent(why -> notRun.put(cell.id(), why));
        }
        // the cells that will give comparisons: both sides run here
        List<Cell> compared =
                planned.stream().filter(c -> !notRun.containsKey(c.id())).toList();
        long comparisons =
                Math.max(1, compared.stream().mapToLong(AbPlan::comparisonsOf).sum());
        int repetitions =
                Math.max(6, compared.stream().mapToInt(Cell::repetitions).max().orElse(6));
        int first = ask.blocks().orElse(repetitions);
        int last = ask.maxPairs().orElse(ask.budget().isPresent() ? 40 : 0);
        SequentialPlan plan = SequentialPlan.of(first, Math.max(first, last), ask.alpha());
        Map<String, Integer> firstPasses = firstPasses(planned, plan, ask.blocks(), comparisons);
        // a pair's cost is both sides'; a side this host skips costs nothing
        Map<String, Double> firstPassMs = new LinkedHashMap<>();
        planned.forEach(c -> firstPassMs.put(
                c.id(), PairCost.pairMs(c, here.runsBaseline(c), c, here.runsCandidate(c)) * firstPasses.get(c.id())));
        Map<String, String> notMeasured = ask.budget()
                .map(b -> outOfBudget(planned, firstPasses, firstPassMs, b, ask.budgetText()))
                .orElse(Map.of());
        List<Cell> cannotSpeak = compared.stream()
                .filter(c -> !notMeasured.containsKey(c.id()))
                .filter(c -> firstPasses.get(c.id()) < plan.pairsNeeded(nestedPlanned(c), comparisons))
                .toList();
        return new AbPlan(plan, comparisons, firstPasses, firstPassMs, notRun, notMeasured, cannotSpeak);
    }

    /** The cells the budget leaves in (a cell this host will not run among them: the run records it skipped). */
    public List<Cell> measured(List<Cell> cells) {
        return cells.stream().filter(c -> !notMeasured.containsKey(c.id())).toList();
    }

    /** The longest first pass asked for beyond the plan's (a cell the signed-rank test judges), else the plan's. */
    public int longestFirstPass() {
        return firstPasses.entrySet().stream()
                .filter(e -> !notRun.containsKey(e.getKey()))
                .mapToInt(Map.Entry::getValue)
                .filter(p -> p > plan.firstPass())
                .max()
                .orElse(plan.firstPass());
    }

    /**
     * Said before measuring: the pairs and looks, a first pass too short for a cell's test to find anything (the
     * knob is --blocks), the cells this host will not run, the cells the budget leaves out, and a first pass
     * estimated beyond the budget.
     */
    public void announce(PrintStream console, List<Cell> cells, String runId, int extra, Path root, Ask ask) {
        // the cells this host runs: those the counts below speak of
        long runs = cells.stream().filter(c -> !notRun.containsKey(c.id())).count();
        int pairs = plan.firstPass();
        int signedRankPass = longestFirstPass();
        console.printf(
                "A/B run %s: %s against %s, %d pairs per cell%s (+%d to confirm a flagged change) → %s%n",
                runId,
                ask.candidateLabel(),
                ask.baselineLabel(),
                pairs,
                signedRankPass > pairs
                        ? " (" + signedRankPass
                                + " for a cell whose forks measure no iterations: the signed-rank test needs them)"
                        : "",
                extra,
                root);
        console.printf("plan: about %d comparisons; %s%n", comparisons, looksWords(ask));
        if (!cannotSpeak.isEmpty()) {
            console.printf(
                    "warning: with %d pairs, %d of %d cells cannot show a change among %d comparisons (%s): they would"
                            + " be inconclusive; --blocks %d, or fewer comparisons (--cell)%n",
                    pairs,
                    cannotSpeak.size(),
                    runs,
                    comparisons,
                    whyCannotSpeak(),
                    cannotSpeak.stream()
                            .mapToInt(c -> plan.pairsNeeded(nestedPlanned(c), comparisons))
                            .max()
                            .orElse(pairs));
        }
        notRun.forEach((cell, why) -> console.printf("not run on this host: %s: %s%n", cell, why));
        notMeasured.forEach((cell, why) -> console.printf("budget: not measured: %s: %s%n", cell, why));
        if (ask.budget().isPresent()) {
            // the first pass is always measured (without it nothing can be decided): said when it alone would
            // take longer than the budget, by the cost model's estimate (a pair: both sides' cell once, a side this
            // host skips in no time)
            double ms = cells.stream().mapToDouble(c -> firstPassMs.get(c.id())).sum();
            if (ms > ask.budget().get().toMillis()) {
                console.printf(
                        "warning: the first pass (%s of %d cells) is estimated at %s, beyond the %s budget: it"
                                + " runs anyway, and no later look fits; fewer cells (--cell) or a longer --budget%n",
                        signedRankPass > pairs ? pairs + "–" + signedRankPass + " pairs" : pairs + " pairs",
                        runs,
                        CellRecorder.formatDuration((long) ms),
                        ask.budgetText());
            }
        }
    }

    /** The looks, as the plan line says them. */
    private String looksWords(Ask ask) {
        double alpha = ask.alpha();
        return plan.looks().size() == 1
                ? "one look at alpha " + alpha
                : "looks at " + plan.looks() + " pairs, each at alpha " + alpha + " / "
                        + plan.looks().size()
                        + " (a group-sequential design: the false-alarm rate stays " + alpha + ")"
                        + ask.budget()
                                .map(b -> ", within " + ask.budgetText()
                                        + "; the last look the budget affords takes every pair it can and"
                                        + " tests at all the alpha left")
                                .orElse("");
    }

    /** Why the cells that cannot speak cannot: the test that judges them, and what it needs. */
    private String whyCannotSpeak() {
        return cannotSpeak.stream().allMatch(AbPlan::nestedPlanned)
                ? "the nested t needs " + NestedPaired.MIN_PAIRS + " pairs"
                : String.format(
                        Locale.ROOT,
                        "a cell whose forks measure fewer than %d iterations is judged by the signed-rank"
                                + " test, which needs 2 / 2^N ≤ %.3g, N ≥ %d",
                        NestedPaired.MIN_ITERATIONS,
                        plan.levelPerLook() / comparisons,
                        SequentialPlan.pairsNeeded(plan.levelPerLook(), comparisons));
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
            Duration budget,
            String budgetText) {
        List<Cell> order = cells.stream()
                // a cell this host will not run takes no time: nothing to fit
                .filter(c -> firstPassMs.get(c.id()) > 0)
                .sorted(Comparator.comparing((Cell c) -> !nestedPlanned(c))
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
                                Locale.ROOT,
                                "its first pass (%d pairs, about %s%s) does not fit the %s budget after the other"
                                        + " cells' (about %s); --budget %dm measures it",
                                firstPasses.get(cell.id()),
                                CellRecorder.formatDuration((long) ms),
                                nestedPlanned(cell) ? "" : ": one value a fork, so the signed-rank test's count",
                                budgetText,
                                CellRecorder.formatDuration((long) spent),
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
                .map(u -> Math.max(1, u.benchmarksPerVariant()))
                .orElse(1);
        return cell.workload().variants().size() * benchmarks;
    }
}
