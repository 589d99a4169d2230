package dev.loommatrix.harness.workload;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import dev.loommatrix.harness.jmh.PingPongBenchmark;
import dev.loommatrix.harness.jmh.PingPongPair;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The hand-off cost between two threads: a SynchronousQueue round trip between two virtual or two
 * platform threads. Measured twice in the same fresh JVM: by a timed loop of {@code roundTrips} round
 * trips after an untimed tenth of it ({@code wallMs}, {@code nsPerRoundTrip}), then by JMH
 * ({@link PingPongBenchmark}, see {@link JmhRun}), whose score and JSON join the sample.
 * {@code jmhIterations: 0} skips JMH.
 */
public final class PingPong implements Workload {

    @Override
    public String id() {
        return "ping-pong";
    }

    @Override
    public Map<String, Long> defaults() {
        return Map.of(
                "roundTrips", 100_000L,
                "jmhWarmupIterations", 3L,
                "jmhIterations", 5L,
                "jmhIterationMs", 1_000L);
    }

    @Override
    public Set<String> variants() {
        return Set.of("virtual", "platform");
    }

    @Override
    public OptionalDouble lowerBoundMs(Variant variant, Params params) {
        return OptionalDouble.empty();
    }

    private static String kind(Variant variant) {
        return switch (variant) {
            case Variant.Virtual v -> "virtual";
            case Variant.Platform p -> "platform";
            default -> throw new IllegalArgumentException("ping-pong has no variant " + variant.name());
        };
    }

    @Override
    public Outcome run(Variant variant, Params params) throws InterruptedException {
        int roundTrips = params.getInt("roundTrips");
        Map<String, Object> metrics = new LinkedHashMap<>();
        try (PingPongPair pair = new PingPongPair(PingPongPair.builder(kind(variant)))) {
            pair.run(Math.max(1, roundTrips / 10)); // warmup: the same loop, untimed
            long start = System.nanoTime();
            long checksum = pair.run(roundTrips);
            double wallMs = (System.nanoTime() - start) / 1e6;
            metrics.put("nsPerRoundTrip", wallMs * 1e6 / roundTrips);
            metrics.put("threadsVirtual", pair.bothVirtual());
            metrics.put("threadsPlatform", pair.neitherVirtual());
            metrics.put("checksum", checksum);
            return Outcome.of(wallMs, metrics);
        }
    }

    @Override
    public Map<String, Object> micro(Variant variant, Params params) {
        return Workload.jmh(
                params, PingPongBenchmark.class, "roundTrip", Map.of("kind", kind(variant)), "jmhNsPerRoundTrip");
    }
}
