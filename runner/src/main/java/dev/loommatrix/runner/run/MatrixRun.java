package dev.loommatrix.runner.run;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.CostModel;
import dev.loommatrix.core.plan.CpuSet;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Interference;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.result.RunStatus;
import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.ContainerEngine;
import dev.loommatrix.runner.backend.Execution;
import dev.loommatrix.runner.backend.service.ServiceCells;
import dev.loommatrix.runner.records.CellOutcome;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a list of cells into a run directory. Each cell passes four stages once, top to bottom: what to
 * run ({@link Selection}: resume, retry), where ({@link CellPlacement}: backend, CPUs), running it (after
 * stopping what a killed runner left; {@link CellAttempts}: on its backend, watched, again while disturbed),
 * and recording it ({@link CellRecorder}: record, atomic write, progress). Each cell's file is written the moment the cell ends and run.json after every cell, so a run
 * stopped at any point leaves a consistent directory.
 */
public final class MatrixRun {

    public enum BackendChoice {
        AUTO,
        DOCKER,
        LOCAL
    }

    /** Whether the run continues a run directory, and which of its ended cells run again. */
    public enum Resume {
        /** A new run. */
        NO,
        /** Every cell with a result is kept. */
        KEEP_ENDED,
        /** Failed and timed-out cells run again, their earlier attempts kept under attempts/. */
        RETRY_FAILED
    }

    /** How the cells ended, for the exit code and the closing line. */
    /**
     * How the cells ended. Invalid cells ran, but their numbers measure something other than what they ask: said as
     * invalid, and like failed ones they make the run's exit code 3.
     */
    public record Totals(int ok, int invalid, int failed, int timedOut, int skipped, int resumed) {
        public boolean anyFailed() {
            return invalid + failed + timedOut > 0;
        }

        /** Every cell that ended in this run, resumed ones not counted. */
        public int ended() {
            return ok + invalid + failed + timedOut + skipped;
        }
    }

    private final RunDirectory dir;
    private final PrintStream out;
    private final CellPlacement placement;
    private final int parallelCells;
    private final CellAttempts attempts;

    /**
     * What a run does with a cell measured beside other work (issue #32): flag it (its samples kept, the default),
     * measure it again — at most {@link #RERUNS} more times, the disturbed attempts' raw output kept under attempts/
     * and listed in the record — or call its numbers invalid (the run exits 3).
     */
    public enum OnDisturbed {
        FLAG,
        RERUN,
        FAIL
    }

    /** How many times {@code --on-disturbed rerun} measures a disturbed cell again. */
    public static final int RERUNS = 2;

    public MatrixRun onDisturbed(OnDisturbed policy) {
        attempts.onDisturbed(policy);
        return this;
    }

    private volatile boolean stopping;
    private final CountDownLatch stopped = new CountDownLatch(1);

    public MatrixRun(
            RunDirectory dir,
            PrintStream out,
            BackendChoice choice,
            Optional<? extends ContainerEngine> docker,
            Backend local) {
        this(dir, out, choice, docker, local, 1);
    }

    /** @param parallelCells how many container cells may run at once, each on its own CPUs (1 = one at a time) */
    public MatrixRun(
            RunDirectory dir,
            PrintStream out,
            BackendChoice choice,
            Optional<? extends ContainerEngine> docker,
            Backend local,
            int parallelCells) {
        this.dir = dir;
        this.out = out;
        this.placement = new CellPlacement(choice, docker, local);
        this.parallelCells = parallelCells;
        this.attempts = new CellAttempts(dir, out, placement, () -> stopping);
    }

    /**
     * One block of an A/B pair (issue #30): its variants run in the order {@code seed} gives — the same seed for
     * both sides of a pair, so neither side always goes first within its block — and, in a container without a
     * cpuset of its own whose quota is less than the host, on CPUs 0 … ⌈quota⌉ − 1, as the local backend pins:
     * both sides on the same CPUs, the same way, in every block.
     */
    public MatrixRun asBlock(String seed) {
        attempts.asBlock(seed);
        return this;
    }

    /**
     * This block in lockstep with {@code sibling}, the pair's other side, running at the same time (issue #30): the
     * harness's forks take their iterations by turns through {@code turns} (the A/B method's lockstep), and the sibling's CPU
     * is this block's pair's own, not other work ({@link PairCpu}); a disturbed block is measured again with its
     * sibling, both at once ({@link PairedAttempts}: {@code attempts}, this block's side of those the two share).
     */
    public MatrixRun inLockstep(Path turns, MatrixRun sibling, PairedAttempts attempts) {
        this.attempts.inLockstep(turns, sibling.attempts::measuring, attempts);
        return this;
    }

    /**
     * Ctrl-C: kills the running cells' containers or JVMs and waits (bounded) until the run directory is
     * consistent. An interrupted cell gets no result file, so {@code --resume} runs it again; every
     * finished cell keeps its file; run.json says "interrupted".
     */
    public void stop(Duration wait) {
        stopping = true;
        placement.cancel();
        try {
            stopped.await(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public boolean wasStopped() {
        return stopping;
    }

    public Totals run(RunManifest manifest, List<Cell> cells, Resume resume) throws IOException, InterruptedException {
        try (Progress progress = Progress.forConsole(out, cells.size())) {
            dir.writeManifest(manifest);
            if (resume != Resume.NO) {
                // once, before any cell of this runner starts: every container labelled with this run is a
                // killed runner's (its neighbours under --parallel-cells carry the same label)
                placement.stopContainerLeftovers(manifest.runId(), dir.root());
            }
            Selection selection = Selection.of(dir, cells, resume, out);
            // the ETA counts the cells that will run: a skipped one takes no time
            Map<String, Double> estimates = new java.util.HashMap<>();
            for (Cell cell : cells) {
                estimates.put(cell.id(), placement.expectsToRun(cell) ? CostModel.estimateMs(cell) : 0.0);
            }
            CellRecorder recorder = new CellRecorder(dir, progress, cells, selection, cell -> estimates.get(cell.id()));
            Pass pass = new Pass(manifest, cells, progress, recorder);
            if (parallelCells > 1 && placement.canRunBeside()) {
                runBesideEachOther(pass, selection.toRun());
            } else {
                for (int i : selection.toRun()) {
                    if (stopping || !runOne(pass, i, Optional.empty())) {
                        break;
                    }
                }
            }
            return recorder.totals();
        } finally {
            if (stopping) {
                dir.writeManifest(manifest.finish(Instant.now().toString(), RunStatus.INTERRUPTED));
            }
            stopped.countDown();
        }
    }

    /** What every cell of one call to {@link #run} shares. */
    private record Pass(RunManifest manifest, List<Cell> cells, Progress progress, CellRecorder recorder) {}

    /**
     * {@code --parallel-cells N}: the host's CPUs split into N disjoint cpusets, one cell per cpuset at a
     * time. A cell that cannot be placed (its own cpuset axis, a quota larger than a slot, no container
     * for it, a service cell) runs afterwards, alone. Each record names its cpuset and the cells that ran beside it.
     */
    private void runBesideEachOther(Pass pass, List<Integer> toRun) throws IOException, InterruptedException {
        List<CpuSet> slots = CellPlacement.slots(placement.hostCpus(), parallelCells);
        int slotSize = slots.stream().mapToInt(CpuSet::size).min().orElse(1);
        BlockingQueue<CpuSet> free = new LinkedBlockingQueue<>(slots);
        List<Integer> alone = new ArrayList<>();
        boolean saidWhyServicesRunAlone = false;
        ExecutorService workers = Executors.newFixedThreadPool(slots.size());
        // A cell whose record cannot be written ends the run as it does without --parallel-cells (exit 1),
        // after the neighbours already running have finished and kept theirs.
        AtomicReference<IOException> unwritten = new AtomicReference<>();
        try {
            for (int i : toRun) {
                if (stopping || unwritten.get() != null) {
                    break;
                }
                if (!placement.fitsSlot(pass.cells().get(i), slotSize)) {
                    if (ServiceCells.runsAService(pass.cells().get(i)) && !saidWhyServicesRunAlone) {
                        out.printf("%s: %s%n", pass.cells().get(i).id(), CellPlacement.WHY_SERVICES_RUN_ALONE);
                        saidWhyServicesRunAlone = true;
                    }
                    alone.add(i);
                    continue;
                }
                CpuSet slot = free.take();
                workers.execute(() -> {
                    try {
                        runOne(pass, i, Optional.of(slot));
                    } catch (IOException e) {
                        out.printf(
                                "[%d/%d] %s: could not write its result: %s%n",
                                i + 1, pass.cells().size(), pass.cells().get(i).id(), e);
                        unwritten.compareAndSet(null, e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        free.add(slot);
                    }
                });
            }
        } finally {
            workers.shutdown();
            workers.awaitTermination(Long.MAX_VALUE, TimeUnit.DAYS);
        }
        if (unwritten.get() != null) {
            throw unwritten.get();
        }
        for (int i : alone) {
            if (stopping || !runOne(pass, i, Optional.empty())) {
                break;
            }
        }
    }

    /** Runs one cell and records it; false when the run is stopping (the cell keeps no result). */
    private boolean runOne(Pass pass, int i, Optional<CpuSet> slot) throws IOException, InterruptedException {
        Cell cell = pass.cells().get(i);
        int total = pass.cells().size();
        List<CellRecord.Attempt> earlier = prepare(pass.manifest(), cell, i, total);
        synchronized (pass.progress()) {
            pass.progress().started(i + 1, total, cell.id());
            if (!earlier.isEmpty()) {
                out.printf(
                        "[%d/%d] %s: attempt %d (the last one %s; kept in %s)%n",
                        i + 1,
                        total,
                        cell.id(),
                        earlier.size() + 1,
                        earlier.get(earlier.size() - 1).status().word(),
                        dir.root().relativize(dir.attemptsDir(cell.id())));
            }
        }
        CellAttempts.Measured kept =
                attempts.measure(cell, pass.manifest().runId(), slot, earlier, String.format("[%d/%d]", i + 1, total));
        if (stopping) {
            out.printf("[%d/%d] %s: interrupted, no result kept (--resume runs it again)%n", i + 1, total, cell.id());
            return false;
        }
        pass.recorder()
                .record(
                        pass.manifest(),
                        i + 1,
                        total,
                        cell,
                        kept.execution(),
                        new CellRecorder.Circumstances(
                                kept.started(),
                                kept.finished(),
                                slot.map(s -> new CellRecord.Beside(s.toString(), kept.beside())),
                                kept.earlier(),
                                kept.watched()));
        return true;
    }

    /**
     * Before a cell runs: a runner killed without warning (SIGKILL, OOM killer, preempted machine) left no
     * record for the cell it was running, but maybe its JVMs and half its raw output. Stop those and keep
     * that output apart, so this attempt starts clean and nothing runs beside it; a cell retried with
     * {@code --retry-failed} has its record and output archived. Returns the cell's earlier attempts.
     */
    private List<CellRecord.Attempt> prepare(RunManifest manifest, Cell cell, int i, int total) throws IOException {
        placement.stopHostLeftovers(manifest.runId(), dir.rawDir(cell.id()));
        synchronized (dir) {
            if (dir.readCell(cell.id()).isPresent()) {
                dir.archiveAttempt(cell.id());
            } else {
                dir.setAsideUnfinished(cell.id())
                        .ifPresent(aside -> out.printf(
                                "[%d/%d] %s: output of an attempt that did not finish kept in %s%n",
                                i + 1, total, cell.id(), dir.root().relativize(aside)));
            }
            return dir.readAttempts(cell.id()).stream()
                    .map(CellRecord::asAttempt)
                    .toList();
        }
    }

    /** {@code --on-disturbed fail}: a disturbed cell's numbers are kept and called invalid (a failure: exit 3). */
    static Execution invalidIfDisturbed(Execution execution, Optional<Interference> seen) {
        Optional<String> disturbed = seen.flatMap(w -> w.disturbed());
        if (disturbed.isPresent() && execution.outcome() instanceof CellOutcome.Succeeded ok) {
            return new Execution(
                    new CellOutcome.Invalid(
                            "disturbed (--on-disturbed fail): " + disturbed.get(), ok.measurements(), ok.environment()),
                    execution.backend(),
                    execution.driver(),
                    execution.variantOrder(),
                    execution.fallbackReason(),
                    execution.profiles(),
                    execution.leftBehind());
        }
        return execution;
    }

    public static CellRecord toRecord(Cell cell, Execution execution, Instant started, Instant finished) {
        return CellRecorder.toRecord(cell, execution, started, finished);
    }
}
