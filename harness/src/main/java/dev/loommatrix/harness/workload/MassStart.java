package dev.loommatrix.harness.workload;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import dev.loommatrix.harness.jmh.StartJoinBenchmark;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Seeds 000 and 001: start N threads that do nothing, then join them all. Platform threads may hit a
 * ceiling (pids limit, memory, "unable to create native thread"); the number reached is then the result.
 */
public final class MassStart implements Workload {

    private static final Runnable EMPTY = () -> {};

    @Override
    public String id() {
        return "mass-start";
    }

    @Override
    public Map<String, Long> defaults() {
        return Map.of("threads", 1_000_000L, "jmhWarmupIterations", 2L, "jmhIterations", 3L, "jmhIterationMs", 500L);
    }

    @Override
    public Set<String> variants() {
        return Set.of("virtual", "platform");
    }

    @Override
    public OptionalDouble lowerBoundMs(Variant variant, Params params) {
        return OptionalDouble.empty(); // no physical lower bound; the ceiling is a result
    }

    @Override
    public Outcome run(Variant variant, Params params) throws InterruptedException {
        int count = params.getInt("threads");
        Thread.Builder builder = variant.threadBuilder();
        long start = System.nanoTime();
        StartedThreads started = StartedThreads.start(builder, count, EMPTY);
        started.joinAll();
        double wallMs = (System.nanoTime() - start) / 1e6;
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("threadsStarted", started.count());
        metrics.put("threadsPerSecond", started.count() / (wallMs / 1000.0));
        return new Outcome(wallMs, metrics, started.ceiling());
    }

    /** JMH's start-and-join cost of one thread of the kind ({@link StartJoinBenchmark}). */
    @Override
    public Map<String, Object> micro(Variant variant, Params params) {
        return Workload.jmh(
                params, StartJoinBenchmark.class, "startJoin", Map.of("kind", variant.name()), "jmhNsPerStartJoin");
    }
}
