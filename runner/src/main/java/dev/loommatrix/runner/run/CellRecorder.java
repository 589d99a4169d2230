package dev.loommatrix.runner.run;

import dev.loommatrix.core.matrix.Workloads;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.CostModel;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.runner.backend.Execution;
import dev.loommatrix.runner.records.CellOutcome;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Recording — the last stage a cell passes: its outcome becomes its record, written atomically with the
 * run's manifest, and the console and the tally learn how it ended (with an ETA scaled by how the cost
 * model's estimates have fared so far).
 */
public final class CellRecorder {

    private final RunDirectory dir;
    private final Progress progress;
    private final Tally tally;

    /**
     * Fallback reasons already printed: a host without a registry gives every cell of an image the same long
     * reason, and 40 copies of it buried the fix; the console says each once (every record keeps its own).
     */
    private final java.util.Set<String> saidFallbacks = new java.util.HashSet<>();

    /** How long each cell is expected to take ({@link CostModel}; none for a cell that will be skipped). */
    private final java.util.function.ToDoubleFunction<Cell> estimate;

    CellRecorder(
            RunDirectory dir,
            Progress progress,
            List<Cell> cells,
            Selection selection,
            java.util.function.ToDoubleFunction<Cell> estimate) {
        this.dir = dir;
        this.progress = progress;
        this.estimate = estimate;
        this.tally = new Tally(cells.stream().mapToDouble(estimate).sum());
        selection.kept().forEach(i -> tally.resumed(estimate.applyAsDouble(cells.get(i))));
    }

    /** How a cell ran: when, where beside whom, and after which earlier attempts. */
    record Circumstances(
            Instant started,
            Instant finished,
            Optional<CellRecord.Beside> beside,
            List<CellRecord.Attempt> earlierAttempts,
            Optional<dev.loommatrix.core.result.Interference> interference) {

        Circumstances(
                Instant started,
                Instant finished,
                Optional<CellRecord.Beside> beside,
                List<CellRecord.Attempt> earlierAttempts) {
            this(started, finished, beside, earlierAttempts, Optional.empty());
        }
    }

    void record(RunManifest manifest, int index, int total, Cell cell, Execution execution, Circumstances how)
            throws IOException {
        CellRecord record = toRecord(cell, execution, how);
        synchronized (dir) {
            dir.writeCell(record);
            dir.writeManifest(manifest);
        }
        long tookMs = Duration.between(how.started(), how.finished()).toMillis();
        Duration eta = tally.add(execution.outcome(), estimate.applyAsDouble(cell), tookMs);
        synchronized (progress) {
            progress.finished(
                    index,
                    total,
                    String.format(
                            "%s: %s (%.1f s, %s%s)%s",
                            cell.id(),
                            describe(record),
                            tookMs / 1000.0,
                            execution.backend(),
                            record.execution()
                                    .parallel()
                                    .map(p -> " on CPUs " + p.cpuset())
                                    .orElse(""),
                            execution
                                    .fallbackReason()
                                    .map(r -> saidFallbacks.add(r)
                                            ? " [local fallback: " + r + "]"
                                            : " [local fallback: as above]")
                                    .orElse("")),
                    eta);
        }
    }

    MatrixRun.Totals totals() {
        return tally.totals();
    }

    public static CellRecord toRecord(Cell cell, Execution execution, Instant started, Instant finished) {
        return toRecord(cell, execution, new Circumstances(started, finished, Optional.empty(), List.of()));
    }

    static CellRecord toRecord(Cell cell, Execution execution, Circumstances how) {
        CellRecord.Execution exec = new CellRecord.Execution(
                execution.backend(),
                execution.driver(),
                how.started().toString(),
                how.finished().toString(),
                Duration.between(how.started(), how.finished()).toMillis(),
                execution.variantOrder(),
                execution.fallbackReason(),
                how.beside(),
                how.earlierAttempts(),
                execution.leftBehind(),
                how.interference());
        Ended ended = Ended.of(execution.outcome());
        return CellRecord.of(
                        cell.id(),
                        cell.coordinates(),
                        ended.status(),
                        ended.reason(),
                        ended.logTail(),
                        ended.environment(),
                        ended.measurements(),
                        exec,
                        cell.workload().user().map(u -> u.baseline()),
                        cell.workload().user().map(u -> u.contrast()))
                .withProfiles(execution.profiles());
    }

    /** An outcome as the cell record states it. */
    private record Ended(
            CellStatus status,
            Optional<String> reason,
            Optional<String> logTail,
            Optional<dev.loommatrix.core.result.EnvironmentRecord> environment,
            List<dev.loommatrix.core.result.Measurement> measurements) {

        static Ended of(CellOutcome outcome) {
            return switch (outcome) {
                case CellOutcome.Succeeded s ->
                    new Ended(
                            CellStatus.OK,
                            Optional.empty(),
                            Optional.empty(),
                            Optional.of(s.environment()),
                            s.measurements());
                case CellOutcome.Failed f ->
                    new Ended(
                            CellStatus.FAILED,
                            Optional.of(f.reason()),
                            Optional.of(f.logTail()),
                            f.environment(),
                            f.measurements());
                case CellOutcome.TimedOut t ->
                    new Ended(
                            CellStatus.TIMEOUT,
                            Optional.of(t.reason()),
                            Optional.of(t.logTail()),
                            t.environment(),
                            t.measurements());
                case CellOutcome.Invalid v ->
                    new Ended(
                            CellStatus.INVALID,
                            Optional.of(v.reason()),
                            Optional.empty(),
                            Optional.of(v.environment()),
                            v.measurements());
                case CellOutcome.Skipped s ->
                    new Ended(
                            CellStatus.SKIPPED, Optional.of(s.reason()), Optional.empty(), Optional.empty(), List.of());
            };
        }
    }

    static String describe(CellRecord record) {
        StringBuilder text = new StringBuilder(record.status().word());
        record.reason().ifPresent(r -> text.append(" — ").append(r));
        // not attested: the first check that failed, in its words
        record.environment()
                .ifPresent(env -> text.append(
                        env.attested()
                                ? ", attested"
                                : ", NOT attested"
                                        + env.attestation().stream()
                                                .filter(c -> !c.ok())
                                                .findFirst()
                                                .map(c -> " (" + c.setting() + ": " + c.observed() + ")")
                                                .orElse("")));
        // measured beside other work: flagged, its samples kept (issue #32)
        record.execution().interference().flatMap(i -> i.disturbed()).ifPresent(d -> text.append(", DISTURBED: ")
                .append(d));
        var headline = Workloads.find(record.coordinates().workload()).flatMap(w -> w.headline());
        for (var m : record.measurements()) {
            if (m.benchmark().isPresent()) {
                // a user workload: its judged metric in its own unit (a JMH score, a program's number)
                double[] judged = m.judged();
                if (judged.length > 0) {
                    text.append(String.format(
                            Locale.ROOT,
                            ", %s %s %s",
                            m.series(),
                            significant(dev.loommatrix.core.stats.RatioInterval.median(judged)),
                            m.metric().unit()));
                }
                continue;
            }
            var value = headline.flatMap(h -> m.medianOf(h.metric()).map(v -> headlineText(m, h, v)));
            m.summary()
                    .ifPresent(s -> text.append(
                            value.orElse(String.format(Locale.ROOT, ", %s %.0f ms", m.variant(), s.median()))));
            // the steady state above, the cold start beside it; a fork still trending is said, not hidden
            m.coldStart().ifPresent(c -> text.append(String.format(Locale.ROOT, " (cold %.0f ms)", c.median())));
            long trending = m.notSteadyForks();
            if (trending > 0) {
                text.append(String.format(
                        Locale.ROOT,
                        " NOT STEADY in %d of %d forks",
                        trending,
                        m.samples().size()));
            }
        }
        record.measurements().stream()
                .filter(m -> m.iterations().isPresent())
                .findFirst()
                .ifPresent(m -> text.append("; ").append(m.basis()));
        // the cell's answer, against the best other variant it measured (issue #51)
        dev.loommatrix.core.conclude.ConclusionsInBrief.cell(dev.loommatrix.core.conclude.Findings.of(
                        record, dev.loommatrix.core.conclude.RunConclusions.DEFAULT_THRESHOLD))
                .ifPresent(c -> text.append(" — ").append(c));
        return text.toString();
    }

    /**
     * A variant's headline figure. A footprint whose resident memory fell while its threads were started in some
     * repetition has no RSS footprint at that count (issue #49: its cell was called invalid and the README's first
     * command exited 3): virtual threads' stacks went into heap pages already resident while the JVM gave back some of
     * its own memory (benchmarks/results/2026-11-26-footprint-rss/), so their heap per thread is said instead.
     */
    static String headlineText(dev.loommatrix.core.result.Measurement m, Workloads.Headline h, double median) {
        long fell = m.repetitionsWhereResidentMemoryFell();
        if (h.metric().equals("rssBytesPerThread") && fell > 0) {
            var heap = m.medianOf("heapBytesPerThread");
            return String.format(
                    Locale.ROOT,
                    ", %s %s (resident memory fell in %d of %d repetitions: no RSS footprint at this count)",
                    m.variant(),
                    heap.map(b -> String.format(Locale.ROOT, "%.0f B heap/thread", b))
                            .orElse("no footprint"),
                    fell,
                    m.samples().size());
        }
        return String.format(Locale.ROOT, ", %s %.0f %s", m.variant(), median, h.unit());
    }

    /** Three significant digits: a JMH score may be 0.00123 ms/op or 12345678 ops/s. */
    static String significant(double value) {
        return new java.math.BigDecimal(value)
                .round(new java.math.MathContext(3))
                .stripTrailingZeros()
                .toPlainString();
    }

    public static String formatDuration(long ms) {
        long s = Math.max(0, Math.round(ms / 1000.0)); // rounded, not cut: 5.9 s left is "6s"
        return s >= 3600
                ? String.format("%dh%02dm", s / 3600, s % 3600 / 60)
                : s >= 60 ? String.format("%dm%02ds", s / 60, s % 60) : s + "s";
    }

    /** How many cells ended how, and the estimate of what is left (scaled by how estimates fared so far). */
    private static final class Tally {
        private int ok;
        private int invalid;
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
                case CellOutcome.Invalid v -> invalid++; // not an ok result: the run exits 3
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

        synchronized MatrixRun.Totals totals() {
            return new MatrixRun.Totals(ok, invalid, failed, timedOut, skipped, resumed);
        }
    }
}
