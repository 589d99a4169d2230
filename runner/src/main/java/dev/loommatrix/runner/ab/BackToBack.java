package dev.loommatrix.runner.ab;

import dev.loommatrix.core.plan.Cell;
import java.io.IOException;
import java.util.function.Supplier;

/** A pair measured back to back: one side's block, then the other's, in the pair's (balanced, random) order. */
final class BackToBack implements PairMeasurer {

    private final Blocks blocks;
    private final AbRun.Side baseline;
    private final AbRun.Side candidate;
    private final String seed;
    private final Supplier<PairingTally> tally;

    BackToBack(Blocks blocks, AbRun.Side baseline, AbRun.Side candidate, String seed, Supplier<PairingTally> tally) {
        this.blocks = blocks;
        this.baseline = baseline;
        this.candidate = candidate;
        this.seed = seed;
        this.tally = tally;
    }

    @Override
    public void measure(Cell a, Cell b, int k, boolean baselineFirst) throws IOException, InterruptedException {
        if (baselineFirst) {
            blocks.measure(baseline, a, k, "a", seed);
            blocks.measure(candidate, b, k, "b", seed);
        } else {
            blocks.measure(candidate, b, k, "b", seed);
            blocks.measure(baseline, a, k, "a", seed);
        }
        tally.get().backToBack++;
    }
}
