package dev.loommatrix.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.loommatrix.core.matrix.Contrast;
import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.matrix.Workloads;
import dev.loommatrix.core.plan.Coordinates;
import dev.loommatrix.core.stats.Speedup;
import java.util.List;
import java.util.Optional;

/**
 * {@code RUN_DIR/cells/<cellId>.json} (results schema 1). Written once, atomically, when the cell ends.
 *
 * @param environment what the JVM reported; absent only when no JVM run finished
 * @param measurements one per variant that produced samples; kept even when the cell failed later
 * @param execution how the cell ran (backend, driver, timing, variant order) — not part of the result
 * @param speedups virtual threads against each other variant (or every variant over the baseline), computed
 *     once when the record is made ({@link #of}); a bootstrap is too dear to redo on every serialization
 * @param baseline the variant the speedups are over: a user workload's, or a built-in one's whose story is not
 *     virtual against platform threads (fib-fanout: sequential; pinning: reentrant-lock)
 * @param contrast the headline contrast, resolved for this cell (the fastest other variant named): what every
 *     view shows first, in words
 */
public record CellRecord(
        int schemaVersion,
        String cellId,
        Coordinates coordinates,
        CellStatus status,
        Optional<String> reason,
        Optional<String> logTail,
        Optional<EnvironmentRecord> environment,
        List<Measurement> measurements,
        Execution execution,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Speedup> speedups,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> baseline,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Contrast> contrast,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Profile> profiles) {

    public static final int SCHEMA_VERSION = 1;

    public CellRecord {
        measurements = List.copyOf(measurements);
        speedups = speedups == null ? List.of() : List.copyOf(speedups);
        baseline = baseline == null ? Optional.empty() : baseline;
        contrast = contrast == null ? Optional.empty() : contrast;
        profiles = profiles == null ? List.of() : List.copyOf(profiles);
    }

    /** This record with what its variants' profiling runs recorded (issue #20). */
    public CellRecord withProfiles(List<Profile> recorded) {
        return new CellRecord(
                schemaVersion,
                cellId,
                coordinates,
                status,
                reason,
                logTail,
                environment,
                measurements,
                execution,
                speedups,
                baseline,
                contrast,
                recorded);
    }

    /** A new record, its speedups computed from the measurements. */
    public static CellRecord of(
            String cellId,
            Coordinates coordinates,
            CellStatus status,
            Optional<String> reason,
            Optional<String> logTail,
            Optional<EnvironmentRecord> environment,
            List<Measurement> measurements,
            Execution execution) {
        return of(
                cellId,
                coordinates,
                status,
                reason,
                logTail,
                environment,
                measurements,
                execution,
                Optional.empty(),
                Optional.empty());
    }

    /**
     * @param baseline a user workload's baseline variant (the others' speedups are over it); empty for a
     *     built-in workload, which takes its catalogue's (most have none: their speedups are those of
     *     {@code virtual} over each other variant)
     * @param contrast a user workload's headline contrast; empty for a built-in one (the catalogue's) or a user
     *     one that declares none (its subject over the baseline)
     */
    public static CellRecord of(
            String cellId,
            Coordinates coordinates,
            CellStatus status,
            Optional<String> reason,
            Optional<String> logTail,
            Optional<EnvironmentRecord> environment,
            List<Measurement> measurements,
            Execution execution,
            Optional<String> baseline,
            Optional<Contrast> contrast) {
        Optional<Workloads.Definition> builtIn = Workloads.find(coordinates.workload());
        Optional<String> over = baseline.or(() -> builtIn.flatMap(Workloads.Definition::baseline));
        Optional<Contrast> declared = contrast.or(() -> builtIn.map(Workloads.Definition::contrast))
                .or(() -> over.map(b -> UserWorkload.defaultContrast(
                        measurements.stream()
                                .map(Measurement::variant)
                                .distinct()
                                .toList(),
                        b)));
        return new CellRecord(
                SCHEMA_VERSION,
                cellId,
                coordinates,
                status,
                reason,
                logTail,
                environment,
                measurements,
                execution,
                Speedups.of(cellId, measurements, over),
                over,
                declared.flatMap(d -> Speedups.resolve(d, measurements)),
                List.of());
    }

    /**
     * This record with what a newer writer derives from the measurements (see {@link ResultsFormat#readCell}):
     * the catalogue's baseline and contrast for a built-in workload, and the speedups when the file has none
     * or its baseline changed (a bootstrap is too dear to redo on every read).
     */
    CellRecord derived(boolean speedupsMissing) {
        CellRecord fresh = of(
                cellId,
                coordinates,
                status,
                reason,
                logTail,
                environment,
                measurements,
                execution,
                baseline,
                contrast.map(c ->
                        c.fastestOther() ? new Contrast(c.kind(), c.subject(), Optional.empty(), true, c.words()) : c));
        boolean keep = !speedupsMissing && fresh.baseline.equals(baseline);
        return new CellRecord(
                schemaVersion,
                cellId,
                coordinates,
                status,
                reason,
                logTail,
                environment,
                measurements,
                execution,
                keep ? speedups : fresh.speedups,
                fresh.baseline,
                contrast.isPresent() && keep ? contrast : fresh.contrast,
                profiles);
    }

    /** This record with another execution block (e.g. its earlier attempts named). */
    public CellRecord withExecution(Execution other) {
        return new CellRecord(
                schemaVersion,
                cellId,
                coordinates,
                status,
                reason,
                logTail,
                environment,
                measurements,
                other,
                speedups,
                baseline,
                contrast,
                profiles);
    }

    /** The measurement of one variant, if the cell has it. */
    public Optional<Measurement> measurement(String variant) {
        return measurements.stream().filter(m -> m.variant().equals(variant)).findFirst();
    }

    /** The measurement of one variant on one benchmark (its label; "" for a built-in workload), if the cell has it. */
    public Optional<Measurement> measurement(String variant, String benchmarkLabel) {
        return measurements.stream()
                .filter(m -> m.variant().equals(variant) && m.benchmarkLabel().equals(benchmarkLabel))
                .findFirst();
    }

    /**
     * How the cell was executed: facts for reproducing and for judging the numbers' conditions.
     * {@code earlierAttempts}, oldest first, when {@code run --resume --retry-failed} ran a failed or
     * timed-out cell again (absent otherwise): a reader sees the cell needed more than one go.
     */
    public record Execution(
            String backend,
            String driver,
            String startedAt,
            String finishedAt,
            long durationMs,
            List<String> variantOrder,
            Optional<String> fallbackReason,
            Optional<Beside> parallel,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Attempt> earlierAttempts,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> leftBehind,
            @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Interference> interference) {

        public Execution {
            variantOrder = List.copyOf(variantOrder);
            parallel = parallel == null ? Optional.empty() : parallel;
            earlierAttempts = earlierAttempts == null ? List.of() : List.copyOf(earlierAttempts);
            leftBehind = leftBehind == null ? List.of() : List.copyOf(leftBehind);
            interference = interference == null ? Optional.empty() : interference;
        }

        /**
         * How a cell ran with nothing more said: no fallback, not beside other cells, its first attempt, nothing
         * left behind, its host not watched. The {@code with…} methods say the rest, so a field added later changes
         * this record only.
         */
        public static Execution of(
                String backend,
                String driver,
                String startedAt,
                String finishedAt,
                long durationMs,
                List<String> variantOrder) {
            return new Execution(
                    backend,
                    driver,
                    startedAt,
                    finishedAt,
                    durationMs,
                    variantOrder,
                    Optional.empty(),
                    Optional.empty(),
                    List.of(),
                    List.of(),
                    Optional.empty());
        }

        /** This execution with why the cell fell back to another driver. */
        public Execution withFallbackReason(Optional<String> why) {
            return new Execution(
                    backend,
                    driver,
                    startedAt,
                    finishedAt,
                    durationMs,
                    variantOrder,
                    why,
                    parallel,
                    earlierAttempts,
                    leftBehind,
                    interference);
        }

        /** This execution with the CPUs the cell had and the cells that ran beside it. */
        public Execution withParallel(Optional<Beside> beside) {
            return new Execution(
                    backend,
                    driver,
                    startedAt,
                    finishedAt,
                    durationMs,
                    variantOrder,
                    fallbackReason,
                    beside,
                    earlierAttempts,
                    leftBehind,
                    interference);
        }

        /** This execution with the cell's earlier attempts, oldest first. */
        public Execution withEarlierAttempts(List<Attempt> attempts) {
            return new Execution(
                    backend,
                    driver,
                    startedAt,
                    finishedAt,
                    durationMs,
                    variantOrder,
                    fallbackReason,
                    parallel,
                    attempts,
                    leftBehind,
                    interference);
        }

        /** This execution with what the cell left running behind it. */
        public Execution withLeftBehind(List<String> left) {
            return new Execution(
                    backend,
                    driver,
                    startedAt,
                    finishedAt,
                    durationMs,
                    variantOrder,
                    fallbackReason,
                    parallel,
                    earlierAttempts,
                    left,
                    interference);
        }

        /** This execution with what the host's watch saw beside the cell. */
        public Execution withInterference(Optional<Interference> watched) {
            return new Execution(
                    backend,
                    driver,
                    startedAt,
                    finishedAt,
                    durationMs,
                    variantOrder,
                    fallbackReason,
                    parallel,
                    earlierAttempts,
                    leftBehind,
                    watched);
        }
    }

    /** An earlier attempt at a cell: how it ended; its record and raw output are under attempts/. */
    public record Attempt(CellStatus status, Optional<String> reason, String startedAt, String finishedAt) {}

    /** This record as the attempt it was. */
    public Attempt asAttempt() {
        return new Attempt(status, reason, execution.startedAt(), execution.finishedAt());
    }

    /**
     * Present when the cell ran with {@code --parallel-cells}: the CPUs it had to itself, and every cell
     * that ran at the same time on the others (neighbours share caches, memory bandwidth and the engine).
     */
    public record Beside(String cpuset, List<String> ranBeside) {
        public Beside {
            ranBeside = List.copyOf(ranBeside);
        }
    }
}
