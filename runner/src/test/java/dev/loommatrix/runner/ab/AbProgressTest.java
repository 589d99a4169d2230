package dev.loommatrix.runner.ab;

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
}
