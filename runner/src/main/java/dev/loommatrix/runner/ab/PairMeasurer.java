package dev.loommatrix.runner.ab;

import dev.loommatrix.core.plan.Cell;
import java.io.IOException;

/**
 * How one pair of a cell's blocks is measured: back to back ({@link BackToBack}) or both at once, their forks taking
 * turns ({@link InLockstep}). Either way block k of the baseline and block k of the candidate saw the same machine.
 */
interface PairMeasurer {

    /**
     * Measures pair {@code k}: the baseline's block of {@code a} and the candidate's of {@code b}, the baseline's
     * first when one must go first and {@code baselineFirst} says so.
     */
    void measure(Cell a, Cell b, int k, boolean baselineFirst) throws IOException, InterruptedException;
}
