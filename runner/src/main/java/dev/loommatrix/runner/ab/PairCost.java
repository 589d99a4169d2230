package dev.loommatrix.runner.ab;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.CostModel;

/**
 * What a pair of blocks is estimated to take before anything is measured: the cost model's estimate of each side's
 * cell ({@link CostModel}), one repetition per variant, back to back. One model for the plan's budget ({@link AbPlan})
 * and the run's first-pass ETA ({@link AbRun}); once a cell's pairs have been measured, what they took ({@link Pace})
 * plans its looks instead.
 */
public final class PairCost {

    private PairCost() {}

    /** A pair of blocks of a cell, both sides run. */
    public static double pairMs(Cell cell) {
        return pairMs(cell, true, cell, true);
    }

    /**
     * A pair of blocks: each side's cell once per variant (its repetitions and warmups shared out by the candidate's
     * count, the blocks' own), a side this host skips in no time.
     */
    public static double pairMs(Cell baseline, boolean baselineRuns, Cell candidate, boolean candidateRuns) {
        return ((baselineRuns ? CostModel.estimateMs(baseline) : 0)
                        + (candidateRuns ? CostModel.estimateMs(candidate) : 0))
                / Math.max(1, candidate.repetitions() + candidate.warmup());
    }
}
