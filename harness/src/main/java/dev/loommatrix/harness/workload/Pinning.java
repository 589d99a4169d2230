package dev.loommatrix.harness.workload;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import dev.loommatrix.harness.env.Scheduler;
import dev.loommatrix.harness.jmh.PinnedHandOffBenchmark;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Seed 002's pinning advice, measured: N virtual threads each block for S ms while holding something.
 * Each task has its own lock, so there is no contention — any serialization comes from pinned
 * carriers alone. The variant is what is held while blocking:
 *
 * <ul>
 *   <li>{@code synchronized}: sleep inside a monitor. JDK 21–23 pin the carrier (no compensation):
 *       ceil(N/P)·S. JDK 24+ (JEP 491) unmount: ≈ S.
 *   <li>{@code reentrant-lock}: sleep holding a ReentrantLock; never pins: ≈ S.
 *   <li>{@code object-wait}: {@code Object.wait(S)}. JDK 21–23 pin but compensate with extra
 *       carriers up to maxPoolSize: ceil(N/maxPoolSize)·S. JDK 24+ unmount: ≈ S.
 *   <li>{@code class-init}: sleep in a static initializer (a class per task). Pins on every JDK —
 *       JEP 491 leaves class initialization pinned: ceil(N/P)·S.
 * </ul>
 *
 * Pinned parks are counted from JFR ({@code jdk.VirtualThreadPinned}) by the harness: the recording
 * starts before the clock and is read after it stops. The JMH micro case ({@link PinnedHandOffBenchmark}) times one blocking hand-off under a
 * monitor or a lock, for the {@code synchronized} and {@code reentrant-lock} variants.
 */
public final class Pinning implements Workload {

    /** Read by {@link SlowInitializer}'s static initializer; set before any task starts. */
    static volatile long initializerSleepMs;

    @Override
    public String id() {
        return "pinning";
    }

    @Override
    public Map<String, Long> defaults() {
        return Map.of(
                "tasks", 16L, "sleepMs", 100L, "jmhWarmupIterations", 2L, "jmhIterations", 3L, "jmhIterationMs", 500L);
    }

    @Override
    public Set<String> variants() {
        return Set.of("synchronized", "reentrant-lock", "object-wait", "class-init");
    }

    @Override
    public boolean recordsPinnedEvents() {
        return true;
    }

    @Override
    public boolean usesVirtualThreads(Variant variant) {
        return true; // every pinning variant runs on virtual threads
    }

    /** How many tasks can block at once under this JDK's pinning rules. */
    static int concurrency(String variant, int feature, int parallelism, int maxPoolSize, int tasks) {
        int carriers =
                switch (variant) {
                    case "reentrant-lock" -> tasks;
                    case "synchronized" -> feature >= 24 ? tasks : parallelism;
                    case "object-wait" -> feature >= 24 ? tasks : Math.max(parallelism, maxPoolSize);
                    case "class-init" -> parallelism;
                    default -> throw new IllegalArgumentException("pinning has no variant " + variant);
                };
        return Math.max(1, Math.min(tasks, carriers));
    }

    @Override
    public OptionalDouble lowerBoundMs(Variant variant, Params params) {
        Scheduler.Snapshot scheduler = Scheduler.read();
        if (scheduler.parallelism() < 1) {
            return OptionalDouble.empty(); // the scheduler could not be read; no honest bound
        }
        int tasks = params.getInt("tasks");
        int at = concurrency(
                variant.name(), Runtime.version().feature(), scheduler.parallelism(), scheduler.maxPoolSize(), tasks);
        return OptionalDouble.of(Math.ceilDiv(tasks, at) * (double) params.get("sleepMs"));
    }

    @Override
    public Outcome run(Variant variant, Params params) throws InterruptedException {
        int tasks = params.getInt("tasks");
        long sleepMs = params.get("sleepMs");
        Runnable[] work = new Runnable[tasks];
        for (int i = 0; i < tasks; i++) {
            work[i] = task(variant.name(), sleepMs);
        }
        Thread[] threads = new Thread[tasks];
        boolean[] ranVirtual = new boolean[tasks];
        long start = System.nanoTime();
        for (int i = 0; i < tasks; i++) {
            int index = i;
            threads[i] = Thread.ofVirtual().start(() -> {
                ranVirtual[index] = Thread.currentThread().isVirtual();
                work[index].run();
            });
        }
        for (Thread thread : threads) {
            thread.join();
        }
        double wallMs = (System.nanoTime() - start) / 1e6;
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("unpinnedBoundMs", (double) sleepMs);
        metrics.put("serializedBoundMs", (double) tasks * sleepMs);
        boolean allVirtual = true;
        for (boolean v : ranVirtual) {
            allVirtual &= v;
        }
        metrics.put("allTasksVirtual", allVirtual);
        return Outcome.of(wallMs, metrics);
    }

    @Override
    public Map<String, Object> micro(Variant variant, Params params) {
        if (!variant.name().equals("synchronized") && !variant.name().equals("reentrant-lock")) {
            return Map.of();
        }
        return Workload.jmh(
                params,
                PinnedHandOffBenchmark.class,
                "roundTrip",
                Map.of("holding", variant.name()),
                "jmhNsPerHeldRoundTrip");
    }

    /** One task's blocking step, prepared outside the timed section (class-init classes are loaded here). */
    static Runnable task(String variant, long sleepMs) {
        return switch (variant) {
            case "synchronized" -> {
                Object monitor = new Object();
                yield () -> {
                    synchronized (monitor) {
                        sleep(sleepMs);
                    }
                };
            }
            case "reentrant-lock" -> {
                ReentrantLock lock = new ReentrantLock();
                yield () -> {
                    lock.lock();
                    try {
                        sleep(sleepMs);
                    } finally {
                        lock.unlock();
                    }
                };
            }
            case "object-wait" -> {
                Object monitor = new Object();
                yield () -> {
                    synchronized (monitor) {
                        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(sleepMs);
                        long left;
                        // Nobody notifies; loop only to absorb spurious wake-ups.
                        while ((left = deadline - System.nanoTime()) > 0) {
                            try {
                                monitor.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                                return;
                            }
                        }
                    }
                };
            }
            case "class-init" -> {
                initializerSleepMs = sleepMs;
                ClassLoader loader = new SlowInitLoader(Pinning.class.getClassLoader());
                Class<?> slow;
                try {
                    slow = Class.forName(SlowInitializer.class.getName(), false, loader); // loaded, not initialized
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException(e);
                }
                yield () -> {
                    try {
                        Class.forName(slow.getName(), true, slow.getClassLoader());
                    } catch (ClassNotFoundException e) {
                        throw new IllegalStateException(e);
                    }
                };
            }
            default -> throw new IllegalArgumentException("pinning has no variant " + variant);
        };
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Called from {@link SlowInitializer}'s static initializer. Public because each copy of that class
     * lives in its own class loader, hence in another runtime package.
     */
    public static void blockInInitializer() {
        sleep(initializerSleepMs);
    }

    /** Defines its own {@link SlowInitializer} (so each task initializes a distinct class); the rest from the parent. */
    static final class SlowInitLoader extends ClassLoader {
        private static final String NAME = SlowInitializer.class.getName();

        SlowInitLoader(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(NAME)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    byte[] bytes = bytes();
                    loaded = defineClass(name, bytes, 0, bytes.length);
                }
                return loaded;
            }
        }

        private static byte[] bytes() {
            String resource = NAME.replace('.', '/') + ".class";
            try (InputStream in = Pinning.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("class file " + resource + " not found");
                }
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
