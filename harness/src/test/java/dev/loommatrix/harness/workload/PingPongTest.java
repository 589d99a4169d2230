package dev.loommatrix.harness.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PingPongTest {

    private final PingPong workload = new PingPong();

    @Test
    void bothSidesAreVirtualInTheVirtualVariantAndJmhJsonIsKept() throws Exception {
        Params params = Params.of(
                workload.defaults(),
                Map.of(
                        "roundTrips", "2000",
                        "jmhWarmupIterations", "1",
                        "jmhIterations", "2",
                        "jmhIterationMs", "100"));
        Outcome outcome = workload.run(new Variant.Virtual(), params);
        assertThat(outcome.metrics()).containsEntry("threadsVirtual", true);
        // checksum: sum of (i & 0xffff) for i < 2000
        assertThat(outcome.metrics()).containsEntry("checksum", 2000L * 1999 / 2);
        Map<String, Object> jmh = workload.micro(new Variant.Virtual(), params);
        assertThat(jmh).containsEntry("jmhUnit", "ns/op");
        assertThat((double) jmh.get("jmhNsPerRoundTrip")).isPositive();
        assertThat(jmh.get("jmh"))
                .isInstanceOfSatisfying(List.class, runs -> assertThat(runs).hasSize(1));
    }

    @Test
    void platformVariantUsesPlatformThreadsWithoutJmh() throws Exception {
        Params params = Params.of(workload.defaults(), Map.of("roundTrips", "500", "jmhIterations", "0"));
        Outcome outcome = workload.run(new Variant.Platform(), params);
        assertThat(outcome.metrics()).containsEntry("threadsPlatform", true);
        assertThat(workload.micro(new Variant.Platform(), params)).isEmpty();
        assertThat((double) outcome.metrics().get("nsPerRoundTrip")).isPositive();
    }
}
