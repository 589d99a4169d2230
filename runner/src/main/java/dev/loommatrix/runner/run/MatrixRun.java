package dev.loommatrix.runner.run;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.CostModel;
import dev.loommatrix.core.plan.CpuSet;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.result.RunStatus;
import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.CellOutcome;
import dev.loommatrix.runner.backend.ContainerBackend;
import dev.loommatrix.runner.backend.Execution;
import dev.loommatrix.runner.backend.LocalBackend;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * Runs a list of cells into a run directory. Each cell's file is written the moment the cell ends,
 * and run.json is rewritten after every cell, so a run stopped at any point leaves a consistent
 * directory; a resumed run skips cells whose file already exists, or, with {@link Resume#RETRY_FAILED},
 * only those that ended ok or skipped.
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
    public record Totals(int ok, int failed, int timedOut, int skipped, int resumed) {
        public boolean anyFailed() {
            return failed + timedOut > 0;
        }
    }

    private final RunDirectory dir;
    private final PrintStream out;
    private final Optional<ContainerBackend> docker;
    private final LocalBackend local;
    private final BackendChoice choice;
    private final int parallelCells;
    private final Neighbours neighbours = new Neighbours();
    private volatile boolean stopping;
    private volatile Backend current;
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);

    public MatrixRun(
            RunDirectory dir,
            PrintStream out,
            BackendChoice choice,
            Optional<ContainerBackend> docker,
            LocalBackend local) {
        this(dir, out, choice, docker, local, 1);
    }

    /** @param parallelCells how many container cells may run at once, each on its own CPUs (1 = one at a time) */
    public MatrixRun(
            RunDirectory dir,
            PrintStream out,
            BackendChoice choice,
            Optional<ContainerBackend> docker,
            LocalBackend local,
            int parallelCells) {
        this.parallelCells = parallelCells;
        this.dir = dir;
        this.out = out;
        this.choice = choice;
        this.docker = docker;
        this.local = local;
    }

    /**
     * Ctrl-C: kills the running cell's container or JVM and waits (bounded) until the run directory is
     * consistent. The interrupted cell gets no result file, so {@code --resume} runs it again; every
     * finished cell keeps its file; run.json says "interrupted".
     */
    public void stop(Duration wait) {
        stopping = true;
        Backend backend = current;
        if (backend != null) {
            backend.cancel();
        }
        try {
            stopped.await(wait.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public boolean wasStopped() {
        return stopping;
    }

    public Totals run(RunManifest manifest, List<Cell> cells, Resume resume) throws IOException, InterruptedException {
        try {
            return runCells(manifest, cells, resume);
        } finally {
            if (stopping) {
                dir.writeManifest(manifest.finish(java.time.Instant.now().toString(), RunStatus.INTERRUPTED));
            }
            stopped.countDown();
        }
    }

    private Totals runCells(RunManifest manifest, List<Cell> cells, Resume resume)
            throws IOException, InterruptedException {
        try (Progress progress = Progress.forConsole(out, cells.size())) {
            return runCells(manifest, cells, resume, progress);
        }
    }

    private Totals runCells(RunManifest manifest, List<Cell> cells, Resume resume, Progress progress)
            throws IOException, InterruptedException {
        dir.writeManifest(manifest);
        if (resume != Resume.NO) {
            // once, before any cell of this runner starts: every container labelled with this run is a
            // killed runner's (its neighbours under --parallel-cells carry the same label)
            docker.ifPresent(d -> d.stopLeftovers(manifest.runId(), dir.root()));
        }
        Tally tally =
                new Tally(cells.stream().mapToDouble(CostModel::estimateMs).sum());
        List<Integer> toRun = new ArrayList<>();
        for (int i = 0; i < cells.size(); i++) {
            Cell cell = cells.get(i);
            Optional<CellRecord> existing = resume == Resume.NO ? Optional.empty() : dir.readCell(cell.id());
            boolean retry = resume == Resume.RETRY_FAILED
                    && existing.map(r -> r.status().isFailure()).orElse(false);
            if (existing.isPresent() && !retry) {
                tally.resumed(CostModel.estimateMs(cell));
                out.printf(
                        "[%d/%d] %s: already %s, skipped (--resume)%n",
                        i + 1, cells.size(), cell.id(), existing.get().status());
            } else {
                toRun.add(i);
            }
        }
        if (parallelCells > 1 && docker.isPresent() && choice != BackendChoice.LOCAL) {
            runBesideEachOther(manifest, cells, toRun, progress, tally);
        } else {
            for (int i : toRun) {
                if (stopping || !runOne(manifest, cells, i, Optional.empty(), progress, tally)) {
                    break;
                }
            }
        }
        return tally.totals();
    }

    /**
     * {@code --parallel-cells N}: the host's CPUs split into N disjoint cpusets, one cell per cpuset at a
     * time. A cell that cannot be placed (its own cpuset axis, a quota larger than a slot, no container
     * for it) runs afterwards, alone. Each record names its cpuset and the cells that ran beside it.
     */
    private void runBesideEachOther(
            RunManifest manifest, List<Cell> cells, List<Integer> toRun, Progress progress, Tally tally)
            throws IOException, InterruptedException {
        List<CpuSet> slots = slots(docker.get().hostCpus(), parallelCells);
        int slotSize = slots.stream().mapToInt(CpuSet::size).min().orElse(1);
        java.util.concurrent.BlockingQueue<CpuSet> free = new java.util.concurrent.LinkedBlockingQueue<>(slots);
        List<Integer> alone = new ArrayList<>();
        java.util.concurrent.ExecutorService workers = java.util.concurrent.Executors.newFixedThreadPool(slots.size());
        // A cell whose record cannot be written ends the run as it does without --parallel-cells (exit 1),
        // after the neighbours already running have finished and kept theirs.
        java.util.concurrent.atomic.AtomicReference<IOException> unwritten =
                new java.util.concurrent.atomic.AtomicReference<>();
        try {
            for (int i : toRun) {
                if (stopping) {
                    break;
                }
                Cell cell = cells.get(i);
                if (unwritten.get() != null) {
                    break;
                }
                if (!placeable(cell, slotSize)) {
                    alone.add(i);
                    continue;
                }
                CpuSet slot = free.take();
                workers.execute(() -> {
                    try {
                        runOne(manifest, cells, i, Optional.of(slot), progress, tally);
                    } catch (IOException e) {
                        out.printf("[%d/%d] %s: could not write its result: %s%n", i + 1, cells.size(), cell.id(), e);
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
            workers.awaitTermination(Long.MAX_VALUE, java.util.concurrent.TimeUnit.DAYS);
        }
        if (unwritten.get() != null) {
            throw unwritten.get();
        }
        for (int i : alone) {
            if (stopping || !runOne(manifest, cells, i, Optional.empty(), progress, tally)) {
                break;
            }
        }
    }

    /** Whether a cell can run in a slot: in a container, without its own cpuset, its quota within the slot. */
    private boolean placeable(Cell cell, int slotSize) throws InterruptedException {
        return cell.coordinates().os().equals("linux")
                && cell.coordinates().cpuSet().isEmpty()
                && cell.coordinates().cpus().compareTo(java.math.BigDecimal.valueOf(slotSize)) <= 0
                && docker.get().imageProblem(cell).isEmpty();
    }

    /** N disjoint cpusets covering the host's CPUs as evenly as possible (4 CPUs, 2 slots → 0-1, 2-3). */
    static List<CpuSet> slots(int hostCpus, int n) {
        if (n > hostCpus) {
            throw new IllegalArgumentException(
                    "--parallel-cells " + n + " needs at least one CPU per cell; this host has " + hostCpus);
        }
        List<CpuSet> slots = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            java.util.SortedSet<Integer> cpus = new java.util.TreeSet<>();
            for (int cpu = k * hostCpus / n; cpu < (k + 1) * hostCpus / n; cpu++) {
                cpus.add(cpu);
            }
            slots.add(new CpuSet(cpus));
        }
        return slots;
    }

    /** Runs one cell, writes its record; false when the run is stopping (the cell keeps no result). */
    private boolean runOne(
            RunManifest manifest, List<Cell> cells, int i, Optional<CpuSet> slot, Progress progress, Tally tally)
            throws IOException, InterruptedException {
        Cell cell = cells.get(i);
        double estimate = CostModel.estimateMs(cell);
        List<CellRecord.Attempt> earlier;
        // A runner killed without warning (SIGKILL, OOM killer, preempted machine) left no record for the
        // cell it was running, but maybe its container or JVMs and half its raw output: stop those, and
        // keep that output apart, so this attempt starts clean and nothing runs beside it.
        local.stopLeftovers(manifest.runId(), dir.rawDir(cell.id()));
        synchronized (dir) {
            if (dir.readCell(cell.id()).isPresent()) { // only a cell retried with --retry-failed has one here
                dir.archiveAttempt(cell.id());
            } else {
                dir.setAsideUnfinished(cell.id())
                        .ifPresent(aside -> out.printf(
                                "[%d/%d] %s: output of an attempt that did not finish kept in %s%n",
                                i + 1, cells.size(), cell.id(), dir.root().relativize(aside)));
            }
            earlier = dir.readAttempts(cell.id()).stream()
                    .map(CellRecord::asAttempt)
                    .toList();
        }
        synchronized (progress) {
            progress.started(i + 1, cells.size(), cell.id());
            if (!earlier.isEmpty()) {
                out.printf(
                        "[%d/%d] %s: attempt %d (the last one %s; kept in %s)%n",
                        i + 1,
                        cells.size(),
                        cell.id(),
                        earlier.size() + 1,
                        earlier.get(earlier.size() - 1).status(),
                        dir.root().relativize(dir.attemptsDir(cell.id())));
            }
        }
        Instant started = Instant.now();
        neighbours.begin(cell.id());
        Execution execution = execute(cell, manifest.runId(), slot);
        List<String> beside = neighbours.end(cell.id());
        Instant finished = Instant.now();
        if (stopping) {
            out.printf(
                    "[%d/%d] %s: interrupted, no result kept (--resume runs it again)%n",
                    i + 1, cells.size(), cell.id());
            return false;
        }
        CellRecord record = toRecord(
                cell,
                execution,
                started,
                finished,
                slot.map(s -> new CellRecord.Beside(s.toString(), beside)),
                earlier);
        synchronized (dir) {
            dir.writeCell(record);
            dir.writeManifest(manifest);
        }
        long tookMs = Duration.between(started, finished).toMillis();
        Duration eta = tally.add(execution.outcome(), estimate, tookMs);
        synchronized (progress) {
            progress.finished(
                    i + 1,
                    cells.size(),
                    String.format(
                            "%s: %s (%.1f s, %s%s)%s",
                            cell.id(),
                            describe(record),
                            tookMs / 1000.0,
                            execution.backend(),
                            slot.map(s -> " on CPUs " + s).orElse(""),
                            execution
                                    .fallbackReason()
                                    .map(r -> " [local fallback: " + r + "]")
                                    .orElse("")),
                    eta);
        }
        return true;
    }

    /** How many cells ended how, and the estimate of what is left (scaled by how estimates fared so far). */
    private static final class Tally {
        private int ok;
        private int failed;
        private int timedOut;
        private int skipped;
        private int resumed;
        private double remainingEstimate;
        private double spentMs;
        private double estimatedSpent;

        Tally(double totalEstimate) {
            this.remainingEstimate = totalEstimate;
        }

        synchronized void resumed(double estimate) {
            resumed++;
            remainingEstimate -= estimate;
        }

        synchronized Duration add(CellOutcome outcome, double estimate, long tookMs) {
            remainingEstimate -= estimate;
            switch (outcome) {
                case CellOutcome.Succeeded s -> ok++;
                case CellOutcome.Failed f -> failed++;
                case CellOutcome.TimedOut t -> timedOut++;
                case CellOutcome.Skipped s -> skipped++;
            }
            if (!(outcome instanceof CellOutcome.Skipped)) {
                spentMs += tookMs;
                estimatedSpent += estimate;
            }
            double actualOverEstimate = estimatedSpent == 0 ? 1.0 : spentMs / estimatedSpent;
            return Duration.ofMillis((long) (remainingEstimate * actualOverEstimate));
        }

        synchronized Totals totals() {
            return new Totals(ok, failed, timedOut, skipped, resumed);
        }
    }

    /** Which cells ran at the same time as which: each cell learns every cell active during its run. */
    private static final class Neighbours {
        private final java.util.Map<String, java.util.Set<String>> active = new java.util.LinkedHashMap<>();

        synchronized void begin(String cellId) {
            java.util.Set<String> mine = new java.util.TreeSet<>(active.keySet());
            active.values().forEach(others -> others.add(cellId));
            active.put(cellId, mine);
        }

        synchronized List<String> end(String cellId) {
            return List.copyOf(active.remove(cellId));
        }
    }

    private Execution execute(Cell cell, String runId, Optional<CpuSet> slot) throws InterruptedException {
        List<String> order = new ArrayList<>(cell.workload().variants());
        // Randomized, reproducibly per run and cell, so a drift over a cell's duration does not
        // always favour the same variant; the order is recorded with the cell.
        Collections.shuffle(order, new Random((runId + "/" + cell.id()).hashCode()));
        var raw = dir.rawDir(cell.id());
        boolean linux = cell.coordinates().os().equals("linux");
        Backend backend = local;
        Optional<String> fallback = Optional.empty();
        if (linux && choice != BackendChoice.LOCAL && docker.isPresent()) {
            if (choice == BackendChoice.DOCKER) {
                backend = docker.get();
            } else {
                Optional<String> problem = docker.get().imageProblem(cell); // cached per image
                if (problem.isEmpty()) {
                    backend = docker.get();
                } else {
                    fallback = problem;
                }
            }
        } else if (linux && choice == BackendChoice.DOCKER) {
            return new Execution(
                    new CellOutcome.Failed(
                            "--backend docker, but no Docker engine answers", "", List.of(), Optional.empty()),
                    "container",
                    "none",
                    order,
                    Optional.empty());
        } else if (linux && choice == BackendChoice.AUTO) {
            fallback = Optional.of("no Docker engine answers");
        }
        current = backend;
        Execution execution = backend.run(cell, new Backend.Assignment(runId, raw, order, slot));
        return fallback.map(execution::withFallbackReason).orElse(execution);
    }

    public static CellRecord toRecord(Cell cell, Execution execution, Instant started, Instant finished) {
        return toRecord(cell, execution, started, finished, Optional.empty(), List.of());
    }

    static CellRecord toRecord(
            Cell cell,
            Execution execution,
            Instant started,
            Instant finished,
            Optional<CellRecord.Beside> beside,
            List<CellRecord.Attempt> earlierAttempts) {
        CellRecord.Execution exec = new CellRecord.Execution(
                execution.backend(),
                execution.driver(),
                started.toString(),
                finished.toString(),
                Duration.between(started, finished).toMillis(),
                execution.variantOrder(),
                execution.fallbackReason(),
                beside,
                earlierAttempts);
        return switch (execution.outcome()) {
            case CellOutcome.Succeeded s ->
                CellRecord.of(
                        cell.id(),
                        cell.coordinates(),
                        CellStatus.OK,
                        Optional.empty(),
                        Optional.empty(),
                        Optional.of(s.environment()),
                        s.measurements(),
                        exec);
            case CellOutcome.Failed f ->
                CellRecord.of(
                        cell.id(),
                        cell.coordinates(),
                        CellStatus.FAILED,
                        Optional.of(f.reason()),
                        Optional.of(f.logTail()),
                        f.environment(),
                        f.measurements(),
                        exec);
            case CellOutcome.TimedOut t ->
                CellRecord.of(
                        cell.id(),
                        cell.coordinates(),
                        CellStatus.TIMEOUT,
                        Optional.of(t.reason()),
                        Optional.of(t.logTail()),
                        t.environment(),
                        t.measurements(),
                        exec);
            case CellOutcome.Skipped s ->
                CellRecord.of(
                        cell.id(),
                        cell.coordinates(),
                        CellStatus.SKIPPED,
                        Optional.of(s.reason()),
                        Optional.empty(),
                        Optional.empty(),
                        List.of(),
                        exec);
        };
    }

    private static String describe(CellRecord record) {
        StringBuilder text = new StringBuilder(record.status().word());
        record.reason().ifPresent(r -> text.append(" — ").append(r));
        record.environment().ifPresent(env -> text.append(env.attested() ? ", attested" : ", NOT attested"));
        var headline = dev.loommatrix.core.matrix.Workloads.find(
                        record.coordinates().workload())
                .flatMap(w -> w.headline());
        for (var m : record.measurements()) {
            var value = headline.flatMap(h -> m.medianOf(h.metric())
                    .map(v -> String.format(java.util.Locale.ROOT, ", %s %.0f %s", m.variant(), v, h.unit())));
            m.summary()
                    .ifPresent(s -> text.append(value.orElse(
                            String.format(java.util.Locale.ROOT, ", %s %.0f ms", m.variant(), s.median()))));
        }
        return text.toString();
    }

    static String formatDuration(long ms) {
        long s = Math.max(0, ms / 1000);
        return s >= 3600
                ? String.format("%dh%02dm", s / 3600, s % 3600 / 60)
                : s >= 60 ? String.format("%dm%02ds", s / 60, s % 60) : s + "s";
    }
}
