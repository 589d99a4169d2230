package dev.loommatrix.runner.backend.local;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.CpuSet;
import dev.loommatrix.runner.backend.service.ServicePlacement;
import dev.loommatrix.runner.host.CpuAffinity;
import dev.loommatrix.runner.records.Attestation;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The CPU-limit rules on this host, where no cgroup limits a cell: a quota becomes an affinity to that many CPUs
 * (rounded up, as HotSpot rounds a quota); a cpuset axis value pins to exactly those CPUs. The JVM is told the count
 * either way ({@code -XX:ActiveProcessorCount}).
 *
 * @param processors what the JVM is told
 * @param pinned the CPUs the cell's processes are pinned to
 * @param prefix what the command starts with to pin it ({@code taskset}, Windows' {@code start /affinity}); empty
 *     when it runs on every CPU or nothing here can pin it
 */
record LocalCpuLimits(int processors, CpuSet pinned, List<String> prefix) {

    LocalCpuLimits {
        prefix = List.copyOf(prefix);
    }

    /** A JVM cell's limits on a host of {@code hostCpus} CPUs. */
    static LocalCpuLimits of(Cell cell, int hostCpus, Optional<Path> taskset) {
        int processors = processors(cell);
        Optional<CpuSet> cpuset = cell.coordinates().cpuSet();
        CpuSet pinned = cpuset.orElse(CpuSet.first(Math.min(processors, hostCpus)));
        List<String> prefix = cpuset.isPresent()
                ? CpuAffinity.prefix(JdkLocator.isWindows(), taskset, pinned)
                : CpuAffinity.prefix(JdkLocator.isWindows(), taskset, processors, hostCpus);
        return new LocalCpuLimits(processors, pinned, prefix);
    }

    /** What the JVM is told: the quota in whole CPUs, at most the cpuset's size. */
    static int processors(Cell cell) {
        int fromQuota = cell.coordinates().wholeCpus();
        return cell.coordinates()
                .cpuSet()
                .map(set -> Math.min(fromQuota, set.size()))
                .orElse(fromQuota);
    }

    /** Why the cell cannot run here, if its cpuset names CPUs this host does not have. */
    static Optional<String> unknownCpus(Cell cell, int hostCpus) {
        return cell.coordinates()
                .cpuSet()
                .filter(set -> set.highest() >= hostCpus)
                .map(set -> "cpuset " + set + " names CPUs this host does not have (it has " + hostCpus + ")");
    }

    List<String> jvmArgs() {
        return jvmArgs(processors);
    }

    static List<String> jvmArgs(int processors) {
        return List.of("-XX:ActiveProcessorCount=" + processors);
    }

    /** What the JVM should see; the affinity is read back only where it is visible from inside (Linux). */
    Attestation.Expectation expectation(int hostCpus) {
        return new Attestation.Expectation(
                processors,
                "-XX:ActiveProcessorCount=" + processors
                        + (prefix.isEmpty() ? "" : ", affinity to CPUs " + pinned)
                        + (processors > hostCpus ? "; the host has only " + hostCpus + " CPUs" : ""),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                // taskset's effect is visible from inside (Linux); Windows' start /affinity is not read back
                prefix.isEmpty() || JdkLocator.isWindows() ? Optional.empty() : Optional.of(pinned.toString()));
    }

    /** What a service cell's server JVM should see: pinned to the server's CPUs where taskset pins it. */
    static Attestation.Expectation forService(Cell cell, ServicePlacement placement, boolean taskset) {
        int processors = processors(cell);
        return new Attestation.Expectation(
                processors,
                "-XX:ActiveProcessorCount=" + processors
                        + placement.server().map(s -> ", affinity to CPUs " + s).orElse(""),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                taskset ? placement.server().map(Object::toString) : Optional.empty());
    }
}
