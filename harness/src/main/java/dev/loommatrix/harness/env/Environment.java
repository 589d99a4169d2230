package dev.loommatrix.harness.env;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** What actually took effect inside this JVM: the evidence a cell is attested with. */
public final class Environment {

    private Environment() {}

    public static Map<String, Object> capture(Scheduler.Snapshot scheduler, Cgroups cgroups) {
        Map<String, Object> env = new LinkedHashMap<>();
        env.put("availableProcessors", Runtime.getRuntime().availableProcessors());
        env.put("scheduler", scheduler.toJson());
        Map<String, Object> vm = new LinkedHashMap<>();
        vm.put("name", System.getProperty("java.vm.name"));
        vm.put("vendor", System.getProperty("java.vm.vendor"));
        vm.put("version", System.getProperty("java.vm.version"));
        env.put("vm", vm);
        env.put("javaVersion", System.getProperty("java.version"));
        env.put("javaSpecificationVersion", System.getProperty("java.specification.version"));
        env.put("gc", gcNames());
        env.put("javaToolOptions", System.getenv().getOrDefault("JAVA_TOOL_OPTIONS", ""));
        env.put("inputArguments", ManagementFactory.getRuntimeMXBean().getInputArguments());
        env.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
        env.put(
                "os",
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"));
        Map<String, Object> limits = new LinkedHashMap<>();
        limits.put("cgroup", cgroups.version().name().toLowerCase(java.util.Locale.ROOT));
        cgroups.cpuQuota().ifPresent(q -> limits.put("cpus", q));
        cgroups.cpuset().ifPresent(s -> limits.put("cpuset", s));
        cgroups.memoryLimitBytes().ifPresent(m -> limits.put("memoryBytes", m));
        cgroups.pidsLimit().ifPresent(p -> limits.put("pids", p));
        env.put("limits", limits);
        affinity(Path.of("/proc/self/status")).ifPresent(a -> env.put("affinity", a));
        return env;
    }

    /**
     * The CPUs this process may run on (Linux: {@code Cpus_allowed_list} of /proc/self/status), which
     * is how a host run's CPU cap (taskset) shows from inside.
     */
    static Optional<String> affinity(Path status) {
        try {
            if (!Files.isReadable(status)) {
                return Optional.empty();
            }
            return Files.readAllLines(status).stream()
                    .filter(l -> l.startsWith("Cpus_allowed_list:"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Collector names identify the GC ("G1 Young Generation" → G1, "scavenge" → OpenJ9 gencon …). */
    public static List<String> gcNames() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .map(GarbageCollectorMXBean::getName)
                .toList();
    }

    /** Total collections and collection time so far, to difference around a timed section. */
    public static long[] gcTotals() {
        long count = 0;
        long millis = 0;
        for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, bean.getCollectionCount());
            millis += Math.max(0, bean.getCollectionTime());
        }
        return new long[] {count, millis};
    }

    /** Heap in use after a full collection (two, as the first may leave finalizable garbage). */
    public static long heapUsedAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /**
     * Bytes allocated in the heap by all threads so far (HotSpot's TLAB accounting; virtual threads
     * allocate on their carriers and are counted there), or -1 where the VM does not count.
     */
    public static long allocatedBytes() {
        if (ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean threads
                && threads.isThreadAllocatedMemorySupported()
                && threads.isThreadAllocatedMemoryEnabled()) {
            try {
                return threads.getTotalThreadAllocatedBytes();
            } catch (UnsupportedOperationException e) {
                return -1;
            }
        }
        return -1;
    }

    /** The process's resident set now ({@code VmRSS}), where the OS reports it (Linux). */
    public static OptionalLong residentBytes() {
        return statusKilobytes(Path.of("/proc/self/status"), "VmRSS:");
    }

    /** The process's peak resident set ({@code VmHWM}), where the OS reports it (Linux). */
    public static OptionalLong peakResidentBytes() {
        return statusKilobytes(Path.of("/proc/self/status"), "VmHWM:");
    }

    static OptionalLong statusKilobytes(Path status, String key) {
        try {
            if (!Files.isReadable(status)) {
                return OptionalLong.empty();
            }
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith(key)) {
                    String value = line.substring(key.length()).trim(); // "123456 kB"
                    return OptionalLong.of(Long.parseLong(value.split("\\s+")[0]) * 1024);
                }
            }
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
        return OptionalLong.empty();
    }

    /** CPU time of the whole process in nanoseconds, or -1 where the VM does not report it. */
    public static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }
}
