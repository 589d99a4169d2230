package dev.loommatrix.runner.backend.service;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.CpuSet;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Where a service cell's server and generator run: the server on the cell's CPUs (its cpuset, else as many
 * CPUs as its quota rounds up to, from CPU 0), the generator on the host's other CPUs — never inside the
 * server's quota. A host with no CPU to spare shares them, and says so.
 *
 * @param server the server's cpuset; empty when it shares every CPU with the generator
 * @param generator the generator's cpuset; empty when it shares
 */
public record ServicePlacement(Optional<CpuSet> server, Optional<CpuSet> generator, int hostCpus) {

    public static ServicePlacement of(Cell cell, int hostCpus) {
        int need = cell.coordinates().wholeCpus();
        CpuSet server = cell.coordinates().cpuSet().orElse(CpuSet.first(Math.min(need, hostCpus)));
        TreeSet<Integer> rest = new TreeSet<>();
        for (int cpu = 0; cpu < hostCpus; cpu++) {
            if (!server.cpus().contains(cpu)) {
                rest.add(cpu);
            }
        }
        if (rest.isEmpty()) {
            return new ServicePlacement(cell.coordinates().cpuSet(), Optional.empty(), hostCpus);
        }
        return new ServicePlacement(Optional.of(server), Optional.of(new CpuSet(rest)), hostCpus);
    }

    /** Nothing pinned (a host without taskset): both share every CPU. */
    public static ServicePlacement unpinned(int hostCpus) {
        return new ServicePlacement(Optional.empty(), Optional.empty(), hostCpus);
    }

    /** The CPUs the generator may use. */
    public int generatorCpus() {
        return generator.map(CpuSet::size).orElse(hostCpus);
    }

    /** Whether the generator shares CPUs with the server (the host had none to spare). */
    public boolean shared() {
        return generator.isEmpty();
    }

    /** For the cell log and the record. */
    public String words() {
        return generator.isPresent()
                ? "CPUs " + generator.get() + " (the server on "
                        + server.map(Object::toString).orElse("?") + ")"
                : "the host's " + hostCpus + " CPUs, shared with the server: the host has none to spare beside "
                        + "the server's quota";
    }
}
