package dev.loommatrix.runner.host;

import java.util.OptionalLong;

/**
 * The CPU a running cell's own processes have used (issue #32), for telling it apart from other work on the
 * host: cumulative nanoseconds (only differences are used), empty while it cannot be read.
 */
public interface CellCpu {
    OptionalLong nanos();

    /**
     * {@link #nanos} less what this cell's reading shares with every cell the runner runs at the same time: on the
     * local backend, the processes this runner reaped, whichever cell started them. A lockstep pair adds its sibling's
     * unshared part to its own whole reading, so the shared part counts once.
     */
    default OptionalLong unsharedNanos() {
        return nanos();
    }

    /** Time the cell's CPU quota held it back, cumulative nanoseconds, where the backend can say. */
    default OptionalLong throttledNanos() {
        return OptionalLong.empty();
    }

    /** Where the figures come from, in words. */
    String source();
}
