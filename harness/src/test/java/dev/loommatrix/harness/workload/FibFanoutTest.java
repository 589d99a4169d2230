package dev.loommatrix.harness.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FibFanoutTest {

    private final FibFanout workload = new FibFanout();

    private Params params(int n, int calls) {
        return Params.of(workload.defaults(), Map.of("n", String.valueOf(n), "calls", String.valueOf(calls)));
    }

    @Test
    void fibonacciIsRight() {
        assertThat(FibFanout.fibonacci(0)).isZero();
        assertThat(FibFanout.fibonacci(10)).isEqualTo(55);
        assertThat(FibFanout.fibonacci(27)).isEqualTo(196_418); // the seed's fib(27)
    }

    @Test
    void everyVariantComputesTheSameValueForEveryCall() throws Exception {
        for (String name : workload.variants()) {
            Outcome outcome = workload.run(new Variant.Named(name), params(12, 30));
            assertThat(outcome.metrics())
                    .as(name)
                    .containsEntry("fibResult", 144L)
                    .containsEntry("allResultsEqual", true);
            int expectedCalls =
                    name.equals("naive-virtual") || name.equals("executor") ? FibFanout.RECURSIVE_CALLS : 30;
            assertThat(outcome.metrics()).as(name).containsEntry("callsCompleted", expectedCalls);
            assertThat((double) outcome.metrics().get("latencyP99Ms"))
                    .isGreaterThanOrEqualTo((double) outcome.metrics().get("latencyP50Ms"));
        }
    }

    @Test
    void theSemaphoreBoundsLatencyWhileCallerLevelQueues() throws Exception {
        Outcome queued = workload.run(new Variant.Named("caller-virtual"), params(22, 200));
        Outcome bounded = workload.run(new Variant.Named("semaphore"), params(22, 200));
        // the seed: 165 ms vs 1.7 ms average; here only the direction is asserted
        assertThat((double) bounded.metrics().get("latencyMeanMs"))
                .isLessThan((double) queued.metrics().get("latencyMeanMs"));
    }

    @Test
    void lowerBoundDividesByProcessorsExceptSequential() throws Exception {
        workload.run(new Variant.Named("sequential"), params(15, 40));
        double t = workload.calibrate(15);
        int p = Runtime.getRuntime().availableProcessors();
        assertThat(workload.lowerBoundMs(new Variant.Named("sequential"), params(15, 40))
                        .getAsDouble())
                .isEqualTo(40 * t);
        assertThat(workload.lowerBoundMs(new Variant.Named("semaphore"), params(15, 40))
                        .getAsDouble())
                .isEqualTo(40 * t / p);
    }
}
