package dev.loommatrix.runner.backend;

import dev.loommatrix.core.matrix.JdkEntry;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.EnvironmentRecord;
import dev.loommatrix.core.result.EnvironmentRecord.Check;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Compares what a cell asked for with what its JVM reported. A cell is attested only when every
 * check passes; a mismatch is kept and shown, never silently averaged in.
 */
public final class Attestation {

    private Attestation() {}

    /** What the backend arranged, and so what the JVM should report. */
    public record Expectation(
            int processors,
            String processorsRule,
            Optional<BigDecimal> cgroupCpus,
            Optional<Long> memoryBytes,
            Optional<Long> pids,
            Optional<String> affinity) {

        /** A container cell: its limits are cgroup limits; affinity is not set. */
        public Expectation(
                int processors,
                String processorsRule,
                Optional<BigDecimal> cgroupCpus,
                Optional<Long> memoryBytes,
                Optional<Long> pids) {
            this(processors, processorsRule, cgroupCpus, memoryBytes, pids, Optional.empty());
        }
    }

    /**
     * Processors a JVM derives from a CPU quota. HotSpot rounds a fractional quota up (1.5 → 2);
     * OpenJ9 rounds it down, with a floor of one (2.4 → 2). Neither reports more than the host has.
     */
    public static int processorsForQuota(JdkEntry.Vm vm, BigDecimal cpus, int hostCpus) {
        int fromQuota =
                switch (vm) {
                    case HOTSPOT -> cpus.setScale(0, RoundingMode.CEILING).intValueExact();
                    case OPENJ9 ->
                        Math.max(1, cpus.setScale(0, RoundingMode.FLOOR).intValueExact());
                };
        return Math.min(fromQuota, hostCpus);
    }

    @SuppressWarnings("unchecked")
    public static EnvironmentRecord environment(
            Cell cell,
            Map<String, Object> env,
            Expectation expected,
            Optional<String> image,
            Optional<String> imageDigest,
            Optional<String> javaVersionOutput) {
        List<Check> checks = new ArrayList<>();
        int processors = ((Number) env.getOrDefault("availableProcessors", -1)).intValue();
        checks.add(new Check(
                "availableProcessors",
                String.valueOf(expected.processors()),
                String.valueOf(processors),
                processors == expected.processors(),
                Optional.of(expected.processorsRule())));

        Map<String, Object> scheduler = (Map<String, Object>) env.getOrDefault("scheduler", Map.of());
        String requestedPar = cell.coordinates().parallelism();
        String requestedMax = cell.coordinates().maxPoolSize();
        int expectedPar = requestedPar.equals("auto") ? expected.processors() : Integer.parseInt(requestedPar);
        if (!requestedMax.equals("auto")) {
            expectedPar = Math.min(expectedPar, Integer.parseInt(requestedMax));
        }
        String source = String.valueOf(scheduler.getOrDefault("source", "unknown"));
        String derived = "derived by the JDK's rule from the properties the JVM saw";
        int expectedMax = requestedMax.equals("auto") ? Math.max(expectedPar, 256) : Integer.parseInt(requestedMax);
        String requestedMin = cell.coordinates().minRunnable();
        int expectedMin = requestedMin.equals("auto") ? Math.max(expectedPar / 2, 1) : Integer.parseInt(requestedMin);
        checks.add(schedulerCheck("parallelism", requestedPar, expectedPar, scheduler, "read via " + source));
        checks.add(schedulerCheck("maxPoolSize", requestedMax, expectedMax, scheduler, derived));
        checks.add(schedulerCheck("minRunnable", requestedMin, expectedMin, scheduler, derived));

        Map<String, Object> limits = new LinkedHashMap<>((Map<String, Object>) env.getOrDefault("limits", Map.of()));
        if (env.get("affinity") != null) {
            limits.put("affinity", env.get("affinity"));
        }
        expected.cgroupCpus().ifPresent(cpus -> {
            Object observed = limits.get("cpus");
            boolean ok = observed instanceof Number n
                    && BigDecimal.valueOf(n.doubleValue()).compareTo(cpus) == 0;
            checks.add(new Check(
                    "cgroup cpu quota", cpus.toPlainString(), String.valueOf(observed), ok, Optional.empty()));
        });
        expected.memoryBytes()
                .ifPresent(bytes -> checks.add(limitCheck("cgroup memory", bytes, limits.get("memoryBytes"))));
        expected.pids().ifPresent(pids -> checks.add(limitCheck("cgroup pids", pids, limits.get("pids"))));
        expected.affinity().ifPresent(cpus -> {
            Object observed = env.get("affinity");
            boolean same = observed instanceof String list
                    && dev.loommatrix.core.plan.CpuSet.parse(list).equals(dev.loommatrix.core.plan.CpuSet.parse(cpus));
            checks.add(
                    new Check(
                            "cpu affinity",
                            cpus,
                            String.valueOf(observed),
                            same,
                            Optional.of(
                                    "the CPUs the process may run on (Cpus_allowed_list): taskset on a host, the cpuset in a container")));
        });
        boolean vmMatches = vmMatches(
                cell.jdk().vm(), String.valueOf(((Map<String, Object>) env.getOrDefault("vm", Map.of())).get("name")));
        checks.add(new Check(
                "vm",
                cell.jdk().vm().id(),
                String.valueOf(((Map<String, Object>) env.getOrDefault("vm", Map.of())).get("name")),
                vmMatches,
                Optional.empty()));
        String spec = String.valueOf(env.getOrDefault("javaSpecificationVersion", ""));
        checks.add(new Check(
                "java feature version",
                String.valueOf(cell.jdk().version()),
                spec,
                spec.equals(String.valueOf(cell.jdk().version())),
                Optional.empty()));

        ignoredOptionsCheck(cell, env).ifPresent(checks::add);

        Map<String, Object> schedulerOut = new LinkedHashMap<>(scheduler);
        Map<String, String> vm = new LinkedHashMap<>();
        ((Map<String, Object>) env.getOrDefault("vm", Map.of())).forEach((k, v) -> vm.put(k, String.valueOf(v)));
        return new EnvironmentRecord(
                processors,
                schedulerOut,
                vm,
                String.valueOf(env.getOrDefault("javaVersion", "")),
                (List<String>) env.getOrDefault("gc", List.of()),
                String.valueOf(env.getOrDefault("javaToolOptions", "")),
                (List<String>) env.getOrDefault("inputArguments", List.of()),
                image,
                imageDigest,
                javaVersionOutput,
                limits,
                checks.stream().allMatch(Check::ok),
                checks);
    }

    static final String IGNORE_UNRECOGNIZED = "-XX:+IgnoreUnrecognizedVMOptions";

    /**
     * Semeru images put {@code -XX:+IgnoreUnrecognizedVMOptions} in JAVA_TOOL_OPTIONS, so a mistyped or
     * unsupported {@code -XX:} flag from the matrix would be dropped without a word. Where the cell asks
     * for such flags, that must be the JDK entry's explicit choice ({@code javaToolOptions}), or the
     * cell is not attested.
     */
    @SuppressWarnings("unchecked")
    static Optional<Check> ignoredOptionsCheck(Cell cell, Map<String, Object> env) {
        List<String> xxFlags =
                cell.allJvmArgs().stream().filter(a -> a.startsWith("-XX:")).toList();
        String toolOptions = String.valueOf(env.getOrDefault("javaToolOptions", ""));
        List<String> inputs = (List<String>) env.getOrDefault("inputArguments", List.of());
        boolean ignoring = toolOptions.contains(IGNORE_UNRECOGNIZED) || inputs.contains(IGNORE_UNRECOGNIZED);
        if (xxFlags.isEmpty() || !ignoring) {
            return Optional.empty();
        }
        boolean explicit = cell.jdk().javaToolOptions().isPresent();
        return Optional.of(new Check(
                "unrecognized -XX options",
                "rejected (" + String.join(" ", xxFlags) + " must take effect or fail)",
                "ignored silently: " + IGNORE_UNRECOGNIZED + " is in effect",
                explicit,
                Optional.of(
                        explicit
                                ? "accepted: jdk " + cell.jdk().id() + " sets javaToolOptions explicitly"
                                : "the image's JAVA_TOOL_OPTIONS would hide a mistyped flag; set javaToolOptions on"
                                        + " jdk " + cell.jdk().id()
                                        + " (\"\" clears it) to make the choice explicit")));
    }

    /** A scheduler setting: "auto" shows the value it stands for; the observed value is the JVM's. */
    private static Check schedulerCheck(
            String key, String requested, int expected, Map<String, Object> scheduler, String note) {
        int observed = ((Number) scheduler.getOrDefault(key, -1)).intValue();
        return new Check(
                "scheduler." + key,
                requested + (requested.equals("auto") ? " (= " + expected + ")" : ""),
                String.valueOf(observed),
                observed == expected,
                Optional.of(note));
    }

    private static Check limitCheck(String setting, long requested, Object observed) {
        return new Check(
                setting,
                String.valueOf(requested),
                String.valueOf(observed),
                observed instanceof Number n && n.longValue() == requested,
                Optional.empty());
    }

    static boolean vmMatches(JdkEntry.Vm vm, String vmName) {
        boolean openj9 = vmName.contains("OpenJ9") || vmName.contains("J9");
        return switch (vm) {
            case OPENJ9 -> openj9;
            case HOTSPOT -> !openj9;
        };
    }
}
