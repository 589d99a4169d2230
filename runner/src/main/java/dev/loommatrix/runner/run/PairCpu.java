package dev.loommatrix.runner.run;

import dev.loommatrix.runner.host.CellCpu;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * A cell's own CPU and its lockstep sibling's (issue #30 beside #32): both sides of an A/B pair in lockstep run at
 * once, by turns, so what the other side's JVM does — its turns, its JIT in the background — is the pair's own work,
 * not other work on the host that would flag the block disturbed. The sibling's reading is whatever cell it is
 * measuring now (its containers' cgroups or its process groups); its count is carried over when that cell changes,
 * and kept while it cannot be read (between JVMs). A reading of the same cell that is lower than the last is not a
 * new count: a process group's reading lags for a moment when a JVM is reaped between two reads, and the sampler's
 * sum over the cell evens that out — taken for a new count, the sibling's whole CPU so far would be counted twice,
 * and the pair would never be called disturbed again.
 */
public final class PairCpu implements CellCpu {

    private final CellCpu own;
    private final Supplier<CellCpu> sibling;
    private long siblingBefore; // the sibling's counts of cells it measured before, summed
    private long siblingLast; // its current count's last reading
    private CellCpu siblingSeen;

    public PairCpu(CellCpu own, Supplier<CellCpu> sibling) {
        this.own = own;
        this.sibling = sibling;
    }

    @Override
    public synchronized OptionalLong nanos() {
        // both sides' own processes, with what the runner reaped of either counted once, in one consistent reading;
        // the cell's own reading decides whether an interval says anything
        return CellCpu.withShared(own, () -> {
            OptionalLong mine = own.unsharedNanos();
            if (mine.isEmpty()) {
                return mine;
            }
            return OptionalLong.of(mine.getAsLong() + sibling());
        });
    }

    /** The sibling's CPU so far: the cells it measured before, and its current cell's last reading. */
    private long sibling() {
        CellCpu now = sibling.get();
        OptionalLong theirs = now == null ? OptionalLong.empty() : now.unsharedNanos();
        if (theirs.isPresent()) {
            if (now != siblingSeen) {
                // another cell (or the same cell measured again): a new count from zero
                siblingBefore += siblingLast;
                siblingLast = 0;
                siblingSeen = now;
            }
            siblingLast = theirs.getAsLong();
        }
        return siblingBefore + siblingLast;
    }

    @Override
    public OptionalLong throttledNanos() {
        return own.throttledNanos();
    }

    @Override
    public String source() {
        return own.source() + ", and the lockstep sibling's alike";
    }
}
