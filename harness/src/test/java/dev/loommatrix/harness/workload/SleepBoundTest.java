package dev.loommatrix.harness.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SleepBoundTest {

    private final SleepBound workload = new SleepBound();

    private Params params(long tasks, long sleepMs) {
        return Params.of(
                workload.defaults(), Map.of("tasks", String.valueOf(tasks), "sleepMs", String.valueOf(sleepMs)));
    }

    @Test
    void defaultsAreTheSeedExperiment() {
        // Seed 002: 10,000 requests, Thread.sleep(300)
        assertThat(workload.defaults()).containsEntry("tasks", 10_000L).containsEntry("sleepMs", 300L);
    }

    @Test
    void lowerBoundIsWavesTimesSleep() {
        assertThat(workload.lowerBoundMs(new Variant.Pool(200, false), params(10_000, 300))
                        .getAsDouble())
                .isEqualTo(50 * 300.0);
        assertThat(workload.lowerBoundMs(new Variant.Pool(800, false), params(10_000, 300))
                        .getAsDouble())
                .isEqualTo(13 * 300.0); // ceil(10000/800) = 13
        assertThat(workload.lowerBoundMs(new Variant.Virtual(), params(10_000, 300))
                        .getAsDouble())
                .isEqualTo(300.0);
    }

    @Test
    void aPoolTakesAtLeastItsWavesAndVirtualAboutOneSleep() throws Exception {
        Outcome pool = workload.run(new Variant.Pool(2, false), params(6, 40));
        assertThat(pool.wallMs()).isGreaterThanOrEqualTo(3 * 40.0); // 3 waves of 2
        Outcome virtual = workload.run(new Variant.Virtual(), params(200, 40));
        assertThat(virtual.wallMs()).isGreaterThanOrEqualTo(40.0).isLessThan(3 * 40.0);
    }
}
