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

    /** CPU time of the whole process in nanoseconds, or -1 where the VM does not report it. */
    public static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }
}
