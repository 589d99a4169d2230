package dev.loommatrix.runner.run;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.CpuSet;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.Interference;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.ContainerEngine;
import dev.loommatrix.runner.backend.Execution;
import dev.loommatrix.runner.host.CellCpu;
import dev.loommatrix.runner.host.InterferenceSampler;
import dev.loommatrix.runner.records.CellOutcome;
import dev.loommatrix.runner.run.MatrixRun.OnDisturbed;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One cell's attempts, once {@link MatrixRun} knows where it may run: each attempt on the backend its
 * {@link CellPlacement} decides, in a variant order drawn for the run (or the A/B block), watched from outside for
 * other work (issue #32) — and, under {@code --on-disturbed rerun}, measured again while disturbed. What the
 * attempts saw goes back to the run, which records it.
 */
final class CellAttempts {

    /** The attempt kept: what ran, when, beside which cells, what else the host did, and the attempts set aside. */
    record Measured(
            Execution execution,
            Instant started,
            Instant finished,
            List<String> beside,
            Optional<Interference> watched,
            List<CellRecord.Attempt> earlier) {}

    private final RunDirectory dir;
    private final PrintStream out;
    private final CellPlacement placement;
    private final BooleanSupplier stopping;
    private final Neighbours neighbours = new Neighbours();
    private OnDisturbed onDisturbed = OnDisturbed.FLAG;
    private Optional<String> blockSeed = Optional.empty();
    private Optional<Path> turns = Optional.empty();
    /** The lockstep sibling's cell being measured now: its CPU is this block's pair's own, not other work. */
    private Optional<Supplier<CellCpu>> sibling = Optional.empty();
    /** A lockstep block's attempts, decided with its sibling's: this block's side of them. */
    private Optional<PairedAttempts> pairAttempts = Optional.empty();
    /** The CPU reading of the cell measured now: a lockstep sibling counts it as its pair's own. */
    private volatile CellCpu measuring;

    CellAttempts(RunDirectory dir, PrintStream out, CellPlacement placement, BooleanSupplier stopping) {
        this.dir = dir;
        this.out = out;
        this.placement = placement;
        this.stopping = stopping;
    }

    void onDisturbed(OnDisturbed policy) {
        this.onDisturbed = policy;
    }

    void asBlock(String seed) {
        this.blockSeed = Optional.of(seed);
    }

    void inLockstep(Path turns, Supplier<CellCpu> sibling, PairedAttempts attempts) {
        this.turns = Optional.of(turns);
        this.sibling = Optional.of(sibling);
        this.pairAttempts = Optional.of(attempts);
    }

    CellCpu measuring() {
        return measuring;
    }

    /**
     * Runs the cell until an attempt is kept: one, or under {@code --on-disturbed rerun} up to {@link
     * MatrixRun#RERUNS} more while it (or its lockstep pair) is disturbed, each set-aside attempt added to {@code
     * earlier}. Under {@code --on-disturbed fail} a disturbed cell's numbers come back invalid.
     */
    Measured measure(Cell cell, String runId, Optional<CpuSet> slot, List<CellRecord.Attempt> earlier, String where)
            throws IOException, InterruptedException {
        List<CellRecord.Attempt> attempts = new ArrayList<>(earlier);
        for (int rerun = 0; ; rerun++) {
            Instant started = Instant.now();
            neighbours.begin(cell.id());
            Watched watched = execute(cell, runId, slot);
            List<String> beside = neighbours.end(cell.id());
            Instant finished = Instant.now();
            Optional<String> disturbed = watched.seen().flatMap(Interference::disturbed);
            if (onDisturbed != OnDisturbed.RERUN
                    || rerun >= MatrixRun.RERUNS
                    || stopping.getAsBoolean()
                    || !again(rerun, disturbed, watched.execution())) {
                Execution kept = onDisturbed == OnDisturbed.FAIL
                        ? MatrixRun.invalidIfDisturbed(watched.execution(), watched.seen())
                        : watched.execution();
                return new Measured(kept, started, finished, beside, watched.seen(), attempts);
            }
            attempts.add(setAside(cell, where, rerun, disturbed, started, finished));
        }
    }

    /** Whether a disturbed attempt is measured again: alone when disturbed, in lockstep when the pair decides so. */
    private boolean again(int rerun, Optional<String> disturbed, Execution execution) throws InterruptedException {
        return pairAttempts.isEmpty()
                ? disturbed.isPresent()
                : pairAttempts
                        .get()
                        .again(rerun, disturbed.isPresent(), execution.outcome() instanceof CellOutcome.Succeeded);
    }

    /** Its output aside (attempts/&lt;cell&gt;/unfinished-N/), the attempt for the record, and a line saying why. */
    private CellRecord.Attempt setAside(
            Cell cell, String where, int rerun, Optional<String> disturbed, Instant started, Instant finished)
            throws IOException {
        // not disturbed itself: its lockstep sibling was, and the pair is measured again at once
        String why = disturbed
                .map(d -> "disturbed, measured again: " + d)
                .orElse("measured again with its lockstep pair's other block, which was disturbed");
        Optional<Path> aside;
        synchronized (dir) {
            aside = dir.setAsideUnfinished(cell.id());
        }
        out.printf(
                "%s %s: %s; measuring it again (%d of %d)%s%n",
                where,
                cell.id(),
                disturbed.map(d -> "disturbed (" + d + ")").orElse("its lockstep pair's other block disturbed"),
                rerun + 1,
                MatrixRun.RERUNS,
                aside.map(a -> "; its output kept in " + dir.root().relativize(a))
                        .orElse(""));
        return new CellRecord.Attempt(CellStatus.OK, Optional.of(why), started.toString(), finished.toString());
    }

    /** One attempt's execution and what else the host did meanwhile, read from outside the cell (none: not watched). */
    private record Watched(Execution execution, Optional<Interference> seen) {}

    private Watched execute(Cell cell, String runId, Optional<CpuSet> slot) throws InterruptedException {
        List<String> order = new ArrayList<>(cell.workload().variants());
        // Randomized, reproducibly per run and cell, so a drift over a cell's duration does not
        // always favour the same variant; the order is recorded with the cell.
        Collections.shuffle(
                order, new Random(blockSeed.orElse(runId + "/" + cell.id()).hashCode()));
        return switch (placement.decide(cell)) {
            case CellPlacement.Decision.Nowhere(String backend, String reason) ->
                new Watched(
                        new Execution(
                                new CellOutcome.Failed(reason, "", List.of(), Optional.empty()),
                                backend,
                                "none",
                                order,
                                Optional.empty()),
                        Optional.empty());
            case CellPlacement.Decision.On(Backend backend, Optional<String> fallback) -> {
                Optional<CpuSet> cpus = slot.or(() -> blockCpus(cell, backend));
                Watched watched = runWatched(
                        cell, backend, new Backend.Assignment(runId, dir.rawDir(cell.id()), order, cpus, turns));
                yield new Watched(
                        fallback.map(watched.execution()::withFallbackReason).orElse(watched.execution()),
                        watched.seen());
            }
        };
    }

    private Watched runWatched(Cell cell, Backend backend, Backend.Assignment assignment) throws InterruptedException {
        CellCpu own = backend.cellCpu(cell.id());
        measuring = own;
        if (!placement.expectsToRun(cell)) {
            // skipped in no time (no such JDK here, no load generator): nothing is measured, so nothing is
            // said of what ran beside it
            return new Watched(backend.run(cell, assignment), Optional.empty());
        }
        CellCpu watchedCpu = sibling.isPresent() ? new PairCpu(own, sibling.get()) : own;
        try (InterferenceSampler sampler = InterferenceSampler.start(watchedCpu)) {
            Execution execution = backend.run(cell, assignment);
            Interference seen = sampler.finish();
            // a cell skipped after all (its server's jar missing) was not measured either
            return new Watched(
                    execution,
                    execution.outcome() instanceof CellOutcome.Skipped ? Optional.empty() : Optional.of(seen));
        }
    }

    /** An A/B block's CPUs in a container: the first ⌈quota⌉ of the host's, when that is fewer than all. */
    private Optional<CpuSet> blockCpus(Cell cell, Backend backend) {
        if (blockSeed.isEmpty()
                || !(backend instanceof ContainerEngine)
                || cell.coordinates().cpuSet().isPresent()) {
            return Optional.empty();
        }
        int cpus = cell.coordinates().wholeCpus();
        return cpus < placement.hostCpus() ? Optional.of(CpuSet.first(cpus)) : Optional.empty();
    }

    /** Which cells ran at the same time as which: each cell learns every cell active during its run. */
    private static final class Neighbours {
        private final Map<String, Set<String>> active = new LinkedHashMap<>();

        synchronized void begin(String cellId) {
            Set<String> mine = new TreeSet<>(active.keySet());
            active.values().forEach(others -> others.add(cellId));
            active.put(cellId, mine);
        }

        synchronized List<String> end(String cellId) {
            return List.copyOf(active.remove(cellId));
        }
    }
}
