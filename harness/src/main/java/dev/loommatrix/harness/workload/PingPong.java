package dev.loommatrix.harness.workload;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import dev.loommatrix.harness.jmh.PingPongBenchmark;
import dev.loommatrix.harness.jmh.PingPongPair;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The hand-off cost between two threads: a SynchronousQueue round trip between two virtual or two
 * platform threads. Measured twice in the same fresh JVM:
 *
 * <ol>
 *   <li>by JMH ({@link PingPongBenchmark}), whose JSON is kept in the sample ({@code jmh}) with its
 *       score and 99.9 % error. JMH runs unforked: the runner already gives every repetition a fresh
 *       JVM, which is what JMH's forks are for, and the cell's JVM flags and limits then apply as
 *       they are. {@code jmhIterations: 0} skips it.
 *   <li>by a timed loop of {@code roundTrips} round trips right after (JMH's iterations are its
 *       warmup; without JMH a tenth of the loop runs first as warmup): {@code wallMs}.
 * </ol>
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

    @Override
    public Outcome run(Variant variant, Params params) throws InterruptedException {
        String kind =
                switch (variant) {
                    case Variant.Virtual v -> "virtual";
                    case Variant.Platform p -> "platform";
                    default -> throw new IllegalArgumentException("ping-pong has no variant " + variant.name());
                };
        int roundTrips = params.getInt("roundTrips");
        Map<String, Object> metrics = new LinkedHashMap<>();
        if (params.get("jmhIterations") > 0) {
            metrics.putAll(jmh(kind, params));
        }
        try (PingPongPair pair = new PingPongPair(PingPongPair.builder(kind))) {
            if (params.get("jmhIterations") == 0) {
                pair.run(Math.max(1, roundTrips / 10));
            }
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

    private static Map<String, Object> jmh(String kind, Params params) {
        // JMH takes a lock file in java.io.tmpdir against concurrent runs; each cell is alone in its
        // JVM and the local backend's host runs are sequential, so a stale lock must not fail a cell.
        System.setProperty("jmh.ignoreLock", "true");
        Path json = null;
        try {
            json = Files.createTempFile("loom-matrix-jmh", ".json");
            Options options = new OptionsBuilder()
                    .include(PingPongBenchmark.class.getName() + ".roundTrip$")
                    .param("kind", kind)
                    .forks(0)
                    .warmupIterations(params.getInt("jmhWarmupIterations"))
                    .warmupTime(TimeValue.milliseconds(params.get("jmhIterationMs")))
                    .measurementIterations(params.getInt("jmhIterations"))
                    .measurementTime(TimeValue.milliseconds(params.get("jmhIterationMs")))
                    .timeUnit(TimeUnit.NANOSECONDS)
                    .verbosity(VerboseMode.SILENT)
                    .resultFormat(ResultFormatType.JSON)
                    .result(json.toString())
                    .build();
            Collection<RunResult> results = new Runner(options).run();
            Map<String, Object> metrics = new LinkedHashMap<>();
            for (RunResult run : results) {
                Result<?> primary = run.getPrimaryResult();
                metrics.put("jmhNsPerRoundTrip", primary.getScore());
                metrics.put("jmhError99_9", primary.getScoreError());
                metrics.put("jmhUnit", primary.getScoreUnit());
            }
            metrics.put("jmh", JSON.std.anyFrom(Files.readString(json)));
            return metrics;
        } catch (RunnerException | IOException e) {
            throw new IllegalStateException("JMH run failed", e);
        } finally {
            if (json != null) {
                try {
                    Files.deleteIfExists(json);
                } catch (IOException ignored) {
                    // scratch space
                }
            }
        }
    }
}
