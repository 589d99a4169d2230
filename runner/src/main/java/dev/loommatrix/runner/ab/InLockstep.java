package dev.loommatrix.runner.ab;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.FileTrees;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * A pair measured in lockstep (issue #30): both sides' blocks at once, their forks' iterations by turns
 * ({@link Lockstep}). A pair that cannot be set up so is measured back to back.
 */
final class InLockstep implements PairMeasurer {

    private final Blocks blocks;
    private final AbRun.Side baseline;
    private final AbRun.Side candidate;
    private final String seed;
    private final Supplier<PairingTally> tally;
    private final PairMeasurer otherwise;

    InLockstep(Blocks blocks, AbRun.Side baseline, AbRun.Side candidate, String seed, Supplier<PairingTally> tally) {
        this.blocks = blocks;
        this.baseline = baseline;
        this.candidate = candidate;
        this.seed = seed;
        this.tally = tally;
        this.otherwise = new BackToBack(blocks, baseline, candidate, seed, tally);
    }

    @Override
    public void measure(Cell a, Cell b, int k, boolean baselineFirst) throws IOException, InterruptedException {
        Path turns = blocks.turns(b.id(), k);
        Optional<Lockstep> coordinator = Lockstep.start(turns, (seed + "/" + b.id() + "/" + k).hashCode());
        if (coordinator.isEmpty()) {
            otherwise.measure(a, b, k, baselineFirst);
            return;
        }
        Lockstep.Tally turnsTaken;
        int measuredAgain;
        try (Lockstep lockstep = coordinator.get()) {
            Blocks.Block blockA = blocks.block(baseline, a, k, "a", seed);
            Blocks.Block blockB = blocks.block(candidate, b, k, "b", seed);
            // a disturbed block is measured again with its sibling, both in step once more
            PairAttempts attempts = new PairAttempts();
            PairAttempts.Side attemptsA = attempts.side("a");
            PairAttempts.Side attemptsB = attempts.side("b");
            blockA.run().inLockstep(lockstep.dir("a"), blockB.run(), attemptsA);
            blockB.run().inLockstep(lockstep.dir("b"), blockA.run(), attemptsB);
            measureBoth(blockA, attemptsA, blockB, attemptsB, lockstep);
            turnsTaken = lockstep.finish();
            measuredAgain = attempts.measuredAgain();
        } finally {
            FileTrees.delete(turns);
        }
        PairingTally cell = tally.get();
        cell.lockstep++;
        cell.pairedTurns += turnsTaken.pairedTurns();
        cell.aloneTurns += turnsTaken.aloneTurns();
        cell.measuredAgain += measuredAgain;
        cell.placed(blocks.forkRecords(a, k, "a"));
        cell.placed(blocks.forkRecords(b, k, "b"));
    }

    /** Both blocks at once, each on a thread of its own; a block that ends lets its sibling go on alone. */
    private void measureBoth(
            Blocks.Block blockA,
            PairAttempts.Side attemptsA,
            Blocks.Block blockB,
            PairAttempts.Side attemptsB,
            Lockstep lockstep)
            throws IOException, InterruptedException {
        try (var both = Executors.newFixedThreadPool(2)) {
            var doneA = both.submit(() -> blocks.measure(blockA, () -> ended(attemptsA, lockstep)));
            var doneB = both.submit(() -> blocks.measure(blockB, () -> ended(attemptsB, lockstep)));
            doneA.get();
            doneB.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** A lockstep block has ended: its sibling neither waits for its word on an attempt nor for its forks' turns. */
    private static void ended(PairAttempts.Side side, Lockstep lockstep) {
        side.ended();
        lockstep.ended(side.name());
    }
}
