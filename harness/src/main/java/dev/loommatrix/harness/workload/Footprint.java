package dev.loommatrix.harness.workload;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import dev.loommatrix.harness.env.Environment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * Seeds 002 and 004: what a parked thread costs. Starts N threads that block on a latch, waits until
 * every one is really parked, then reads heap in use (after a full collection) and the process's
 * resident set from the OS; the difference from before, divided by the threads started, is the cost
 * per thread. If thread creation fails first (pids limit, memory, "unable to create native thread"),
 * the count reached is the ceiling, recorded as the result.
 *
 * <p>{@code wallMs} is the time to start all threads and see them parked.
 */
public final class Footprint implements Workload {

    @Override
    public String id() {
        return "footprint";
    }

    @Override
    public Map<String, Long> defaults() {
        return Map.of("threads", 100_000L);
    }

    @Override
    public Set<String> variants() {
        return Set.of("virtual", "platform");
    }

    @Override
    public OptionalDouble lowerBoundMs(Variant variant, Params params) {
        return OptionalDouble.empty(); // a memory measurement; the ceiling is a result
    }

    @Override
    public Outcome run(Variant variant, Params params) throws InterruptedException {
        int count = params.getInt("threads");
        Thread.Builder builder = variant.threadBuilder();
        CountDownLatch release = new CountDownLatch(1);
        Runnable park = () -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        long heapBefore = Environment.heapUsedAfterGc();
        OptionalLong rssBefore = Environment.residentBytes();
        long start = System.nanoTime();
        StartedThreads threads = StartedThreads.start(builder, count, park);
        awaitParked(threads);
        int started = threads.count();
        double wallMs = (System.nanoTime() - start) / 1e6;
        long heapAfter = Environment.heapUsedAfterGc();
        OptionalLong rssAfter = Environment.residentBytes();
        release.countDown();
        threads.joinAll();
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("threadsParked", started);
        metrics.put("heapBytes", heapAfter - heapBefore);
        metrics.put("heapBytesPerThread", started == 0 ? 0 : (heapAfter - heapBefore) / (double) started);
        if (rssBefore.isPresent() && rssAfter.isPresent()) {
            long rss = rssAfter.getAsLong() - rssBefore.getAsLong();
            metrics.put("rssBytes", rss);
            metrics.put("rssBytesPerThread", started == 0 ? 0 : rss / (double) started);
        }
        return new Outcome(wallMs, metrics, threads.ceiling());
    }

    /** Waits until each thread is WAITING on the latch, so the measurement sees parked threads only. */
    private static void awaitParked(StartedThreads started) {
        for (Thread thread : started.threads()) {
            while (thread.isAlive() && thread.getState() != Thread.State.WAITING) {
                LockSupport.parkNanos(100_000);
            }
        }
    }
}
