package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** ab's ETA (issue #29): what is left at the pace so far, as run's progress bar reckons it. */
class AbProgressTest {

    @Test
    void theEtaIsTheEstimateLeftAtThePaceTheEstimatesHaveKept() {
        // 10 s spent on what the cost model estimated at 20 s: the 30 s estimated left take about 15 s
        Instant began = Instant.now().minusSeconds(10);
        assertThat(AbRun.remainingMs(began, 20_000, 30_000)).isCloseTo(15_000L, within(500L));
        // nothing done yet: the estimate as it is
        assertThat(AbRun.remainingMs(Instant.now(), 0, 30_000)).isEqualTo(30_000L);
        assertThat(AbRun.remainingMs(began, 20_000, 0)).isZero();
    }

    @Test
    void theBudgetsLastLookTakesTheMostPairsThatFit() {
        // 7 cells at 8 s a pair each from 6 pairs: 9 pairs cost 168 s, 10 cost 224 s
        java.util.function.IntToLongFunction cost = t -> 7L * 8_000 * Math.max(0, t - 6);
        assertThat(AbRun.mostPairsWithin(cost, 6, 14, 200_000)).isEqualTo(9);
        assertThat(AbRun.mostPairsWithin(cost, 6, 14, 1_000_000)).isEqualTo(14); // at most what is asked
        assertThat(AbRun.mostPairsWithin(cost, 6, 14, 50_000)).isEqualTo(6); // not one more pair: none
    }
}
