package dev.loommatrix.harness.workload;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Seed 002: N tasks that each sleep S ms, on virtual threads or on a fixed pool of T platform threads.
 * A pool of T can finish no sooner than ceil(N/T)·S; unbounded variants no sooner than S.
 */
public final class SleepBound implements Workload {

    @Override
    public String id() {
        return "sleep-bound";
    }

    @Override
    public Map<String, Long> defaults() {
        return Map.of("tasks", 10_000L, "sleepMs", 300L);
    }

    @Override
    public Set<String> variants() {
        return Set.of("virtual", "platform", "pool:*");
    }

    @Override
    public OptionalDouble lowerBoundMs(Variant variant, Params params) {
        long tasks = params.get("tasks");
        long sleepMs = params.get("sleepMs");
        long waves = variant instanceof Variant.Pool pool ? ceilDiv(tasks, pool.threads()) : Math.min(tasks, 1);
        return OptionalDouble.of((double) waves * sleepMs);
    }

    @Override
    public Outcome run(Variant variant, Params params) throws InterruptedException {
        int tasks = params.getInt("tasks");
        long sleepMs = params.get("sleepMs");
        // tasks that slept to the end: a task that failed would otherwise vanish into its unread future
        java.util.concurrent.atomic.LongAdder completed = new java.util.concurrent.atomic.LongAdder();
        long start = System.nanoTime();
        try (var executor = variant.newExecutor()) {
            for (int i = 0; i < tasks; i++) {
                executor.submit(() -> {
                    Thread.sleep(sleepMs);
                    completed.increment();
                    return null;
                });
            }
        } // close() waits for every task
        double wallMs = (System.nanoTime() - start) / 1e6;
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("tasksPerSecond", tasks / (wallMs / 1000.0));
        metrics.put("tasksCompleted", completed.sum());
        return Outcome.of(wallMs, metrics);
    }

    static long ceilDiv(long a, long b) {
        return (a + b - 1) / b;
    }
}
