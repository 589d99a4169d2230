package dev.loommatrix.runner.backend.container;

import dev.loommatrix.core.matrix.JdkEntry;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.CpuSet;
import dev.loommatrix.runner.records.Attestation;
import java.util.Optional;

/** The CPU-limit rules in a container: what a cell's JVM should see under its cgroup limits and cpuset. */
final class ContainerLimits {

    private ContainerLimits() {}

    /**
     * What the JVM should see: processors from the quota by the VM's rounding, capped by the cpuset's size and the
     * host's CPUs; the cgroup limits as asked; with a cpuset, exactly those CPUs allowed.
     */
    static Attestation.Expectation expectation(Cell cell, int hostCpus, Optional<CpuSet> cpuset) {
        int processors = Attestation.processorsForQuota(
                cell.jdk().vm(), cell.coordinates().cpus(), hostCpus);
        String rule = cell.jdk().vm().id() + " derives processors from the quota "
                + cell.coordinates().cpus().toPlainString()
                + (cell.jdk().vm() == JdkEntry.Vm.HOTSPOT ? " rounded up" : " rounded down (min 1)")
                + ", at most the host's " + hostCpus;
        if (cpuset.isPresent()) {
            processors = Math.min(processors, cpuset.get().size());
            rule += " and the cpuset's " + cpuset.get().size();
        }
        return new Attestation.Expectation(
                processors,
                rule,
                Optional.of(cell.coordinates().cpus()),
                Optional.of(cell.memoryBytes()),
                Optional.of(cell.pids()),
                cpuset.map(Object::toString));
    }
}
