package dev.loommatrix.harness.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EchoServerTest {

    private final EchoServer workload = new EchoServer();

    @ParameterizedTest
    @ValueSource(strings = {"virtual", "platform", "pool:4"})
    void everyMessageComesBackAndTheServerRunsOnTheThreadsItClaims(String name) throws Exception {
        Variant variant = Variant.parse(name);
        Params params = Params.of(workload.defaults(), Map.of("connections", "50", "messages", "5", "bytes", "100"));
        Outcome outcome = workload.run(variant, params);
        assertThat(outcome.metrics())
                .containsEntry("roundTrips", 250L)
                .containsEntry("failedConnections", 0L)
                .containsEntry("latencyCount", 250L)
                .containsKeys("latencyP50Ms", "latencyP99Ms", "roundTripsPerSecond");
        assertThat(outcome.metrics())
                .containsEntry("connectionsServedOnVirtualThreads", name.equals("virtual") ? 50L : 0L);
    }
}
