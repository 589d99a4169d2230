package dev.loommatrix.runner.ab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.loommatrix.core.compare.Comparison;
import dev.loommatrix.core.plan.Cell;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sequential A/B loop ({@code ab --budget}) run whole — {@link AbRun#run} with its looks, the budget's last
 * look, futility, confirmation and its report — on a fake engine whose forks are drawn from a seeded model and a
 * clock that moves only by what the blocks would have taken. What compare.json records is held to what the engines
 * were asked to run and to the plan's own levels.
 */
class AbLoopTest {

    static final double ALPHA = 0.05;
    static final double THRESHOLD = 0.03;

    /** A steady cell: forks 2 % apart, iterations 1 %, the machine drifting 5 % from pair to pair; 8 s a fork. */
    static final FakeBackend.CellModel STEADY =
            new FakeBackend.CellModel(50, 0, 0.02, 0.01, 0.05, Duration.ofSeconds(8));

    static final String SLEEP_BOUND = "- {id: sleep-bound, variants: [virtual], params: {tasks: 1000, sleepMs: 50}}";

    static FakeAb.Options options(Duration budget) {
        return new FakeAb.Options(6, 40, THRESHOLD, ALPHA, budget);
    }

    @Test
    void anAaRunLooksAsPlannedUntilItsComparisonIsDecided(@TempDir Path dir) throws Exception {
        List<Cell> cells = FakeAb.cells(SLEEP_BOUND);
        String id = cells.get(0).id();
        FakeAb.Result run = FakeAb.run(dir, 1, cells, Map.of("sleep-bound", STEADY), options(Duration.ofMinutes(10)));

        var sequential = run.sequential();
        assertThat(sequential.looks()).isEqualTo(run.plan().looks()).containsExactly(6, 9, 14, 21, 32, 40);
        assertThat(sequential.ended()).isEqualTo("decided");
        assertThat(sequential.looksTaken()).isEqualTo(3);
        // each look after the first measured up to its planned pairs
        assertThat(run.console())
                .contains("look 2 of 6: 1 cells undecided, up to 9 pairs each")
                .contains("look 3 of 6: 1 cells undecided, up to 14 pairs each")
                .doesNotContain("look 4 of 6")
                .doesNotContain("budget's last");
        // the pairs recorded are the pairs the engines ran, the last look's
        assertThat(sequential.pairs()).containsExactly(Map.entry(id, 14));
        assertThat(run.pairsRun(id)).isEqualTo(14);
        // not the budget's last look: tested at α / J, the interval at 1 − α / J
        assertThat(sequential.lastLevel()).isEqualTo(run.plan().level(2, false)).isEqualTo(ALPHA / 6);
        Comparison c = run.report().comparisons().get(0);
        assertThat(c.verdict()).isEqualTo(Comparison.Verdict.unchanged);
        assertThat(c.test()).isEqualTo(Comparison.NESTED_T);
        assertThat(c.pairs()).isEqualTo(14);
        assertThat(c.ciLevel()).isCloseTo(1 - ALPHA / 6, within(1e-12));
        assertThat(c.ci95().get(0)).isGreaterThanOrEqualTo(1 / (1 + THRESHOLD));
        assertThat(c.ci95().get(1)).isLessThanOrEqualTo(1 + THRESHOLD);
        assertThat(c.confirmation()).isNull();
        assertThat(run.report().ab().remeasuredCells()).isEmpty();
        // the time recorded is the clock's: 14 pairs of 8 s forks, the first block's warmup fork on each side
        assertThat(run.took()).isEqualTo(Duration.ofSeconds(8 * (2 * 14 + 2)));
        assertThat(sequential.spentSeconds()).isEqualTo(run.took().toSeconds());
    }

    @Test
    void theAbCommentOpensWithWhatBothSidesConclude(@TempDir Path dir) throws Exception {
        // an A/A of a cell with two variants modelled alike: each side concludes "no difference" between them
        // (against the report's ±10 %, not the A/B's 3 % threshold, which is about builds), and the comment says the
        // answer is the same on both sides before any count
        List<Cell> cells = FakeAb.cells(
                "- {id: sleep-bound, variants: [virtual, \"pool:200\"], params: {tasks: 1000, sleepMs: 50}}");
        FakeAb.Result run = FakeAb.run(dir, 1, cells, Map.of("sleep-bound", STEADY), options(Duration.ofMinutes(10)));
        assertThat(run.report().conclusions()).isNotNull();
        assertThat(run.report().conclusions().changed()).isEmpty();
        assertThat(run.report().conclusions().alike()).isEqualTo(1);
        String md = java.nio.file.Files.readString(dir.resolve("compare.md"));
        assertThat(md).contains("**The answer is the same on both sides**: in the one condition both sides");
        assertThat(md.indexOf("The answer is the same")).isLessThan(md.indexOf("regression"));
    }

    /**
     * A comparison the looks cannot decide within the budget: the budget affords look 2 only, so look 2 is its last —
     * it takes every pair the budget affords past the plan's 9 (room kept to confirm one flag) and tests at all the α
     * look 1 left, α − α / 6, which compare.json states and the comparison's interval is drawn at.
     */
    @Test
    void theBudgetsLastLookTakesThePairsItAffordsAndTestsAtTheAlphaLeft(@TempDir Path dir) throws Exception {
        List<Cell> cells = FakeAb.cells(SLEEP_BOUND);
        String id = cells.get(0).id();
        var wider = new FakeBackend.CellModel(50, 0, 0.03, 0.01, 0.05, Duration.ofSeconds(8));
        FakeAb.Result run = FakeAb.run(dir, 2, cells, Map.of("sleep-bound", wider), options(Duration.ofMinutes(6)));

        var sequential = run.sequential();
        assertThat(sequential.ended()).isEqualTo("budget");
        assertThat(sequential.looksTaken()).isEqualTo(2);
        assertThat(run.console())
                .contains("look 2 of 6 (the budget's last: all α left): 1 cells undecided, up to 13 pairs each");
        assertThat(sequential.pairs()).containsExactly(Map.entry(id, 13));
        assertThat(run.pairsRun(id)).isEqualTo(13);
        assertThat(sequential.lastLevel())
                .isEqualTo(run.plan().level(1, true))
                .isCloseTo(ALPHA - ALPHA / 6, within(1e-12));
        Comparison c = run.report().comparisons().get(0);
        assertThat(c.ciLevel()).isCloseTo(1 - sequential.lastLevel(), within(1e-12));
        assertThat(c.pairs()).isEqualTo(13);
        assertThat(c.verdict()).isEqualTo(Comparison.Verdict.inconclusive);
        // the looks were planned within the budget, on the scripted clock
        assertThat(sequential.budgetSeconds()).isEqualTo(360);
        assertThat(sequential.spentSeconds()).isEqualTo(run.took().toSeconds()).isLessThanOrEqualTo(360);
    }

    /** A comparison too noisy to be decided in the pairs it could get is measured no more: the run ends futile. */
    @Test
    void aComparisonThatCannotBeDecidedStopsAndTheRunEndsFutile(@TempDir Path dir) throws Exception {
        List<Cell> cells = FakeAb.cells(SLEEP_BOUND);
        String id = cells.get(0).id();
        FakeAb.Result run = FakeAb.run(dir, 3, cells, Map.of("sleep-bound", HOPELESS), options(Duration.ofMinutes(10)));

        var sequential = run.sequential();
        assertThat(sequential.ended()).isEqualTo("futile");
        assertThat(sequential.looksTaken()).isEqualTo(2);
        assertThat(run.console())
                .contains("look 3: none of the 1 undecided comparisons could be decided within 40 pairs; stopping");
        assertThat(sequential.stopped()).containsOnlyKeys(id + " virtual");
        assertThat(sequential.stopped().get(id + " virtual")).endsWith("stopped after 9 pairs");
        assertThat(sequential.pairs()).containsExactly(Map.entry(id, 9));
        assertThat(run.pairsRun(id)).isEqualTo(9);
        assertThat(run.report().comparisons().get(0).verdict()).isEqualTo(Comparison.Verdict.inconclusive);
    }

    /**
     * Two cells, one hopeless: it stops after its first pass while the other goes on to the budget's last look; each
     * cell's pairs in compare.json are those its engines ran, and the budget's last look tests at α − 2α / 6.
     */
    @Test
    void aStoppedCellKeepsItsPairsWhileTheOtherGoesOn(@TempDir Path dir) throws Exception {
        List<Cell> cells =
                FakeAb.cells(SLEEP_BOUND + "\n- {id: thread-local, variants: [virtual], params: {tasks: 1000}}");
        String steady = cells.get(0).id();
        String noisy = cells.get(1).id();
        assertThat(noisy).endsWith("thread-local");
        FakeAb.Result run = FakeAb.run(
                dir,
                3,
                cells,
                Map.of("sleep-bound", STEADY, "thread-local", HOPELESS),
                options(Duration.ofMinutes(10)));

        var sequential = run.sequential();
        assertThat(sequential.stopped()).containsOnlyKeys(noisy + " virtual");
        assertThat(sequential.stopped().get(noisy + " virtual")).endsWith("stopped after 6 pairs");
        assertThat(sequential.pairs()).containsExactly(Map.entry(steady, 20), Map.entry(noisy, 6));
        assertThat(run.pairsRun(steady)).isEqualTo(20);
        assertThat(run.pairsRun(noisy)).isEqualTo(6);
        assertThat(run.console())
                .contains("look 2 of 6: 1 cells undecided, up to 9 pairs each; 1 comparisons measured no more")
                .contains("look 3 of 6 (the budget's last: all α left): 1 cells undecided, up to 20 pairs each");
        assertThat(sequential.looksTaken()).isEqualTo(3);
        assertThat(sequential.ended()).isEqualTo("budget");
        assertThat(sequential.lastLevel()).isCloseTo(ALPHA - 2 * ALPHA / 6, within(1e-12));
    }

    /** A change flagged at a look is measured again — as many pairs as the first pass — and counts once confirmed. */
    @Test
    void aFlaggedChangeIsConfirmedWithMorePairsBeforeItCounts(@TempDir Path dir) throws Exception {
        List<Cell> cells = FakeAb.cells(SLEEP_BOUND);
        String id = cells.get(0).id();
        FakeAb.Result run = FakeAb.run(
                dir, 4, cells, Map.of("sleep-bound", STEADY.withEffect(0.20)), options(Duration.ofMinutes(10)));

        var sequential = run.sequential();
        assertThat(sequential.looksTaken()).isEqualTo(1);
        assertThat(sequential.ended()).isEqualTo("decided");
        assertThat(run.console()).contains("confirming 1 cells (6 more pairs each)");
        assertThat(run.report().ab().remeasuredCells()).containsExactly(id);
        assertThat(run.report().ab().confirmBlocks()).isEqualTo(6);
        // the first look's 6 pairs and 6 more, blocks 6 … 11 run after the look
        assertThat(sequential.pairs()).containsExactly(Map.entry(id, 12));
        assertThat(run.pairsRun(id)).isEqualTo(12);
        assertThat(run.candidate())
                .extracting(FakeBackend.Ran::pair)
                .containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
        Comparison c = run.report().comparisons().get(0);
        assertThat(c.verdict()).isEqualTo(Comparison.Verdict.regression);
        assertThat(c.confirmation()).isEqualTo(new Comparison.Confirmation(6, Comparison.Verdict.regression, true));
        assertThat(c.pairs()).isEqualTo(12);
        assertThat(c.ratio()).isBetween(1.15, 1.25);
        assertThat(run.report().regressions()).isEqualTo(1);
    }

    /** A cell whose forks are 30 % apart: no look within 40 pairs could decide it at a 3 % threshold. */
    static final FakeBackend.CellModel HOPELESS =
            new FakeBackend.CellModel(50, 0, 0.30, 0.01, 0.05, Duration.ofSeconds(8));
}
