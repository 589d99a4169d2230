package dev.loommatrix.runner.ab;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The next look of a sequential A/B run within a budget (issue #30), decided from what each cell's pairs took. */
class NextLookTest {

    static final List<Integer> LOOKS = List.of(6, 9, 14, 21, 32, 40);

    // the ab profile after its first pass (6 pairs each), as a real A/A run measured its cells: seconds a pair
    static final double[] MS_PER_PAIR = {10_000, 4_000, 9_000, 5_300, 3_200, 7_800, 4_300};
    static final int[] SIX_PAIRS = {6, 6, 6, 6, 6, 6, 6};
    static final Set<Integer> UNDECIDED = Set.of(0, 1, 2, 3, 5, 6); // cell 4 decided at the first look

    @Test
    void withoutABudgetTheNextLookIsThePlansForTheUndecidedCells() {
        NextLook next = NextLook.after(LOOKS, 0, 40, SIX_PAIRS, MS_PER_PAIR, UNDECIDED, OptionalLong.empty(), 0);
        assertThat(next.cells()).containsExactly(0, 1, 2, 3, 5, 6);
        assertThat(next.pairs()).isEqualTo(9);
        assertThat(next.last()).isFalse();
        assertThat(next.fits()).isTrue();
        assertThat(next.ms()).isEqualTo((long) (3 * (10_000 + 4_000 + 9_000 + 5_300 + 7_800 + 4_300)));
        // after the plan's last look but one, the next is the last
        assertThat(NextLook.after(LOOKS, 4, 40, SIX_PAIRS, MS_PER_PAIR, UNDECIDED, OptionalLong.empty(), 0)
                        .last())
                .isTrue();
    }

    @Test
    void aCellAlreadyPastTheNextLookWaitsForTheOneBeyond() {
        int[] pairs = {6, 6, 10, 6, 6, 6, 6}; // cell 2's first pass went past look 2
        NextLook next = NextLook.after(LOOKS, 0, 40, pairs, MS_PER_PAIR, UNDECIDED, OptionalLong.empty(), 0);
        assertThat(next.cells()).doesNotContain(2, 4);
    }

    @Test
    void aBudgetThatAffordsTheLookAfterTheNextLeavesTheNextAsPlanned() {
        NextLook next =
                NextLook.after(LOOKS, 0, 40, SIX_PAIRS, MS_PER_PAIR, UNDECIDED, OptionalLong.of(1_000_000), 60_000);
        assertThat(next.pairs()).isEqualTo(9);
        assertThat(next.last()).isFalse();
    }

    @Test
    void whenTheLookAfterTheNextCannotBeAffordedTheNextTakesEveryPairTheBudgetAffords() {
        // 40.4 s a round of the six undecided cells, 330 s left, 60 s kept to confirm a flag: look 3 (14 pairs,
        // 323 s) would not fit with it, so look 2 is the last and takes 6 more pairs (242 s), not the plan's 3;
        // the 27.6 s beside them give the four cheapest cells (4.0, 4.3, 5.3, 7.8 s a pair) one pair more
        NextLook next =
                NextLook.after(LOOKS, 0, 40, SIX_PAIRS, MS_PER_PAIR, UNDECIDED, OptionalLong.of(330_000), 60_000);
        assertThat(next.last()).isTrue();
        assertThat(next.pairs()).isEqualTo(12);
        assertThat(next.onePairMore()).containsExactlyInAnyOrder(1, 6, 3, 5);
        assertThat(next.pairsOf(1)).isEqualTo(13);
        assertThat(next.pairsOf(0)).isEqualTo(12);
        assertThat(next.ms()).isEqualTo(6 * 40_400L + 21_400);
        assertThat(next.ms() + 60_000).isLessThanOrEqualTo(330_000);
        // a look that is not the last gives nothing beyond the plan's
        assertThat(NextLook.after(LOOKS, 0, 40, SIX_PAIRS, MS_PER_PAIR, UNDECIDED, OptionalLong.of(1_000_000), 60_000)
                        .onePairMore())
                .isEmpty();
    }

    @Test
    void whenThePlansNextLookDoesNotFitTheLastTakesThePairsThatDoKeepingRoomToConfirm() {
        // 2 more pairs (80.8 s) fit beside the 60 s kept, the plan's 3 (121.2 s) do not
        NextLook next =
                NextLook.after(LOOKS, 0, 40, SIX_PAIRS, MS_PER_PAIR, UNDECIDED, OptionalLong.of(150_000), 60_000);
        assertThat(next.last()).isTrue();
        assertThat(next.pairs()).isEqualTo(8);
        assertThat(next.onePairMore()).containsExactlyInAnyOrder(1, 6); // 8.3 of the 9.2 s beside them
        // no room for a pair beside the reserve: the reserve is spent on one more pair rather than none
        NextLook tight =
                NextLook.after(LOOKS, 0, 40, SIX_PAIRS, MS_PER_PAIR, UNDECIDED, OptionalLong.of(90_000), 60_000);
        assertThat(tight.pairs()).isEqualTo(8);
        assertThat(tight.fits()).isTrue();
        // not one more pair of them fits: the run stops
        NextLook none =
                NextLook.after(LOOKS, 0, 40, SIX_PAIRS, MS_PER_PAIR, UNDECIDED, OptionalLong.of(30_000), 60_000);
        assertThat(none.fits()).isFalse();
    }

    @Test
    void theBudgetsLastLookTakesNoMoreThanThePlansMostPairs() {
        int[] pairs = {21, 21, 21, 21, 21, 21, 21};
        // 100,000 s left: look 5 (32 pairs, 444 s) and the one after (40 pairs, 768 s) both fit: as planned
        NextLook planned = NextLook.after(LOOKS, 3, 40, pairs, MS_PER_PAIR, UNDECIDED, OptionalLong.of(100_000_000), 0);
        assertThat(planned.pairs()).isEqualTo(32);
        assertThat(planned.last()).isFalse();
        // 600 s left: 40 pairs would not fit, so look 5 is the last with all that do (14 more pairs, 566 s)
        NextLook last = NextLook.after(LOOKS, 3, 40, pairs, MS_PER_PAIR, UNDECIDED, OptionalLong.of(600_000), 0);
        assertThat(last.last()).isTrue();
        assertThat(last.pairs()).isEqualTo(35);
        assertThat(last.onePairMore()).containsExactlyInAnyOrder(1, 6, 3, 5, 2); // 30.4 of the 34.4 s left
        // never beyond the plan's most pairs
        NextLook capped = NextLook.after(LOOKS, 3, 34, pairs, MS_PER_PAIR, UNDECIDED, OptionalLong.of(600_000), 0);
        assertThat(capped.pairs()).isEqualTo(34);
        assertThat(capped.onePairMore()).isEmpty();
    }

    /**
     * A cheap cell (the example program: 3 s a pair) still undecided at 32 pairs, 480 s of the budget left, 60 s kept
     * to confirm: the plan's last look (40) would leave most of the budget unspent; given room past it (the CLI's
     * default without --max-pairs), the last look takes every pair that fits — 172 pairs, 420 s.
     */
    @Test
    void aCheapCellsLastLookTakesEveryPairTheBudgetAffordsPastThePlansLast() {
        int[] pairs = {32};
        double[] msPerPair = {3_000};
        NextLook capped = NextLook.after(LOOKS, 4, 40, pairs, msPerPair, Set.of(0), OptionalLong.of(480_000), 60_000);
        assertThat(capped.last()).isTrue();
        assertThat(capped.pairs()).isEqualTo(40);
        NextLook open = NextLook.after(LOOKS, 4, 400, pairs, msPerPair, Set.of(0), OptionalLong.of(480_000), 60_000);
        assertThat(open.last()).isTrue();
        assertThat(open.pairs()).isEqualTo(172);
        assertThat(open.ms()).isEqualTo(420_000);
        // and no further than asked
        assertThat(NextLook.after(LOOKS, 4, 100, pairs, msPerPair, Set.of(0), OptionalLong.of(480_000), 60_000)
                        .pairs())
                .isEqualTo(100);
    }

    @Test
    void reachableIsHowFarEveryCellCouldGoWereTheyAllToGoOn() {
        // the ab profile's six undecided cells after 6 pairs: 40.4 s a round, 290 s to spend: 7 more rounds
        assertThat(NextLook.reachable(SIX_PAIRS, MS_PER_PAIR, UNDECIDED, 290_000, 400))
                .isEqualTo(13);
        // the program alone: 3 s a pair, 500 s: 166 more pairs; at most the cap
        assertThat(NextLook.reachable(new int[] {9}, new double[] {3_000}, Set.of(0), 500_000, 400))
                .isEqualTo(175);
        assertThat(NextLook.reachable(new int[] {9}, new double[] {3_000}, Set.of(0), 500_000, 40))
                .isEqualTo(40);
        // nothing left: where they are
        assertThat(NextLook.reachable(SIX_PAIRS, MS_PER_PAIR, UNDECIDED, -10_000, 400))
                .isEqualTo(6);
    }

    @Test
    void mostPairsWithinFindsTheMostThatFit() {
        // 7 cells at 8 s a pair each from 6 pairs: 9 pairs cost 168 s, 10 cost 224 s
        java.util.function.IntToLongFunction cost = t -> 7L * 8_000 * Math.max(0, t - 6);
        assertThat(NextLook.mostPairsWithin(cost, 6, 14, 200_000)).isEqualTo(9);
        assertThat(NextLook.mostPairsWithin(cost, 6, 14, 1_000_000)).isEqualTo(14); // at most what is asked
        assertThat(NextLook.mostPairsWithin(cost, 6, 14, 50_000)).isEqualTo(6); // not one more pair: none
    }
}
