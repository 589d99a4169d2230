package dev.loommatrix.runner.records;

import dev.loommatrix.core.matrix.JdkEntry;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.Coordinates;
import dev.loommatrix.core.result.EnvironmentRecord;
import dev.loommatrix.core.result.EnvironmentRecord.Check;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
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
                    case HOTSPOT -> Coordinates.wholeCpus(cpus);
                    case OPENJ9 ->
                        Math.max(1, cpus.setScale(0, RoundingMode.FLOOR).intValueExact());
                };
        return Math.min(fromQuota, hostCpus);
    }

    public static EnvironmentRecord environment(
            Cell cell,
            HarnessEnvironment env,
            Expectation expected,
            Optional<String> image,
            Optional<String> imageDigest,
            Optional<String> javaVersionOutput) {
        List<Check> checks = new ArrayList<>();
        int processors = env.availableProcessors();
        checks.add(new Check(
                "availableProcessors",
                String.valueOf(expected.processors()),
                String.valueOf(processors),
                processors == expected.processors(),
                Optional.of(expected.processorsRule())));

        EnvironmentRecord.Scheduler scheduler = env.scheduler();
        checks.addAll(schedulerChecks(cell, scheduler, expected.processors()));
        EnvironmentRecord.Limits limits =
                env.affinity().isPresent() ? env.limits().withAffinity(env.affinity()) : env.limits();
        checks.addAll(limitChecks(expected, limits, env.affinity()));
        checks.addAll(jdkChecks(cell, env));

        ignoredOptionsCheck(cell, env).ifPresent(checks::add);

        return new EnvironmentRecord(
                processors,
                scheduler,
                env.vm(),
                env.javaVersion(),
                env.gc(),
                env.javaToolOptions(),
                env.inputArguments(),
                image,
                imageDigest,
                javaVersionOutput,
                limits,
                checks.stream().allMatch(Check::ok),
                checks);
    }

    /** The virtual-thread scheduler's settings: those the cell asks for, "auto" as the JDK derives it. */
    private static List<Check> schedulerChecks(Cell cell, EnvironmentRecord.Scheduler scheduler, int processors) {
        String requestedPar = cell.coordinates().parallelism();
        String requestedMax = cell.coordinates().maxPoolSize();
        int expectedPar = requestedPar.equals("auto") ? processors : Integer.parseInt(requestedPar);
        if (!requestedMax.equals("auto")) {
            expectedPar = Math.min(expectedPar, Integer.parseInt(requestedMax));
        }
        String source = scheduler.source().orElse("unknown");
        String derived = "derived by the JDK's rule from the properties the JVM saw";
        int expectedMax = requestedMax.equals("auto") ? Math.max(expectedPar, 256) : Integer.parseInt(requestedMax);
        String requestedMin = cell.coordinates().minRunnable();
        int expectedMin = requestedMin.equals("auto") ? Math.max(expectedPar / 2, 1) : Integer.parseInt(requestedMin);
        return List.of(
                schedulerCheck("parallelism", requestedPar, expectedPar, scheduler.parallelism(), "read via " + source),
                schedulerCheck("maxPoolSize", requestedMax, expectedMax, scheduler.maxPoolSize(), derived),
                schedulerCheck("minRunnable", requestedMin, expectedMin, scheduler.minRunnable(), derived));
    }

    /** The limits the backend set, as the JVM's process saw them: cgroup quota, memory and pids, CPU affinity. */
    private static List<Check> limitChecks(
            Expectation expected, EnvironmentRecord.Limits limits, Optional<String> affinity) {
        List<Check> checks = new ArrayList<>();
        expected.cgroupCpus().ifPresent(cpus -> {
            Optional<Double> observed = limits.cpus();
            boolean ok =
                    observed.isPresent() && BigDecimal.valueOf(observed.get()).compareTo(cpus) == 0;
            checks.add(new Check(
                    "cgroup cpu quota",
                    cpus.toPlainString(),
                    observed.map(String::valueOf).orElse("null"),
                    ok,
                    Optional.empty()));
        });
        expected.memoryBytes().ifPresent(bytes -> checks.add(limitCheck("cgroup memory", bytes, limits.memoryBytes())));
        expected.pids().ifPresent(pids -> checks.add(limitCheck("cgroup pids", pids, limits.pids())));
        expected.affinity().ifPresent(cpus -> {
            boolean same = affinity.isPresent()
                    && dev.loommatrix.core.plan.CpuSet.parse(affinity.get())
                            .equals(dev.loommatrix.core.plan.CpuSet.parse(cpus));
            checks.add(
                    new Check(
                            "cpu affinity",
                            cpus,
                            affinity.orElse("null"),
                            same,
                            Optional.of(
                                    "the CPUs the process may run on (Cpus_allowed_list): taskset on a host, the cpuset in a container")));
        });
        return checks;
    }

    /** The JDK the cell asked for: its VM and its feature version. */
    private static List<Check> jdkChecks(Cell cell, HarnessEnvironment env) {
        String vmName = String.valueOf(env.vm().get("name"));
        String spec = env.javaSpecificationVersion();
        return List.of(
                new Check(
                        "vm", cell.jdk().vm().id(), vmName, vmMatches(cell.jdk().vm(), vmName), Optional.empty()),
                new Check(
                        "java feature version",
                        String.valueOf(cell.jdk().version()),
                        spec,
                        spec.equals(String.valueOf(cell.jdk().version())),
                        Optional.empty()));
    }

    static final String IGNORE_UNRECOGNIZED = "-XX:+IgnoreUnrecognizedVMOptions";

    /**
     * Semeru images put {@code -XX:+IgnoreUnrecognizedVMOptions} in JAVA_TOOL_OPTIONS, so a mistyped or
     * unsupported {@code -XX:} flag from the matrix would be dropped without a word. Where the cell asks
     * for such flags, that must be the JDK entry's explicit choice ({@code javaToolOptions}), or the
     * cell is not attested.
     */
    static Optional<Check> ignoredOptionsCheck(Cell cell, HarnessEnvironment env) {
        List<String> xxFlags =
                cell.allJvmArgs().stream().filter(a -> a.startsWith("-XX:")).toList();
        String toolOptions = env.javaToolOptions();
        List<String> inputs = env.inputArguments();
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
            String key, String requested, int expected, Optional<Integer> reported, String note) {
        int observed = reported.orElse(-1);
        return new Check(
                "scheduler." + key,
                requested + (requested.equals("auto") ? " (= " + expected + ")" : ""),
                String.valueOf(observed),
                observed == expected,
                Optional.of(note));
    }

    private static Check limitCheck(String setting, long requested, Optional<Long> observed) {
        return new Check(
                setting,
                String.valueOf(requested),
                observed.map(String::valueOf).orElse("null"),
                observed.isPresent() && observed.get() == requested,
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
