package dev.loommatrix.runner.ab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.compare.Comparison;
import dev.loommatrix.core.compare.SequentialPlan;
import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.Planner;
import dev.loommatrix.runner.run.MatrixRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decisions after each look (issue #30), from the plan, the pace each cell's pairs kept and the comparisons of
 * the look just taken: which cells go on and how far, which comparisons stop (futility), when the budget ends
 * measuring, which look is the last, what confirmation measures, and why the run ended. The expected numbers are
 * worked out by hand below each case.
 */
class LookSchedulerTest {

    /** Looks at 6, 9, 14, 21, 32, 40 pairs; α 0.05, 0.00833 a look. */
    static final SequentialPlan PLAN = SequentialPlan.of(6, 40, 0.05);

    static final double THRESHOLD = 0.03;

    /** sleep-bound (cell 0) and thread-local (cell 1), two variants each. */
    static AbSides.Matched matched;

    static String sleep;
    static String local;

    @BeforeAll
    static void cells(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(
                dir.resolve("m.yaml"),
                """
                schema: 1
                jdks: [{id: t25, vm: hotspot, version: 25, image: "eclipse-temurin:25-jdk"}]
                cpus: [2]
                workloads:
                  - {id: sleep-bound, variants: [virtual, "pool:200"], params: {tasks: 100, sleepMs: 5}}
                  - {id: thread-local, variants: [virtual, "pool:cpus"], params: {tasks: 1000}}
                repetitions: 1
                warmup: 0
                """);
        List<Cell> cells = Planner.plan(MatrixParser.parse(file, Optional.empty()));
        matched = AbSides.match(cells, cells, Optional.empty(), Optional.empty());
        sleep = matched.pairs().get(0).candidate().id();
        local = matched.pairs().get(1).candidate().id();
    }

    private static LookScheduler scheduler(Optional<Duration> budget) {
        return new LookScheduler(
                new AbRun.Settings(
                        PLAN,
                        Map.of(),
                        6,
                        THRESHOLD,
                        budget,
                        MatrixRun.BackendChoice.LOCAL,
                        Map.of(),
                        MatrixRun.OnDisturbed.RERUN,
                        400,
                        AbRun.Pairing.BACK_TO_BACK),
                matched);
    }

    /** A pair of sleep-bound takes 2 s, of thread-local 1 s; what a variant's JVM takes is not known (all of it). */
    private static Pace pace() {
        return new Pace(matched, new double[] {2_000, 1_000}, id -> Optional.empty());
    }

    @Test
    void theFirstLookIsTheLastWhenNotOneMoreRoundFitsTheBudget() {
        LookScheduler ten = scheduler(Optional.of(Duration.ofMinutes(10)));
        // a round is 3 s: after 597 s it fits (600 s), after 597.001 s it does not
        assertThat(ten.firstIsLast(597_000, pace())).isFalse();
        assertThat(ten.firstIsLast(597_001, pace())).isTrue();
        assertThat(ten.endedAtFirst(true)).isEqualTo("budget");
        // no budget: the plan's looks, however long they take
        assertThat(scheduler(Optional.empty()).firstIsLast(10_000_000, pace())).isFalse();
        // a plan of one look: that look is the plan's last, not the budget's
        LookScheduler one = new LookScheduler(
                new AbRun.Settings(
                        SequentialPlan.of(6, 6, 0.05),
                        Map.of(),
                        6,
                        THRESHOLD,
                        Optional.empty(),
                        MatrixRun.BackendChoice.LOCAL,
                        Map.of(),
                        MatrixRun.OnDisturbed.RERUN,
                        400,
                        AbRun.Pairing.BACK_TO_BACK),
                matched);
        assertThat(one.firstIsLast(0, pace())).isTrue();
        assertThat(one.endedAtFirst(true)).isEqualTo("last-look");
    }

    @Test
    void everyComparisonDecidedEndsTheLooks() {
        LookScheduler looks = scheduler(Optional.empty());
        List<Comparison> decided = List.of(
                unchanged(sleep, "virtual"),
                unchanged(sleep, "pool:200"),
                regression(local, "virtual"),
                unchanged(local, "pool:cpus"));
        assertThat(looks.after(0, decided, Map.of(), new int[] {6, 6}, pace(), OptionalLong.empty()))
                .isEqualTo(new LookScheduler.Decision.Done("decided"));
        // the rest measured no more: the looks ended for futility
        List<Comparison> oneOpen = List.of(undecided(sleep, "virtual", 0.5), unchanged(sleep, "pool:200"));
        assertThat(looks.after(
                        1,
                        oneOpen,
                        Map.of(sleep + " virtual", "futile"),
                        new int[] {9, 9},
                        pace(),
                        OptionalLong.empty()))
                .isEqualTo(new LookScheduler.Decision.Done("futile"));
    }

    /**
     * Without a budget: the plan's next look (9 pairs) for the one cell still undecided, measuring only the variant of
     * its open comparison; futility asks about the plan's most, 40 pairs.
     */
    @Test
    void withoutABudgetTheNextLookIsThePlansForTheUndecidedVariantsOnly() {
        List<Comparison> comparisons = List.of(
                undecided(sleep, "pool:200", 0.01),
                unchanged(sleep, "virtual"),
                unchanged(local, "virtual"),
                unchanged(local, "pool:cpus"));
        var decision = scheduler(Optional.empty())
                .after(0, comparisons, Map.of(), new int[] {6, 6}, pace(), OptionalLong.empty());
        var measure = (LookScheduler.Decision.Measure) decision;
        assertThat(measure.next().cells()).containsExactly(0);
        assertThat(measure.next().pairs()).isEqualTo(9);
        assertThat(measure.next().last()).isFalse();
        assertThat(measure.variants()).containsOnlyKeys(0);
        assertThat(measure.variants().get(0)).containsExactly("pool:200");
        assertThat(measure.most()).isEqualTo(40);
        assertThat(measure.stopped()).isEmpty();
        // three more pairs at 2 s each
        assertThat(measure.next().ms()).isEqualTo(6_000);
    }

    /**
     * Futility: a comparison whose noise (66 % a pair) leaves its interval far wider than ±3 % even at 40 pairs is
     * measured no more, said with its numbers; when none is left that could be decided, the looks stop.
     */
    @Test
    void comparisonsThatCannotBeDecidedAreMeasuredNoMoreAndNoneLeftStopsTheLooks() {
        List<Comparison> noisy = List.of(
                undecided(sleep, "virtual", 0.66),
                unchanged(sleep, "pool:200"),
                unchanged(local, "virtual"),
                unchanged(local, "pool:cpus"));
        var decision =
                scheduler(Optional.empty()).after(0, noisy, Map.of(), new int[] {6, 6}, pace(), OptionalLong.empty());
        var futile = (LookScheduler.Decision.Futile) decision;
        assertThat(futile.undecided()).isEqualTo(1);
        assertThat(futile.most()).isEqualTo(40);
        assertThat(futile.stopped()).containsOnlyKeys(sleep + " virtual");
        assertThat(futile.stopped().get(sleep + " virtual"))
                .startsWith("at its noise (66.0 % a pair) its interval would still be ±")
                .contains("% at 40 pairs, too wide to clear ±3 % either side from +0.0 %; stopped after 6 pairs");

        // beside one that can still be decided: that one goes on, the noisy one is stopped
        List<Comparison> mixed = List.of(
                undecided(sleep, "virtual", 0.66),
                undecided(local, "virtual", 0.01),
                unchanged(sleep, "pool:200"),
                unchanged(local, "pool:cpus"));
        var measure = (LookScheduler.Decision.Measure)
                scheduler(Optional.empty()).after(0, mixed, Map.of(), new int[] {6, 6}, pace(), OptionalLong.empty());
        assertThat(measure.stopped()).containsOnlyKeys(sleep + " virtual");
        assertThat(measure.next().cells()).containsExactly(1);
        assertThat(measure.variants().get(1)).containsExactly("virtual");
    }

    /**
     * The budget's last look: one cell undecided at 6 pairs, 2 s a pair, 6 pairs × 2 s = 12 s kept to confirm a flag.
     * 25 s left: the plan's next look (9 pairs, 6 s) fits, but the worst case after it (14 pairs, 16 s + 12 s) does
     * not, so the next look is the last and takes every pair that fits with the reserve kept: (t − 6) × 2 s + 12 s ≤
     * 25 s, t = 12 (12 s). No pair more fits beside it (14 s > 13 s).
     */
    @Test
    void theBudgetsLastLookTakesEveryPairThatFitsWithRoomToConfirm() {
        List<Comparison> comparisons = List.of(
                undecided(sleep, "virtual", 0.01),
                unchanged(sleep, "pool:200"),
                unchanged(local, "virtual"),
                unchanged(local, "pool:cpus"));
        // a cell priced whole: both its variants' comparisons open
        List<Comparison> whole = List.of(
                undecided(sleep, "virtual", 0.01),
                undecided(sleep, "pool:200", 0.01),
                unchanged(local, "virtual"),
                unchanged(local, "pool:cpus"));
        LookScheduler budgeted = scheduler(Optional.of(Duration.ofMinutes(10)));
        for (List<Comparison> open : List.of(comparisons, whole)) {
            var measure = (LookScheduler.Decision.Measure)
                    budgeted.after(0, open, Map.of(), new int[] {6, 6}, pace(), OptionalLong.of(25_000));
            assertThat(measure.next().last()).isTrue();
            assertThat(measure.next().pairs()).isEqualTo(12);
            assertThat(measure.next().onePairMore()).isEmpty();
            assertThat(measure.next().ms()).isEqualTo(12_000);
            // futility asks about the pairs this last look gives
            assertThat(measure.most()).isEqualTo(12);
        }
        // 35 s: the worst case after it fits (16 s + 12 s = 28 s), so the next look is the plan's 9 pairs
        var plans = (LookScheduler.Decision.Measure)
                budgeted.after(0, comparisons, Map.of(), new int[] {6, 6}, pace(), OptionalLong.of(35_000));
        assertThat(plans.next().last()).isFalse();
        assertThat(plans.next().pairs()).isEqualTo(9);
    }

    /** 1 s left: not one more pair (2 s) fits; the run stops, the budget spent. */
    @Test
    void notOneMorePairFittingEndsTheLooks() {
        List<Comparison> comparisons = List.of(
                undecided(sleep, "virtual", 0.01),
                unchanged(sleep, "pool:200"),
                unchanged(local, "virtual"),
                unchanged(local, "pool:cpus"));
        var decision = scheduler(Optional.of(Duration.ofMinutes(10)))
                .after(2, comparisons, Map.of(), new int[] {14, 14}, pace(), OptionalLong.of(1_000));
        var spent = (LookScheduler.Decision.OutOfBudget) decision;
        assertThat(spent.leftMs()).isEqualTo(1_000);
        assertThat(spent.next().pairs()).isEqualTo(21);
        assertThat(spent.next().cells()).containsExactly(0);
        assertThat(spent.next().fits()).isFalse();
    }

    @Test
    void confirmationMeasuresTheFlaggedVariantsOfTheFlaggedCells() {
        Map<Integer, List<String>> confirm = scheduler(Optional.empty())
                .toConfirm(List.of(
                        unchanged(sleep, "virtual"), regression(local, "pool:cpus"), unchanged(local, "virtual")));
        assertThat(confirm).containsOnlyKeys(1);
        assertThat(confirm.get(1)).containsExactly("pool:cpus");
        // 6 pairs of thread-local (1 s a pair, priced whole: what its JVMs take is not known)
        assertThat(pace().confirmingMs(confirm, 6)).isEqualTo(6_000);
    }

    /** Decided, when the last look (the plan's or the budget's) left every comparison decided; else as it was. */
    @Test
    void theRunEndedDecidedOnlyWhenTheLastLookLeftEveryComparisonDecided() {
        LookScheduler looks = scheduler(Optional.of(Duration.ofMinutes(10)));
        List<Comparison> allDecided = List.of(unchanged(sleep, "virtual"), regression(local, "virtual"));
        List<Comparison> oneOpen = List.of(unchanged(sleep, "virtual"), undecided(local, "virtual", 0.1));
        // the budget's last look (look 3 of 6)
        assertThat(looks.ended("budget", 2, true, allDecided)).isEqualTo("decided");
        assertThat(looks.ended("budget", 2, true, oneOpen)).isEqualTo("budget");
        // the plan's last look
        assertThat(looks.ended("last-look", 5, false, allDecided)).isEqualTo("decided");
        assertThat(looks.ended("last-look", 5, false, oneOpen)).isEqualTo("last-look");
        // stopped before any last look: as the looks left it
        assertThat(looks.ended("futile", 3, false, allDecided)).isEqualTo("futile");
    }

    private static Comparison unchanged(String cell, String variant) {
        return comparison(cell, variant, 1.0, 0.99, 1.01, Comparison.Verdict.unchanged, 0.01);
    }

    private static Comparison regression(String cell, String variant) {
        return comparison(cell, variant, 1.2, 1.15, 1.25, Comparison.Verdict.regression, 0.01);
    }

    private static Comparison undecided(String cell, String variant, double noise) {
        return comparison(cell, variant, 1.0, 0.9, 1.1, Comparison.Verdict.inconclusive, noise);
    }

    private static Comparison comparison(
            String cell,
            String variant,
            double ratio,
            double low,
            double high,
            Comparison.Verdict verdict,
            double noise) {
        return new Comparison(
                cell,
                variant,
                "wallMs",
                false,
                new Comparison.Side(6, 100),
                new Comparison.Side(6, 100 * ratio),
                ratio,
                List.of(low, high),
                0.5,
                0.5,
                verdict,
                Optional.empty(),
                0.99,
                Comparison.NESTED_T,
                6,
                0.2,
                noise,
                null,
                null);
    }
}
