package dev.loommatrix.runner.host;

import java.util.OptionalLong;
import java.util.function.Supplier;

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

    /** The part of {@link #nanos} every cell running at the same time shares (the local backend's reaped processes). */
    default OptionalLong sharedNanos() {
        return OptionalLong.of(0);
    }

    /**
     * {@code unshared} plus the shared count of {@code cell}, as one consistent reading: the shared count read before
     * and after, and all read again while it moved between them. A process reaped mid-reading leaves its live group
     * and joins the shared count at once; read on either side of that moment it would be counted twice or not at
     * all, and at a cell's end no later reading makes up for it — a lockstep pair's block once read 1.7 CPU-seconds
     * of its sibling's JVM as other work that way. Two moves in a row are rare; the third reading is taken as it is
     * (counted twice at worst).
     */
    static OptionalLong withShared(CellCpu cell, Supplier<OptionalLong> unshared) {
        for (int attempt = 1; ; attempt++) {
            OptionalLong before = cell.sharedNanos();
            OptionalLong own = unshared.get();
            OptionalLong after = cell.sharedNanos();
            if (before.isEmpty() || own.isEmpty() || after.isEmpty()) {
                return OptionalLong.empty();
            }
            if (before.getAsLong() == after.getAsLong() || attempt == 3) {
                return OptionalLong.of(own.getAsLong() + after.getAsLong());
            }
        }
    }

    /** Time the cell's CPU quota held it back, cumulative nanoseconds, where the backend can say. */
    default OptionalLong throttledNanos() {
        return OptionalLong.empty();
    }

    /** Where the figures come from, in words. */
    String source();
}
