package dev.loommatrix.runner.publish;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.EnvironmentRecord;
import dev.loommatrix.core.result.Interference;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.stats.Summary;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.flywaydb.core.Flyway;

/**
 * Writes a run into PostgreSQL for Grafana. The schema ({@code db/migration}) is created and migrated
 * by Flyway before every publish; the run, its cells, measurements and samples are upserted in one
 * transaction, so publishing the same run again leaves the same rows and a failure leaves none.
 */
public final class PostgresSink {

    private PostgresSink() {}

    /** The counts written, for the user. */
    public record Written(int cells, int measurements, int samples) {}

    public static Written publish(String jdbcUrl, RunManifest run, List<CellRecord> cells) throws SQLException {
        Flyway.configure()
                .dataSource(jdbcUrl, null, null)
                .locations("classpath:db/migration")
                .load()
                .migrate();
        try (Connection db = DriverManager.getConnection(jdbcUrl)) {
            db.setAutoCommit(false);
            try {
                Written written = write(db, run, cells);
                db.commit();
                return written;
            } catch (SQLException | RuntimeException e) {
                db.rollback();
                throw e;
            }
        }
    }

    private static Written write(Connection db, RunManifest run, List<CellRecord> cells) throws SQLException {
        upsertRun(db, run);
        // A republished run replaces its cells whole (a cell may have gone, a variant been renamed);
        // the cascade removes their measurements and samples, all inside this transaction.
        try (PreparedStatement clear = db.prepareStatement("DELETE FROM cells WHERE run_id = ?")) {
            clear.setString(1, run.runId());
            clear.executeUpdate();
        }
        int measurements = 0;
        int samples = 0;
        try (PreparedStatement cellRow = db.prepareStatement(CELL_ROW);
                PreparedStatement measurementRow = db.prepareStatement(MEASUREMENT_ROW);
                PreparedStatement sampleRow = db.prepareStatement(SAMPLE_ROW)) {
            for (CellRecord cell : cells) {
                bindCell(cellRow, run, cell);
                cellRow.executeUpdate();
                for (Measurement m : cell.measurements()) {
                    bindMeasurement(measurementRow, run, cell, m);
                    measurementRow.executeUpdate();
                    measurements++;
                    samples += addSamples(sampleRow, run, cell, m);
                    sampleRow.executeBatch();
                }
            }
        }
        return new Written(cells.size(), measurements, samples);
    }

    private static void upsertRun(Connection db, RunManifest run) throws SQLException {
        try (PreparedStatement upsert = db.prepareStatement(RUN_ROW)) {
            int i = 1;
            upsert.setString(i++, run.runId());
            upsert.setTimestamp(i++, time(run.startedAt()));
            upsert.setTimestamp(i++, run.finishedAt().map(PostgresSink::time).orElse(null));
            upsert.setString(i++, run.status().word());
            upsert.setString(i++, run.trigger());
            upsert.setString(i++, run.git() == null ? null : run.git().commit());
            upsert.setString(i++, run.git() == null ? null : run.git().branch());
            upsert.setObject(i++, run.git() == null ? null : run.git().dirty(), Types.BOOLEAN);
            upsert.setString(i++, run.host().os());
            upsert.setString(i++, run.host().kernel());
            upsert.setString(i++, run.host().cpuModel());
            upsert.setInt(i++, run.host().cpus());
            upsert.setLong(i++, run.host().memoryBytes());
            upsert.setString(i++, run.matrix().file());
            upsert.setString(i++, run.matrix().profile().orElse(null));
            upsert.setString(i, run.matrix().sha256());
            upsert.executeUpdate();
        }
    }

    /** A cell's row: its coordinates and outcome, then its headline and interference ({@link #bindFindings}). */
    private static void bindCell(PreparedStatement cellRow, RunManifest run, CellRecord cell) throws SQLException {
        var c = cell.coordinates();
        Optional<EnvironmentRecord> env = cell.environment();
        int i = 1;
        cellRow.setString(i++, run.runId());
        cellRow.setString(i++, cell.cellId());
        cellRow.setString(i++, c.jdk());
        cellRow.setString(i++, c.vm());
        cellRow.setInt(i++, c.version());
        cellRow.setString(i++, c.os());
        cellRow.setBigDecimal(i++, c.cpus());
        cellRow.setString(i++, c.cpuset());
        cellRow.setString(i++, c.parallelism());
        cellRow.setString(i++, c.maxPoolSize());
        cellRow.setString(i++, c.minRunnable());
        cellRow.setString(i++, c.workload());
        cellRow.setString(i++, cell.status().word());
        cellRow.setString(i++, cell.reason().orElse(null));
        cellRow.setObject(i++, env.map(EnvironmentRecord::attested).orElse(null), Types.BOOLEAN);
        cellRow.setObject(i++, env.map(EnvironmentRecord::availableProcessors).orElse(null), Types.INTEGER);
        cellRow.setString(i++, env.map(EnvironmentRecord::javaVersion).orElse(null));
        cellRow.setString(i++, env.map(e -> e.vm().get("version")).orElse(null));
        cellRow.setString(i++, env.flatMap(EnvironmentRecord::image).orElse(null));
        cellRow.setString(i++, env.flatMap(EnvironmentRecord::imageDigest).orElse(null));
        cellRow.setString(i++, cell.execution().backend());
        cellRow.setTimestamp(i++, time(cell.execution().startedAt()));
        cellRow.setLong(i++, cell.execution().durationMs());
        cellRow.setString(i++, cell.baseline().orElse(null));
        bindFindings(cellRow, i, cell);
    }

    /** The cell row's headline columns and its interference columns, from parameter {@code i} on. */
    private static void bindFindings(PreparedStatement cellRow, int i, CellRecord cell) throws SQLException {
        var headline = cell.contrast();
        cellRow.setString(
                i++,
                headline.map(h -> h.kind().name().toLowerCase(java.util.Locale.ROOT))
                        .orElse(null));
        cellRow.setString(i++, headline.map(h -> h.subject()).orElse(null));
        cellRow.setString(i++, headline.flatMap(h -> h.reference()).orElse(null));
        cellRow.setString(i++, headline.map(h -> h.words()).orElse(null));
        // the value the dashboard's tile shows: the same computation as compare's headlines
        var value = headline.flatMap(h -> dev.loommatrix.core.compare.Headlines.value(
                cell, h, dev.loommatrix.core.compare.Comparer.Phase.STEADY));
        var interval = value.map(v -> v.ci95()).filter(ci -> ci != null && ci.size() == 2);
        cellRow.setObject(i++, value.map(v -> v.value()).orElse(null), Types.DOUBLE);
        cellRow.setObject(i++, interval.map(ci -> ci.get(0)).orElse(null), Types.DOUBLE);
        cellRow.setObject(i++, interval.map(ci -> ci.get(1)).orElse(null), Types.DOUBLE);
        // other work beside the cell (issue #32): Grafana shows the flag as the dashboard does
        var interference = cell.execution().interference();
        cellRow.setObject(i++, interference.map(Interference::otherCpusMean).orElse(null), Types.DOUBLE);
        cellRow.setObject(i++, interference.map(Interference::otherCpusMax).orElse(null), Types.DOUBLE);
        cellRow.setObject(i++, interference.map(Interference::thresholdCpus).orElse(null), Types.DOUBLE);
        cellRow.setString(i, interference.flatMap(Interference::disturbed).orElse(null));
    }

    private static void bindMeasurement(PreparedStatement row, RunManifest run, CellRecord cell, Measurement m)
            throws SQLException {
        // the *_ms columns are wall time's: a user measurement's summary is of its own metric,
        // which metric_median (and the samples) carry in its unit
        Optional<Summary> s = m.benchmark().isPresent() ? Optional.empty() : m.summary();
        int j = 1;
        row.setString(j++, run.runId());
        row.setString(j++, cell.cellId());
        row.setString(j++, m.variant());
        row.setObject(j++, m.summary().map(Summary::n).orElse(null), Types.INTEGER);
        setDouble(row, j++, s.map(Summary::median));
        setDouble(row, j++, s.map(Summary::mean));
        setDouble(row, j++, s.map(Summary::stdev));
        setDouble(row, j++, s.map(Summary::cv));
        setDouble(row, j++, s.map(x -> x.ci95().get(0)));
        setDouble(row, j++, s.map(x -> x.ci95().get(1)));
        setDouble(row, j++, s.map(Summary::ciLevel));
        row.setObject(j++, s.map(Summary::unstable).orElse(null), Types.BOOLEAN);
        setDouble(row, j++, m.lowerBoundMs());
        setDouble(row, j++, m.efficiency());
        row.setObject(j++, m.ceiling().map(Measurement.Ceiling::threads).orElse(null), Types.BIGINT);
        row.setString(j++, m.error().orElse(null));
        row.setString(j++, m.metric().name());
        row.setString(j++, m.metric().unit());
        row.setString(j++, m.metric().direction().word());
        setDouble(row, j++, m.medianOf(m.metric().name()));
        row.setString(j, m.benchmarkLabel());
    }

    /** Every repetition's numeric metrics, batched; how many. */
    private static int addSamples(PreparedStatement sampleRow, RunManifest run, CellRecord cell, Measurement m)
            throws SQLException {
        int samples = 0;
        for (int rep = 0; rep < m.samples().size(); rep++) {
            // text and nested values (JMH's JSON) stay in the files: only numbers are metrics
            for (Map.Entry<String, Number> metric :
                    m.samples().get(rep).metrics().entrySet()) {
                sampleRow.setString(1, run.runId());
                sampleRow.setString(2, cell.cellId());
                sampleRow.setString(3, m.variant());
                sampleRow.setInt(4, rep);
                sampleRow.setString(5, metric.getKey());
                sampleRow.setDouble(6, metric.getValue().doubleValue());
                sampleRow.setString(7, m.benchmarkLabel());
                sampleRow.addBatch();
                samples++;
            }
        }
        return samples;
    }

    private static final String RUN_ROW =
            """
            INSERT INTO runs (run_id, started_at, finished_at, status, trigger, git_commit, git_branch, git_dirty,
                              host_os, host_kernel, host_cpu_model, host_cpus, host_memory,
                              matrix_file, matrix_profile, matrix_sha256)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (run_id) DO UPDATE SET
              started_at = EXCLUDED.started_at, finished_at = EXCLUDED.finished_at, status = EXCLUDED.status,
              trigger = EXCLUDED.trigger, git_commit = EXCLUDED.git_commit, git_branch = EXCLUDED.git_branch,
              git_dirty = EXCLUDED.git_dirty, host_os = EXCLUDED.host_os, host_kernel = EXCLUDED.host_kernel,
              host_cpu_model = EXCLUDED.host_cpu_model, host_cpus = EXCLUDED.host_cpus,
              host_memory = EXCLUDED.host_memory, matrix_file = EXCLUDED.matrix_file,
              matrix_profile = EXCLUDED.matrix_profile, matrix_sha256 = EXCLUDED.matrix_sha256
            """;

    private static final String CELL_ROW =
            """
            INSERT INTO cells (run_id, cell_id, jdk, vm, version, os, cpus, cpuset, parallelism, max_pool_size,
                               min_runnable, workload, status, reason, attested, available_processors,
                               java_version, vm_version, image, image_digest, backend, started_at, duration_ms,
                               baseline, headline_kind, headline_subject, headline_reference, headline_words,
                               headline_value, headline_ci_low, headline_ci_high, other_cpus_mean, other_cpus_max,
                               interference_threshold_cpus, disturbed)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                    ?, ?, ?, ?)
            """;

    private static final String MEASUREMENT_ROW =
            """
            INSERT INTO measurements (run_id, cell_id, variant, n, median_ms, mean_ms, stdev_ms, cv, ci_low_ms,
                                      ci_high_ms, ci_level, unstable, lower_bound_ms, efficiency,
                                      ceiling_threads, error, metric, metric_unit, metric_direction,
                                      metric_median, benchmark)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """;

    private static final String SAMPLE_ROW =
            """
            INSERT INTO samples (run_id, cell_id, variant, repetition, metric, value, benchmark)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """;

    private static void setDouble(PreparedStatement statement, int index, Optional<Double> value) throws SQLException {
        if (value.isPresent() && !value.get().isNaN()) {
            statement.setDouble(index, value.get());
        } else {
            statement.setNull(index, Types.DOUBLE);
        }
    }

    private static Timestamp time(String instant) {
        return Timestamp.from(Instant.parse(instant));
    }
}
