package dev.loommatrix.runner.backend;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.CpuSet;
import dev.loommatrix.runner.host.CellCpu;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Runs one cell and reports how it ended. Implementations never throw for trouble inside the cell. */
public interface Backend {

    String name();

    /**
     * Where and how one cell runs.
     *
     * @param runId the run the cell belongs to: its containers and processes are marked with it, so a
     *     resumed run can find what a killed runner left behind
     * @param rawDir where the cell's harness records and driver exports are kept
     * @param variantOrder the order to run the variants in (randomized by the caller, recorded)
     * @param placement CPUs the cell gets to itself beside other cells ({@code --parallel-cells})
     * @param turns an A/B pair's turns directory for this side ({@link dev.loommatrix.runner.ab.Lockstep}): the
     *     harness's forks take their iterations by turns with the other side's ({@code --turns})
     */
    record Assignment(
            String runId, Path rawDir, List<String> variantOrder, Optional<CpuSet> placement, Optional<Path> turns) {
        public Assignment {
            variantOrder = List.copyOf(variantOrder);
        }
    }

    Execution run(Cell cell, Assignment assignment) throws InterruptedException;

    /**
     * Why this backend will not run the cell on this host, if it will not (a JDK the host lacks, another OS): the
     * cell is then skipped in no time, and a plan of time leaves it out.
     */
    default Optional<String> whyNotRun(Cell cell) {
        return Optional.empty();
    }

    /** How to read the cell's own CPU use while {@link #run} runs it. */
    CellCpu cellCpu(String cellId);

    /** Stops the cell now running, if any (Ctrl-C): its container or JVM is killed, {@link #run} returns soon. */
    void cancel();

    /**
     * Stops whatever a runner of this run that was killed without warning (SIGKILL, the OOM killer, a
     * preempted machine) left running for a cell — before the cell runs again beside it. Idempotent.
     */
    void stopLeftovers(String runId, Path rawDir);
}
