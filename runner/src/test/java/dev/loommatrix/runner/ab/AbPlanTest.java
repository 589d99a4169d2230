package dev.loommatrix.runner.ab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.compare.SequentialPlan;
import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.Planner;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * ab's plan (issue #30): a cell whose forks measure iterations starts at the first look (the nested t speaks from 4
 * pairs); a cell of one value a fork waits for the look at which the signed-rank test can speak — what the
 * repository's own quick profile asks of a pull request's 10-minute budget.
 */
class AbPlanTest {

    /** The repository's quick profile on the offline images, its JDK 25 cells: what pr.yml's A/B once ran. */
    static List<Cell> quickJdk25Cells() throws Exception {
        return Planner.plan(MatrixParser.parse(Path.of("../matrix.yaml"), Optional.of("offline"))).stream()
                .filter(c -> c.jdk().id().equals("debian-25"))
                .toList();
    }

    @Test
    void eachCellsFirstPassIsTheFirstLookAtWhichItsTestCanSpeak() throws Exception {
        List<Cell> cells = quickJdk25Cells();
        long comparisons = cells.stream().mapToLong(AbPlan::comparisonsOf).sum();
        SequentialPlan plan = SequentialPlan.of(6, 40, 0.05);
        Map<String, Integer> byWorkload =
                AbPlan.firstPasses(cells, plan, Optional.empty(), comparisons).entrySet().stream()
                        .collect(Collectors.toMap(
                                e -> e.getKey().substring(e.getKey().lastIndexOf('.') + 1), Map.Entry::getValue));
        int signedRank = plan.firstPass(false, comparisons);
        assertThat(signedRank).isGreaterThan(6);
        // 1 warmup + 5 measured iterations a fork: the nested t, from the first look
        assertThat(byWorkload)
                .containsEntry("sleep-bound", 6)
                .containsEntry("primes-io", 6)
                .containsEntry("fib-fanout", 6)
                .containsEntry("thread-local", 6);
        // one window per fresh server, one memory delta per fork, one load window (iterations: {measure: 1})
        assertThat(byWorkload)
                .containsEntry("spring-boot", signedRank)
                .containsEntry("footprint", signedRank)
                .containsEntry("http-server", signedRank);
        // --blocks is measured as asked
        assertThat(AbPlan.firstPasses(cells, plan, Optional.of(3), comparisons).values())
                .containsOnly(3);
    }

    @Test
    void aBudgetIsKeptByLeavingOutTheCellsWhoseFirstPassWouldNotFit() throws Exception {
        List<Cell> cells = quickJdk25Cells();
        long comparisons = cells.stream().mapToLong(AbPlan::comparisonsOf).sum();
        Map<String, Integer> firstPasses =
                AbPlan.firstPasses(cells, SequentialPlan.of(6, 40, 0.05), Optional.empty(), comparisons);
        double all = cells.stream()
                .mapToDouble(c -> PairCost.pairMs(c) * firstPasses.get(c.id()))
                .sum();
        assertThat(all).isGreaterThan(java.time.Duration.ofMinutes(10).toMillis());
        // 10 minutes: the spring-boot servers' 14 pairs (one window a fresh server) do not fit after the rest
        Map<String, Double> firstPassMs =
                cells.stream().collect(Collectors.toMap(Cell::id, c -> PairCost.pairMs(c) * firstPasses.get(c.id())));
        Map<String, String> out =
                AbPlan.outOfBudget(cells, firstPasses, firstPassMs, java.time.Duration.ofMinutes(10), "10m");
        assertThat(out.keySet()).singleElement().asString().endsWith(".spring-boot");
        assertThat(out.values().iterator().next())
                .contains("its first pass (14 pairs, about ")
                .contains("one value a fork, so the signed-rank test's count")
                .contains("does not fit the 10m budget after the other cells'")
                .containsPattern("--budget \\d+m measures it");
        double kept = cells.stream()
                .filter(c -> !out.containsKey(c.id()))
                .mapToDouble(c -> PairCost.pairMs(c) * firstPasses.get(c.id()))
                .sum();
        assertThat(kept).isLessThanOrEqualTo(java.time.Duration.ofMinutes(10).toMillis());
        // a budget that holds them all leaves nothing out; one smaller than any first pass still measures one cell
        assertThat(AbPlan.outOfBudget(cells, firstPasses, firstPassMs, java.time.Duration.ofMinutes(30), "30m"))
                .isEmpty();
        assertThat(AbPlan.outOfBudget(cells, firstPasses, firstPassMs, java.time.Duration.ofSeconds(1), "1s"))
                .hasSize(cells.size() - 1);
    }

    /**
     * Two JDK entries, four workloads whose forks measure iterations (each cell's first pass is the nested t's 6
     * pairs, whatever the count of comparisons): jdk-21's cells plan first, at the same cost as jdk-25's.
     */
    static List<Cell> twoJdksCells(Path dir) throws Exception {
        Path file = dir.resolve("m.yaml");
        java.nio.file.Files.writeString(
                file,
                """
                schema: 1
                jdks:
                  - {id: jdk-21, vm: hotspot, version: 21, image: "local/debian-openjdk:21"}
                  - {id: jdk-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
                cpus: [2]
                workloads:
                  - {id: sleep-bound, variants: [virtual, "pool:200"], params: {tasks: 1000, sleepMs: 20}}
                  - {id: primes-io, variants: [virtual, "pool:cpus"], params: {tasks: 50}}
                  - {id: fib-fanout, variants: [sequential, caller-virtual], params: {n: 22, calls: 200}}
                  - {id: thread-local, variants: [virtual, "pool:cpus"], params: {tasks: 10000}}
                repetitions: 3
                warmup: 0
                iterations: {warmup: 1, measure: 5}
                """);
        return Planner.plan(MatrixParser.parse(file, Optional.empty()));
    }

    /**
     * Cells this host cannot run (a JDK it lacks) are skipped in no time: they cost the budget nothing, are never
     * left out for it, and are said as what they are. A 3-minute budget once measured 1 of 8 runnable cells: the
     * other 7 "did not fit after the other cells' (about 2m48s)" — four JDK 21 cells the host skipped in 0 s.
     */
    @Test
    void cellsThisHostCannotRunCostTheBudgetNothingAndAreNeverLeftOutForIt(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        List<Cell> cells = twoJdksCells(dir);
        List<Cell> jdk21 =
                cells.stream().filter(c -> c.jdk().id().equals("jdk-21")).toList();
        List<Cell> jdk25 =
                cells.stream().filter(c -> c.jdk().id().equals("jdk-25")).toList();
        assertThat(jdk21).hasSize(4);
        assertThat(jdk25).hasSize(4);
        Map<String, String> no21 = jdk21.stream()
                .collect(Collectors.toMap(Cell::id, c -> "no JDK 21 (hotspot) on this host", (a, b) -> a));
        // the budget: the runnable cells' first passes (6 pairs each, both sides), and a little
        double runnableMs =
                jdk25.stream().mapToDouble(c -> PairCost.pairMs(c) * 6).sum();
        var budget = java.time.Duration.ofSeconds((long) Math.ceil(runnableMs * 1.05 / 1000));
        AbPlan.Ask ab = ask(Optional.empty(), Optional.of(budget), budget.toSeconds() + "s");

        // a host that runs every cell: jdk-21's first passes come first, and jdk-25's do not fit after them
        var everything = AbPlan.of(cells, ab, HostRuns.EVERY_CELL);
        assertThat(everything.notMeasured().keySet()).containsAnyElementsOf(ids(jdk25));
        assertThat(everything.notRun()).isEmpty();

        // this host: jdk-21's cells cost nothing, every jdk-25 cell is measured, and none is "not measured"
        var here = AbPlan.of(cells, ab, new HostRuns(no21, no21));
        assertThat(here.notMeasured()).isEmpty();
        assertThat(here.measured(cells)).containsExactlyElementsOf(cells); // skipped cells still go to the run
        assertThat(here.firstPasses()).containsAllEntriesOf(Map.of(jdk25.get(0).id(), 6));
        assertThat(here.notRun()).containsExactlyInAnyOrderEntriesOf(no21);
        // their comparisons cannot be made: not counted among the comparisons, not warned of
        assertThat(here.comparisons()).isEqualTo(8);
        assertThat(here.cannotSpeak()).isEmpty();
        assertThat(announced(ab, here, here.measured(cells)))
                .contains("not run on this host: " + jdk21.get(0).id() + ": no JDK 21 (hotspot) on this host\n")
                .doesNotContain("budget: not measured")
                .doesNotContain("warning");

        // a JDK one side lacks: that side is skipped, the other measured (half the pair's cost); no comparison
        var oneSide = AbPlan.of(cells, ab, new HostRuns(no21, Map.of()));
        String first21 = jdk21.get(0).id();
        assertThat(here.firstPassMs().get(first21)).isZero();
        assertThat(everything.firstPassMs().get(first21)).isPositive();
        assertThat(oneSide.firstPassMs().get(first21))
                .isEqualTo(everything.firstPassMs().get(first21) / 2);
        assertThat(oneSide.notRun()).containsEntry(first21, "the baseline side: no JDK 21 (hotspot) on this host");
        assertThat(oneSide.comparisons()).isEqualTo(8);
    }

    private static List<String> ids(List<Cell> cells) {
        return cells.stream().map(Cell::id).toList();
    }

    /**
     * What ab says before it measures (issue #30: "ab --blocks 2 was accepted without a word"): a first pass too short
     * for a cell's test, with the knob that applies and the pairs that would do; the cells a budget leaves out; a
     * first pass estimated beyond the budget.
     */
    @Test
    void aPlanThatCannotReachAVerdictIsSaidBeforeMeasuringWithTheKnobThatApplies() throws Exception {
        List<Cell> cells = quickJdk25Cells();
        AbPlan.Ask ab = ask(Optional.of(2), Optional.empty(), null);
        var layout = AbPlan.of(cells, ab, HostRuns.EVERY_CELL);
        int signedRank = SequentialPlan.pairsNeeded(layout.plan().levelPerLook(), layout.comparisons());
        assertThat(layout.cannotSpeak()).hasSameSizeAs(cells);
        assertThat(announced(ab, layout, cells))
                .contains("2 pairs per cell (+2 to confirm a flagged change)")
                .contains("plan: about " + layout.comparisons() + " comparisons; one look at alpha 0.05")
                .contains("warning: with 2 pairs, " + cells.size() + " of " + cells.size()
                        + " cells cannot show a change among " + layout.comparisons() + " comparisons")
                .contains("is judged by the signed-rank test, which needs 2 / 2^N")
                .contains("N ≥ " + signedRank)
                .contains("--blocks " + signedRank + ", or fewer comparisons (--cell)")
                .doesNotContain("budget");

        // the defaults within 10 minutes: every cell can speak; the servers' first pass does not fit and is said
        ab = ask(Optional.empty(), Optional.of(java.time.Duration.ofMinutes(10)), "10m");
        var budgeted = AbPlan.of(cells, ab, HostRuns.EVERY_CELL);
        assertThat(budgeted.cannotSpeak()).isEmpty();
        String said = announced(ab, budgeted, budgeted.measured(cells));
        assertThat(said)
                .contains("6 pairs per cell (" + budgeted.longestFirstPass() + " for a cell whose forks measure no"
                        + " iterations")
                .contains("each at alpha 0.05 / " + budgeted.plan().looks().size())
                .contains("within 10m; the last look the budget affords")
                .containsPattern("budget: not measured: \\S+\\.spring-boot: its first pass")
                .doesNotContain("warning");

        // a budget smaller than the one cell it keeps: measured anyway, said
        ab = ask(Optional.empty(), Optional.of(java.time.Duration.ofSeconds(1)), "1s");
        var tiny = AbPlan.of(cells, ab, HostRuns.EVERY_CELL);
        assertThat(announced(ab, tiny, tiny.measured(cells)))
                .contains("warning: the first pass (")
                .contains("beyond the 1s budget: it runs anyway");
    }

    /** What ab's options ask at alpha 0.05, the sides called baseline and candidate. */
    private static AbPlan.Ask ask(Optional<Integer> blocks, Optional<java.time.Duration> budget, String budgetText) {
        return new AbPlan.Ask(blocks, Optional.empty(), 0.05, budget, budgetText, "baseline", "candidate");
    }

    private static String announced(AbPlan.Ask ask, AbPlan layout, List<Cell> cells) {
        var text = new java.io.ByteArrayOutputStream();
        layout.announce(
                new java.io.PrintStream(text, true, java.nio.charset.StandardCharsets.UTF_8),
                cells,
                "ab-test",
                layout.plan().firstPass(),
                Path.of("results", "ab-test"),
                ask);
        return text.toString(java.nio.charset.StandardCharsets.UTF_8);
    }
}
