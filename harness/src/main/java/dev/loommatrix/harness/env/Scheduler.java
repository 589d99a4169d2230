package dev.loommatrix.harness.env;

import java.lang.management.ManagementFactory;
import java.lang.management.PlatformManagedObject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ForkJoinPool;

/**
 * The virtual-thread scheduler as it actually is inside this JVM.
 *
 * <p>Parallelism and pool size are read from the live scheduler: through
 * {@code jdk.management.VirtualThreadSchedulerMXBean} where the JDK has it (24+), else from the
 * default scheduler's ForkJoinPool (needs {@code --add-opens java.base/java.lang=ALL-UNNAMED}, which
 * the runner passes). maxPoolSize and minRunnable are not exposed by any JDK API; they are derived
 * from the system properties the JVM sees, by the rule in {@code VirtualThread.createDefaultScheduler},
 * and labelled as derived.
 */
public final class Scheduler {

    private Scheduler() {}

    /** A snapshot of the scheduler; {@code source} says how parallelism was read. */
    public record Snapshot(int parallelism, int maxPoolSize, int minRunnable, int poolSize, String source) {

        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("parallelism", parallelism);
            json.put("maxPoolSize", maxPoolSize);
            json.put("minRunnable", minRunnable);
            json.put("source", source);
            return json;
        }
    }

    public static Snapshot read() {
        int processors = Runtime.getRuntime().availableProcessors();
        Derived derived = derive(
                processors,
                System.getProperty("jdk.virtualThreadScheduler.parallelism"),
                System.getProperty("jdk.virtualThreadScheduler.maxPoolSize"),
                System.getProperty("jdk.virtualThreadScheduler.minRunnable"));
        Optional<int[]> live = fromMxBean();
        String source = "mxbean";
        if (live.isEmpty()) {
            live = fromDefaultScheduler();
            source = "forkjoinpool";
        }
        if (live.isEmpty()) {
            return new Snapshot(derived.parallelism(), derived.maxPoolSize(), derived.minRunnable(), -1, "derived");
        }
        return new Snapshot(live.get()[0], derived.maxPoolSize(), derived.minRunnable(), live.get()[1], source);
    }

    /** The JDK's own defaulting rule (JDK 21–25), applied to the properties as given. */
    public record Derived(int parallelism, int maxPoolSize, int minRunnable) {}

    public static Derived derive(
            int processors, String parallelismValue, String maxPoolSizeValue, String minRunnableValue) {
        int parallelism = parallelismValue != null ? Integer.parseInt(parallelismValue) : processors;
        int maxPoolSize;
        if (maxPoolSizeValue != null) {
            maxPoolSize = Integer.parseInt(maxPoolSizeValue);
            parallelism = Integer.min(parallelism, maxPoolSize);
        } else {
            maxPoolSize = Integer.max(parallelism, 256);
        }
        int minRunnable =
                minRunnableValue != null ? Integer.parseInt(minRunnableValue) : Integer.max(parallelism / 2, 1);
        return new Derived(parallelism, maxPoolSize, minRunnable);
    }

    private static Optional<int[]> fromMxBean() {
        try {
            @SuppressWarnings("unchecked")
            Class<? extends PlatformManagedObject> type = (Class<? extends PlatformManagedObject>)
                    Class.forName("jdk.management.VirtualThreadSchedulerMXBean");
            Object bean = ManagementFactory.getPlatformMXBean(type);
            if (bean == null) {
                return Optional.empty();
            }
            int parallelism = (int) type.getMethod("getParallelism").invoke(bean);
            int poolSize = (int) type.getMethod("getPoolSize").invoke(bean);
            return Optional.of(new int[] {parallelism, poolSize});
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Optional.empty(); // JDK 21–23, or a VM without it
        }
    }

    private static Optional<int[]> fromDefaultScheduler() {
        try {
            var field = Class.forName("java.lang.VirtualThread").getDeclaredField("DEFAULT_SCHEDULER");
            field.setAccessible(true);
            if (field.get(null) instanceof ForkJoinPool pool) {
                return Optional.of(new int[] {pool.getParallelism(), pool.getPoolSize()});
            }
            return Optional.empty();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return Optional.empty(); // not opened, or a VM that implements it differently
        }
    }
}
