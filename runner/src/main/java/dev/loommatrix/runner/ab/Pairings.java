package dev.loommatrix.runner.ab;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.runner.backend.ContainerEngine;
import dev.loommatrix.runner.backend.HarnessCommand;
import dev.loommatrix.runner.run.MatrixRun;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.zip.ZipFile;

/**
 * How each cell's pairs are measured: in lockstep where it was asked for and the cell allows it, else back to back
 * (with why); and the tally of how they were, for the report.
 */
final class Pairings {

    private final AbRun.Settings settings;
    private final Blocks blocks;
    /** Why the sides' own harnesses cannot take turns, if one cannot: their jars read once, as the run starts. */
    private final Optional<String> harnessesWithoutTurns;
    /** How each cell's pairs were measured ("cell id" → tally). */
    private final Map<String, PairingTally> tallies = new ConcurrentHashMap<>();

    Pairings(AbRun.Settings settings, Blocks blocks, AbRun.Side baseline, AbRun.Side candidate) {
        this.settings = settings;
        this.blocks = blocks;
        this.harnessesWithoutTurns = settings.pairing() == AbRun.Pairing.LOCKSTEP
                ? harnessWithoutTurns(baseline.harness(), "baseline")
                        .or(() -> harnessWithoutTurns(candidate.harness(), "candidate"))
                : Optional.empty();
    }

    /** A cell's pairs' measurer, and why they are back to back when lockstep was asked for and they cannot be. */
    record Choice(PairMeasurer measurer, Optional<String> whyBackToBack) {}

    /** How this cell's pairs are measured, in the run {@code seed}. */
    Choice of(AbRun.Side baseline, AbRun.Side candidate, AbSides.Pair pair, String seed) {
        String id = pair.candidate().id();
        Supplier<PairingTally> tally = () -> tallies.computeIfAbsent(id, c -> new PairingTally());
        // empty: in lockstep; else why not ("" when back to back is what was asked for)
        Optional<String> whyBackToBack = settings.pairing() == AbRun.Pairing.LOCKSTEP
                ? whyNotLockstep(pair)
                        .or(() -> harnessesWithoutTurns)
                        .or(() -> engineElsewhere(baseline, pair.baseline()))
                : Optional.of("");
        PairMeasurer measurer = whyBackToBack.isEmpty()
                ? new InLockstep(blocks, baseline, candidate, seed, tally)
                : new BackToBack(blocks, baseline, candidate, seed, tally);
        return new Choice(measurer, whyBackToBack.filter(why -> !why.isEmpty()));
    }

    /** Records why a cell's pairs were back to back. */
    void backToBack(String cellId, String why) {
        tallies.computeIfAbsent(cellId, c -> new PairingTally()).why = why;
    }

    /** How each cell's pairs were measured, as the report says it (a cell not run here is not among them). */
    Map<String, String> words(Set<String> notRun) {
        return PairingTally.words(tallies, notRun);
    }

    /**
     * Why a cell's pairs cannot be measured in lockstep, if they cannot: only the harness's iterated forks take
     * turns, and only forks alike on both sides (the same iterations and warmup forks) stay in step.
     */
    static Optional<String> whyNotLockstep(AbSides.Pair pair) {
        Cell a = pair.baseline();
        Cell b = pair.candidate();
        if (!HarnessCommand.takesTurns(a) || !HarnessCommand.takesTurns(b)) {
            return Optional.of(
                    a.workload().user().isPresent() || b.workload().user().isPresent()
                            ? "a user workload's JVMs do not take turns"
                            : "its forks run once, not by iterations");
        }
        if (!a.iterations().equals(b.iterations()) || a.warmup() != b.warmup()) {
            return Optional.of("the sides' forks differ in iterations or warmup forks");
        }
        if (!LockstepHost.CAN) {
            return Optional.of("this host cannot make named pipes");
        }
        return Optional.empty();
    }

    /**
     * Why a side's own harness ({@code --baseline-harness}, {@code --candidate-harness}) cannot take turns with this
     * runner, if it cannot: a harness built before this runner's turns protocol would refuse {@code --turns}, or
     * end its forks without the tail's word, and fail the cell. This runner's protocol came with
     * {@code TurnCpu}, which the jar then holds.
     */
    static Optional<String> harnessWithoutTurns(Optional<Path> harness, String name) {
        if (harness.isEmpty()) {
            return Optional.empty();
        }
        try (var jar = new ZipFile(harness.get().toFile())) {
            return jar.getEntry("dev/loommatrix/harness/measure/TurnCpu.class") != null
                    ? Optional.empty()
                    : Optional.of("the " + name + "'s harness was built before this runner's turns");
        } catch (IOException unreadable) {
            return Optional.of("the " + name + "'s harness jar cannot be read: " + unreadable.getMessage());
        }
    }

    /**
     * Why the cell's containers could not reach this host's pipes, if the cell runs in containers of an engine
     * that is not on this host ({@link ContainerEngine#whyNotThisHost}); both sides use the same engine.
     */
    private Optional<String> engineElsewhere(AbRun.Side side, Cell cell) {
        boolean inContainers = settings.choice() != MatrixRun.BackendChoice.LOCAL
                && cell.coordinates().os().equals("linux");
        return inContainers ? side.docker().flatMap(ContainerEngine::whyNotThisHost) : Optional.empty();
    }

    /** Whether this host can make named pipes: asked once, and only by a run that asks for lockstep. */
    private static final class LockstepHost {
        static final boolean CAN = Lockstep.available();
    }
}
