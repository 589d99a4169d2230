package dev.loommatrix.harness.workload;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import dev.loommatrix.harness.env.Environment;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Seed 002's warning about caching expensive objects in thread-locals: the cache pays off only when
 * threads are pooled and reused. Each task takes a per-thread {@link Expensive} object (a digest and
 * a 64 KiB scratch buffer, built with some work) from a {@link ThreadLocal} and uses it once.
 * A pool of T threads builds T objects; a thread per task builds one per task.
 *
 * <p>Reported: objects built, bytes allocated during the run (HotSpot's per-thread allocation
 * counters; virtual threads allocate on their carriers, which the counters include), and the
 * collections the harness records for every run.
 */
public final class ThreadLocalCache implements Workload {

    static final int SCRATCH_BYTES = 64 * 1024;

    private static final AtomicLong BUILT = new AtomicLong();
    private static final ThreadLocal<Expensive> CACHE = ThreadLocal.withInitial(Expensive::new);

    @Override
    public String id() {
        return "thread-local";
    }

    @Override
    public Map<String, Long> defaults() {
        return Map.of("tasks", 100_000L);
    }

    @Override
    public Set<String> variants() {
        return Set.of("virtual", "platform", "pool:*");
    }

    @Override
    public OptionalDouble lowerBoundMs(Variant variant, Params params) {
        return OptionalDouble.empty();
    }

    /** What a cached formatter, codec or cipher costs to build: memory plus some set-up work. */
    static final class Expensive {
        final MessageDigest digest;
        final byte[] scratch = new byte[SCRATCH_BYTES];

        Expensive() {
            try {
                digest = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
            for (int i = 0; i < scratch.length; i++) {
                scratch[i] = (byte) (i * 31);
            }
            BUILT.incrementAndGet();
        }

        /** Depends on the task only, not on which thread's object served it, so every variant sums the same. */
        byte use(int task) {
            digest.update(scratch, task % (scratch.length - 256), 256);
            digest.update((byte) task);
            return digest.digest()[0];
        }
    }

    @Override
    public Outcome run(Variant variant, Params params) throws InterruptedException {
        int tasks = params.getInt("tasks");
        BUILT.set(0);
        LongAdder sink = new LongAdder();
        LongAdder onVirtual = new LongAdder();
        long allocatedBefore = Environment.allocatedBytes();
        long start = System.nanoTime();
        try (ExecutorService executor = variant.newExecutor()) {
            for (int i = 0; i < tasks; i++) {
                int task = i;
                executor.execute(() -> {
                    if (Thread.currentThread().isVirtual()) {
                        onVirtual.increment();
                    }
                    sink.add(CACHE.get().use(task));
                });
            }
        }
        double wallMs = (System.nanoTime() - start) / 1e6;
        long allocatedAfter = Environment.allocatedBytes();
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("objectsBuilt", BUILT.get());
        metrics.put("tasksOnVirtualThreads", onVirtual.sum());
        if (allocatedBefore >= 0 && allocatedAfter >= 0) {
            metrics.put("allocatedBytes", allocatedAfter - allocatedBefore);
            metrics.put("allocatedBytesPerTask", (allocatedAfter - allocatedBefore) / (double) tasks);
        }
        metrics.put("checksum", sink.sum());
        return Outcome.of(wallMs, metrics);
    }
}
