package dev.loommatrix.runner.run;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.CpuSet;
import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.ContainerEngine;
import dev.loommatrix.runner.backend.service.ServiceCells;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Where a cell runs — the second stage: in a container when an engine answers and the cell's image can be
 * had (Linux cells), else on this host's JDKs, saying why; with {@code --parallel-cells}, on which CPUs.
 */
public final class CellPlacement {

    /** The backend a cell goes to, and why it is not the container backend when it falls back. */
    sealed interface Decision {
        record On(Backend backend, Optional<String> fallbackReason) implements Decision {}

        /** {@code --backend docker} without an engine: the cell fails with this reason. */
        record Nowhere(String backendName, String reason) implements Decision {}
    }

    /**
     * A service cell's server takes the first CPUs of the host and its load generator all the others, never inside
     * the server's quota: in a slot it would overlap its neighbours, so it runs after them, alone.
     */
    static final String WHY_SERVICES_RUN_ALONE =
            "a service cell's server and load generator take CPUs apart across the host, so it runs alone, after the"
                    + " cells beside each other";

    private final MatrixRun.BackendChoice choice;
    private final Optional<ContainerEngine> docker;
    private final Backend local;

    /**
     * @param docker the container engine, if one answers
     * @param local the backend that runs cells on this host's JDKs
     */
    public CellPlacement(MatrixRun.BackendChoice choice, Optional<? extends ContainerEngine> docker, Backend local) {
        this.choice = choice;
        this.docker = docker.map(ContainerEngine.class::cast);
        this.local = local;
    }

    Decision decide(Cell cell) throws InterruptedException {
        boolean linux = cell.coordinates().os().equals("linux");
        if (!linux || choice == MatrixRun.BackendChoice.LOCAL) {
            return new Decision.On(local, Optional.empty());
        }
        if (docker.isEmpty()) {
            return choice == MatrixRun.BackendChoice.DOCKER
                    ? new Decision.Nowhere("container", "--backend docker, but no Docker engine answers")
                    : new Decision.On(local, Optional.of("no Docker engine answers"));
        }
        if (choice == MatrixRun.BackendChoice.DOCKER) {
            return new Decision.On(docker.get(), Optional.empty());
        }
        Optional<String> problem = docker.get().imageProblem(cell); // cached per image
        return problem.isEmpty() ? new Decision.On(docker.get(), Optional.empty()) : new Decision.On(local, problem);
    }

    /**
     * Whether the cell will run (rather than be skipped or fail at once for want of a backend): what the
     * progress bar's ETA counts. On a host without Docker, a JDK entry with no such JDK here is skipped in no
     * time, and the ETA must not wait for it.
     */
    public boolean expectsToRun(Cell cell) throws InterruptedException {
        return whyNotRun(cell).isEmpty();
    }

    /**
     * Why the cell will not run, if it will not: skipped (a JDK this host lacks, another OS, a service cell without
     * its load generator) or failed at once for want of a backend. An A/B run's budget is planned without them.
     */
    Optional<String> whyNotRun(Cell cell) throws InterruptedException {
        // a service cell, built-in or the team's, without its load generator (or the built-in's server) is skipped
        Optional<String> missing = ServiceCells.missing(cell);
        if (missing.isPresent()) {
            return missing;
        }
        return switch (decide(cell)) {
            case Decision.Nowhere nowhere -> Optional.of(nowhere.reason());
            case Decision.On on -> on.backend() == local ? local.whyNotRun(cell) : Optional.empty();
        };
    }

    /** Whether cells can run beside each other on disjoint CPUs (containers only). */
    boolean canRunBeside() {
        return docker.isPresent() && choice != MatrixRun.BackendChoice.LOCAL;
    }

    int hostCpus() {
        return docker.orElseThrow().hostCpus();
    }

    /**
     * Whether a cell can run in a slot: in a container, without its own cpuset, its quota within the slot, and not a
     * service cell ({@link #WHY_SERVICES_RUN_ALONE}).
     */
    boolean fitsSlot(Cell cell, int slotSize) throws InterruptedException {
        return !ServiceCells.runsAService(cell)
                && cell.coordinates().os().equals("linux")
                && cell.coordinates().cpuSet().isEmpty()
                && cell.coordinates().cpus().compareTo(BigDecimal.valueOf(slotSize)) <= 0
                && docker.orElseThrow().imageProblem(cell).isEmpty();
    }

    /** N disjoint cpusets covering the host's CPUs as evenly as possible (4 CPUs, 2 slots → 0-1, 2-3). */
    static List<CpuSet> slots(int hostCpus, int n) {
        if (n > hostCpus) {
            throw new IllegalArgumentException(
                    "--parallel-cells " + n + " needs at least one CPU per cell; this host has " + hostCpus);
        }
        List<CpuSet> slots = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            SortedSet<Integer> cpus = new TreeSet<>();
            for (int cpu = k * hostCpus / n; cpu < (k + 1) * hostCpus / n; cpu++) {
                cpus.add(cpu);
            }
            slots.add(new CpuSet(cpus));
        }
        return slots;
    }

    /** Once, before a resumed run starts: what killed runners of this run left in the engine. */
    void stopContainerLeftovers(String runId, Path runDir) {
        docker.ifPresent(d -> d.stopLeftovers(runId, runDir));
    }

    /** Before a cell runs again: the JVMs a killed runner left for it on this host. */
    void stopHostLeftovers(String runId, Path rawDir) {
        local.stopLeftovers(runId, rawDir);
    }

    /** Ctrl-C: whatever is running, in containers and on this host. */
    void cancel() {
        docker.ifPresent(ContainerEngine::cancel);
        local.cancel();
    }

    /**
     * The cells a run with these backends will not run on this host, each with why (a JDK it lacks, another OS, a
     * service cell without its load generator): they are skipped in no time, so a plan of time leaves them out.
     * Asks for a container cell's image as the run would (it may be built): call it holding the measurement lock.
     */
    public static Map<String, String> notRunHere(
            List<Cell> cells, MatrixRun.BackendChoice choice, Optional<? extends ContainerEngine> docker, Backend local)
            throws InterruptedException {
        CellPlacement placement = new CellPlacement(choice, docker, local);
        Map<String, String> notRun = new LinkedHashMap<>();
        for (Cell cell : cells) {
            placement.whyNotRun(cell).ifPresent(why -> notRun.put(cell.id(), why));
        }
        return notRun;
    }
}
