package dev.loommatrix.runner.host;

import java.util.OptionalLong;

/**
 * The CPU a running cell's own processes have used (issue #32), for telling it apart from other work on the
 * host: cumulative nanoseconds (only differences are used), empty while it cannot be read.
 */
public interface CellCpu {
    OptionalLong nanos();

    /** Time the cell's CPU quota held it back, cumulative nanoseconds, where the backend can say. */
    default OptionalLong throttledNanos() {
        return OptionalLong.empty();
    }

    /** Where the figures come from, in words. */
    String source();
}
