package dev.loommatrix.runner.backend;

import dev.loommatrix.core.plan.Cell;
import java.util.Optional;

/**
 * A backend that runs cells in containers of an engine: what placing a cell there asks of it beyond running it —
 * whether the cell's image can be had, how many CPUs the engine's host has (slots for {@code --parallel-cells}, an
 * A/B block's CPUs), whether the engine is on this host (lockstep's pipes), and which engine it is (the measurement
 * lock). Orchestration takes this interface, not the engine's class, so a fake can stand in for it.
 */
public interface ContainerEngine extends Backend {

    /** Which engine this is: one measurement at a time per engine. */
    String engineId();

    /** Why the engine's containers cannot reach this host's files and pipes, if they cannot (it runs elsewhere). */
    Optional<String> whyNotThisHost();

    /** Why the cell's image cannot be had, if it cannot (the cell then runs on this host's JDKs, said why). */
    Optional<String> imageProblem(Cell cell) throws InterruptedException;

    /** The CPUs of the host the engine runs its containers on. */
    int hostCpus();
}
