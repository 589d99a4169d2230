package dev.loommatrix.runner.backend;

import dev.loommatrix.core.plan.Cell;
import java.nio.file.Path;

/** Runs one cell and reports how it ended. Implementations never throw for trouble inside the cell. */
public interface Backend {

    String name();

    /**
     * @param rawDir where the cell's harness records and driver exports are kept
     * @param variantOrder the order to run the variants in (randomized by the caller, recorded)
     */
    Execution run(Cell cell, Path rawDir, java.util.List<String> variantOrder) throws InterruptedException;

    /** Stops the cell now running, if any (Ctrl-C): its container or JVM is killed, {@link #run} returns soon. */
    void cancel();
}
