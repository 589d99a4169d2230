package dev.loommatrix.runner.run;

import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.CellOutcome;
import dev.loommatrix.runner.backend.ContainerBackend;
import dev.loommatrix.runner.backend.Execution;
import dev.loommatrix.runner.backend.LocalBackend;
import dev.loommatrix.runner.plan.Cell;
import dev.loommatrix.runner.plan.CostModel;
import dev.loommatrix.runner.result.CellRecord;
import dev.loommatrix.runner.result.RunDirectory;
import dev.loommatrix.runner.result.RunManifest;
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
 * directory; {@code resume} skips cells whose file already exists.
 */
public final class MatrixRun {

    public enum BackendChoice {
        AUTO,
        DOCKER,
        LOCAL
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
    private volatile boolean stopping;
    private volatile Backend current;
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);

    public MatrixRun(
            RunDirectory dir,
            PrintStream out,
            BackendChoice choice,
            Optional<ContainerBackend> docker,
            LocalBackend local) {
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

    public Totals run(RunManifest manifest, List<Cell> cells, boolean resume) throws IOException, InterruptedException {
        try {
            return runCells(manifest, cells, resume);
        } finally {
            if (stopping) {
                dir.writeManifest(manifest.finish(java.time.Instant.now().toString(), "interrupted"));
            }
            stopped.countDown();
        }
    }

    private Totals runCells(RunManifest manifest, List<Cell> cells, boolean resume)
            throws IOException, InterruptedException {
        try (Progress progress = Progress.forConsole(out, cells.size())) {
            return runCells(manifest, cells, resume, progress);
        }
    }

    private Totals runCells(RunManifest manifest, List<Cell> cells, boolean resume, Progress progress)
            throws IOException, InterruptedException {
        dir.writeManifest(manifest);
        int ok = 0;
        int failed = 0;
        int timedOut = 0;
        int skipped = 0;
        int resumed = 0;
        double remainingEstimate =
                cells.stream().mapToDouble(CostModel::estimateMs).sum();
        double actualOverEstimate = 1.0;
        double spentMs = 0;
        double estimatedSpent = 0;
        for (int i = 0; i < cells.size() && !stopping; i++) {
            Cell cell = cells.get(i);
            double estimate = CostModel.estimateMs(cell);
            remainingEstimate -= estimate;
            if (resume) {
                Optional<CellRecord> existing = dir.readCell(cell.id());
                if (existing.isPresent()) {
                    resumed++;
                    out.printf(
                            "[%d/%d] %s: already %s, skipped (--resume)%n",
                            i + 1, cells.size(), cell.id(), existing.get().status());
                    continue;
                }
            }
            progress.started(i + 1, cells.size(), cell.id());
            Instant started = Instant.now();
            Execution execution = execute(cell, manifest.runId());
            Instant finished = Instant.now();
            if (stopping) {
                out.printf(
                        "[%d/%d] %s: interrupted, no result kept (--resume runs it again)%n",
                        i + 1, cells.size(), cell.id());
                break;
            }
            CellRecord record = toRecord(cell, execution, started, finished);
            dir.writeCell(record);
            dir.writeManifest(manifest);
            switch (execution.outcome()) {
                case CellOutcome.Succeeded s -> ok++;
                case CellOutcome.Failed f -> failed++;
                case CellOutcome.TimedOut t -> timedOut++;
                case CellOutcome.Skipped s -> skipped++;
            }
            long tookMs = Duration.between(started, finished).toMillis();
            if (!(execution.outcome() instanceof CellOutcome.Skipped)) {
                spentMs += tookMs;
                estimatedSpent += estimate;
                actualOverEstimate = spentMs / Math.max(1, estimatedSpent);
            }
            progress.finished(
                    i + 1,
                    cells.size(),
                    String.format(
                            "%s: %s (%.1f s, %s)%s",
                            cell.id(),
                            describe(record),
                            tookMs / 1000.0,
                            execution.backend(),
                            execution
                                    .fallbackReason()
                                    .map(r -> " [local fallback: " + r + "]")
                                    .orElse("")),
                    Duration.ofMillis((long) (remainingEstimate * actualOverEstimate)));
        }
        return new Totals(ok, failed, timedOut, skipped, resumed);
    }

    private Execution execute(Cell cell, String runId) throws InterruptedException {
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
        Execution execution = backend.run(cell, raw, order);
        current = null;
        return fallback.map(execution::withFallbackReason).orElse(execution);
    }

    public static CellRecord toRecord(Cell cell, Execution execution, Instant started, Instant finished) {
        CellRecord.Execution exec = new CellRecord.Execution(
                execution.backend(),
                execution.driver(),
                started.toString(),
                finished.toString(),
                Duration.between(started, finished).toMillis(),
                execution.variantOrder(),
                execution.fallbackReason());
        return switch (execution.outcome()) {
            case CellOutcome.Succeeded s ->
                new CellRecord(
                        CellRecord.SCHEMA_VERSION,
                        cell.id(),
                        cell.coordinates(),
                        "ok",
                        Optional.empty(),
                        Optional.empty(),
                        Optional.of(s.environment()),
                        s.measurements(),
                        exec);
            case CellOutcome.Failed f ->
                new CellRecord(
                        CellRecord.SCHEMA_VERSION,
                        cell.id(),
                        cell.coordinates(),
                        "failed",
                        Optional.of(f.reason()),
                        Optional.of(f.logTail()),
                        f.environment(),
                        f.measurements(),
                        exec);
            case CellOutcome.TimedOut t ->
                new CellRecord(
                        CellRecord.SCHEMA_VERSION,
                        cell.id(),
                        cell.coordinates(),
                        "timeout",
                        Optional.of(t.reason()),
                        Optional.of(t.logTail()),
                        t.environment(),
                        t.measurements(),
                        exec);
            case CellOutcome.Skipped s ->
                new CellRecord(
                        CellRecord.SCHEMA_VERSION,
                        cell.id(),
                        cell.coordinates(),
                        "skipped",
                        Optional.of(s.reason()),
                        Optional.empty(),
                        Optional.empty(),
                        List.of(),
                        exec);
        };
    }

    private static String describe(CellRecord record) {
        StringBuilder text = new StringBuilder(record.status());
        record.reason().ifPresent(r -> text.append(" — ").append(r));
        record.environment().ifPresent(env -> text.append(env.attested() ? ", attested" : ", NOT attested"));
        var headline = dev.loommatrix.runner.matrix.Workloads.find(
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
