package dev.loommatrix.core.result;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What took effect inside the JVM under test, and whether that is what the cell asked for.
 *
 * @param imageDigest the base image's registry digest, or its image id where it has none (local images)
 * @param javaVersionOutput what {@code java -version} printed in the cell's environment
 * @param attested true only when every check in {@code attestation} passed
 */
public record EnvironmentRecord(
        int availableProcessors,
        Scheduler scheduler,
        Map<String, String> vm,
        String javaVersion,
        List<String> gc,
        String javaToolOptions,
        List<String> inputArguments,
        Optional<String> image,
        Optional<String> imageDigest,
        Optional<String> javaVersionOutput,
        Limits limits,
        boolean attested,
        List<Check> attestation) {

    public EnvironmentRecord {
        attestation = List.copyOf(attestation);
    }

    /** This record with more checks; attested while every check, old and new, passed. */
    public EnvironmentRecord withChecks(List<Check> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<Check> all = new java.util.ArrayList<>(attestation);
        all.addAll(more);
        return new EnvironmentRecord(
                availableProcessors,
                scheduler,
                vm,
                javaVersion,
                gc,
                javaToolOptions,
                inputArguments,
                image,
                imageDigest,
                javaVersionOutput,
                limits,
                attested && more.stream().allMatch(Check::ok),
                all);
    }

    /**
     * The virtual-thread scheduler as the JVM reported it: read from the live scheduler (JDK 24+'s
     * VirtualThreadSchedulerMXBean, the default ForkJoinPool on 21–23), {@code source} says which. Fields
     * in alphabetical order, as the file has always had them.
     */
    public record Scheduler(
            Optional<Integer> maxPoolSize,
            Optional<Integer> minRunnable,
            Optional<Integer> parallelism,
            Optional<Integer> poolSize,
            Optional<String> source) {}

    /**
     * The limits the JVM saw from inside: its cgroup (v1 or v2) quota, cpuset, memory and pids limits, and
     * the CPUs it may run on. Absent where the host sets none (the local backend). Alphabetical, as ever.
     */
    public record Limits(
            Optional<String> affinity,
            Optional<String> cgroup,
            Optional<Double> cpus,
            Optional<String> cpuset,
            Optional<Long> memoryBytes,
            Optional<Long> pids) {

        public Limits withAffinity(Optional<String> cpus) {
            return new Limits(cpus, cgroup, this.cpus, cpuset, memoryBytes, pids);
        }
    }

    /** One comparison of a requested setting with what the JVM reported. */
    public record Check(String setting, String requested, String observed, boolean ok, Optional<String> note) {}
}
