package dev.loommatrix.runner.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.runner.cli.LoomMatrix;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Grafana sink against a real PostgreSQL server: schema by migration, rows as in the files, idempotent. */
class PostgresSinkIT {

    static PostgresServer server;

    @BeforeAll
    static void startServer() throws Exception {
        server = PostgresServer.start();
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    /** {@code publish --run RUN --site SITE --postgres URL}. */
    static String[] publishArgs(RunDirectory run, Path site, String jdbcUrl) {
        return new String[] {"publish", "--run", run.root().toString(), "--site", site.toString(), "--postgres", jdbcUrl
        };
    }

    static String query(String sql) throws Exception {
        try (Connection db = DriverManager.getConnection(server.jdbcUrl());
                Statement st = db.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** A digest of every row of every table, in a stable order. */
    static String everything() throws Exception {
        return query(
                """
                SELECT md5(
                  (SELECT string_agg(r::text, '|' ORDER BY r.run_id) FROM runs r) ||
                  (SELECT string_agg(c::text, '|' ORDER BY c.run_id, c.cell_id) FROM cells c) ||
                  (SELECT string_agg(m::text, '|' ORDER BY m.run_id, m.cell_id, m.variant, m.benchmark) FROM measurements m) ||
                  (SELECT string_agg(s::text, '|' ORDER BY s.run_id, s.cell_id, s.variant, s.benchmark, s.repetition, s.metric) FROM samples s))
                """);
    }

    @Test
    void publishUpsertsTheRunAndPublishingAgainChangesNothing(@TempDir Path tmp) throws Exception {
        RunDirectory run = HistoryTest.run(tmp, "r1", "2026-11-21T10:00:00Z");
        CellRecord cell = run.readCells().get(0);
        String[] args = publishArgs(run, tmp.resolve("site"), server.jdbcUrl());
        assertThat(LoomMatrix.mainWithoutExit(args, System.out, System.err)).isZero();

        assertThat(query("SELECT count(*) FROM runs")).isEqualTo("1");
        assertThat(query("SELECT count(*) FROM cells")).isEqualTo("1");
        assertThat(query("SELECT count(*) FROM measurements"))
                .isEqualTo(String.valueOf(cell.measurements().size()));
        double median = cell.measurement("virtual")
                .orElseThrow()
                .summary()
                .orElseThrow()
                .median();
        assertThat(Double.parseDouble(query("SELECT median_ms FROM measurements WHERE variant = 'virtual'")))
                .isEqualTo(median);
        // every numeric metric of every repetition is a row
        long numeric = cell.measurements().stream()
                .flatMap(m -> m.samples().stream())
                .mapToLong(s -> s.metrics().size())
                .sum();
        assertThat(query("SELECT count(*) FROM samples")).isEqualTo(String.valueOf(numeric));
        assertThat(query("SELECT attested::text FROM cells")).isEqualTo("true");
        assertThat(query("SELECT count(*) FROM flyway_schema_history WHERE success"))
                .isEqualTo("5");
        // the cell's headline contrast, as the dashboard shows it (issue #19)
        assertThat(query("SELECT headline_kind || ' ' || headline_subject || ' vs ' || headline_reference FROM cells"))
                .isEqualTo("speedup virtual vs pool:100");
        assertThat(query("SELECT headline_words FROM cells")).contains("fastest platform-thread variant");
        var speedup = cell.speedups().stream()
                .filter(s -> s.over().equals("virtual")
                        && s.variant().equals("pool:100")
                        && s.metric().equals("wallMs"))
                .findFirst()
                .orElseThrow();
        assertThat(Double.parseDouble(query("SELECT headline_value FROM cells")))
                .isEqualTo(speedup.ratio());
        assertThat(Double.parseDouble(query("SELECT headline_ci_low FROM cells")))
                .isEqualTo(speedup.ci95().get(0));
        // each measurement carries the metric it is judged by, with its direction, as the record says
        assertThat(query("SELECT string_agg(DISTINCT metric || ' ' || metric_unit || ' ' || metric_direction, ',')"
                        + " FROM measurements"))
                .isEqualTo("wallMs ms lower");
        assertThat(query("SELECT count(*) FROM measurements WHERE metric_median = median_ms"))
                .isEqualTo(query("SELECT count(*) FROM measurements"));

        String before = everything();
        assertThat(LoomMatrix.mainWithoutExit(args, System.out, System.err)).isZero();
        assertThat(everything()).isEqualTo(before);
    }

    /**
     * A user's JMH benchmark (the golden user cell, from a real container run): one row per variant and
     * benchmark, its score in its own unit as the judged metric, the cell's baseline; publishing it again
     * changes nothing.
     */
    @Test
    void aUserWorkloadsBenchmarksAreRowsOfTheirOwn(@TempDir Path tmp) throws Exception {
        RunDirectory run = HistoryTest.run(tmp, "user-1", "2026-11-22T10:00:00Z");
        CellRecord user = dev.loommatrix.core.result.Json.MAPPER.readValue(
                Path.of("src/test/resources/golden/cell-jmh-blocking.json").toFile(), CellRecord.class);
        withCell(run, user);
        String[] args = publishArgs(run, tmp.resolve("site"), server.jdbcUrl());
        try {
            assertThat(LoomMatrix.mainWithoutExit(args, System.out, System.err)).isZero();
            String where = " WHERE run_id = 'user-1' AND cell_id = '" + user.cellId() + "'";
            assertThat(query("SELECT baseline FROM cells" + where)).isEqualTo("platform");
            assertThat(query("SELECT string_agg(variant || ' ' || benchmark || ' ' || metric || ' ' || metric_unit"
                            + " || ' ' || metric_direction, ',' ORDER BY variant) FROM measurements" + where))
                    .isEqualTo("platform example.blocking.BlockingServiceBenchmark.threadsByParam(poolSize=50,"
                            + " requests=100) score ms/op lower,virtual example.blocking.BlockingServiceBenchmark"
                            + ".threadsByParam(poolSize=50, requests=100) score ms/op lower");
            double median = user.measurement("virtual")
                    .orElseThrow()
                    .summary()
                    .orElseThrow()
                    .median();
            assertThat(Double.parseDouble(
                            query("SELECT metric_median FROM measurements" + where + " AND variant = 'virtual'")))
                    .isEqualTo(median);
            assertThat(query("SELECT count(*) FROM measurements" + where + " AND median_ms IS NOT NULL"))
                    .as("the *_ms columns are wall time's, which a JMH score is not")
                    .isEqualTo("0");
            long numeric = user.measurements().stream()
                    .flatMap(m -> m.samples().stream())
                    .mapToLong(x -> x.metrics().size())
                    .sum();
            assertThat(query("SELECT count(*) FROM samples" + where + " AND benchmark <> ''"))
                    .isEqualTo(String.valueOf(numeric));
            String before = everything();
            assertThat(LoomMatrix.mainWithoutExit(args, System.out, System.err)).isZero();
            assertThat(everything()).isEqualTo(before);
        } finally {
            try (Connection db = DriverManager.getConnection(server.jdbcUrl());
                    Statement st = db.createStatement()) {
                st.executeUpdate("DELETE FROM runs WHERE run_id = 'user-1'"); // the other tests count rows
            }
        }
    }

    /** The run with one more cell, as a run that measured it would have it. */
    private static void withCell(RunDirectory run, CellRecord cell) throws Exception {
        run.writeCell(cell);
        dev.loommatrix.core.result.RunManifest manifest = run.readManifest();
        java.util.List<String> ids = new java.util.ArrayList<>(manifest.cells());
        ids.add(cell.cellId());
        run.writeManifest(manifest.withCells(ids));
    }

    /**
     * A service cell (issue #28; the golden is the example Spring Boot service from a real container run): its
     * throughput is the judged metric with its unit and direction, and every numeric figure of every sample —
     * latency percentiles, errors, the generator's use — is a row for Grafana; the percentile distribution is
     * a fact of the record, not a number, so it is not.
     */
    @Test
    void aServiceCellsThroughputAndLatenciesAreRows(@TempDir Path tmp) throws Exception {
        RunDirectory run = HistoryTest.run(tmp, "service-1", "2026-11-25T21:00:00Z");
        CellRecord service = dev.loommatrix.core.result.Json.MAPPER.readValue(
                Path.of("src/test/resources/golden/cell-spring-service.json").toFile(), CellRecord.class);
        withCell(run, service);
        String[] args = publishArgs(run, tmp.resolve("site"), server.jdbcUrl());
        try {
            assertThat(LoomMatrix.mainWithoutExit(args, System.out, System.err)).isZero();
            String where = " WHERE run_id = 'service-1' AND cell_id = '" + service.cellId() + "'";
            assertThat(query("SELECT string_agg(variant || ' ' || metric || ' ' || metric_unit || ' ' || "
                            + "metric_direction, ',' ORDER BY variant) FROM measurements" + where))
                    .isEqualTo("tomcat-20 throughputPerSecond req/s higher,virtual throughputPerSecond req/s higher");
            long numeric = service.measurements().stream()
                    .flatMap(m -> m.samples().stream())
                    .mapToLong(x -> x.metrics().size())
                    .sum();
            assertThat(query("SELECT count(*) FROM samples" + where)).isEqualTo(String.valueOf(numeric));
            assertThat(query("SELECT count(*) FROM samples" + where + " AND metric = 'latencyP99Ms'"))
                    .isEqualTo("4");
            assertThat(query("SELECT count(*) FROM samples" + where + " AND metric = 'latencyDistributionMs'"))
                    .isEqualTo("0");
        } finally {
            try (Connection db = DriverManager.getConnection(server.jdbcUrl());
                    Statement st = db.createStatement()) {
                st.executeUpdate("DELETE FROM runs WHERE run_id = 'service-1'");
            }
        }
    }

    /**
     * A capacity cell (issue #52; the golden is the example Spring Boot service's quick search in containers): its
     * capacity is the judged metric, req/s and higher being better, one row a repetition; the windows it tried are
     * facts of the record, not numbers, so they are not rows.
     */
    @Test
    void aCapacityCellsCapacityIsTheJudgedMetric(@TempDir Path tmp) throws Exception {
        RunDirectory run = HistoryTest.run(tmp, "capacity-1", "2026-12-06T21:00:00Z");
        CellRecord capacity = dev.loommatrix.core.result.Json.MAPPER.readValue(
                Path.of("src/test/resources/golden/cell-spring-capacity.json").toFile(), CellRecord.class);
        withCell(run, capacity);
        String[] args = publishArgs(run, tmp.resolve("site"), server.jdbcUrl());
        try {
            assertThat(LoomMatrix.mainWithoutExit(args, System.out, System.err)).isZero();
            String where = " WHERE run_id = 'capacity-1' AND cell_id = '" + capacity.cellId() + "'";
            assertThat(query("SELECT string_agg(variant || ' ' || metric || ' ' || metric_unit || ' ' || "
                            + "metric_direction, ',' ORDER BY variant) FROM measurements" + where))
                    .isEqualTo("tomcat-20 capacityPerSecond req/s higher,virtual capacityPerSecond req/s higher");
            assertThat(query("SELECT string_agg(value::text, ',' ORDER BY variant, value) FROM samples" + where
                            + " AND metric = 'capacityPerSecond'"))
                    .isEqualTo("50,50,200,200");
            assertThat(query("SELECT count(*) FROM samples" + where + " AND metric = 'capacityTried'"))
                    .isEqualTo("0");
        } finally {
            try (Connection db = DriverManager.getConnection(server.jdbcUrl());
                    Statement st = db.createStatement()) {
                st.executeUpdate("DELETE FROM runs WHERE run_id = 'capacity-1'");
            }
        }
    }

    /**
     * Issue #32: a cell measured beside other work keeps its flag in Grafana too — the real disturbed cell (measured
     * beside stress-ng) with its figures and the record's words; a quiet cell's figures with no flag.
     */
    @Test
    void aDisturbedCellsFlagAndFiguresAreColumns(@TempDir Path tmp) throws Exception {
        RunDirectory run = HistoryTest.run(tmp, "disturbed-1", "2026-11-26T09:00:00Z");
        CellRecord disturbed = dev.loommatrix.core.result.Json.MAPPER.readValue(
                Path.of("src/test/resources/fixtures/records/sleep-bound-disturbed.json")
                        .toFile(),
                CellRecord.class);
        withCell(run, disturbed);
        String[] args = publishArgs(run, tmp.resolve("site"), server.jdbcUrl());
        try {
            assertThat(LoomMatrix.mainWithoutExit(args, System.out, System.err)).isZero();
            String where = " WHERE run_id = 'disturbed-1' AND cell_id = '" + disturbed.cellId() + "'";
            var interference = disturbed.execution().interference().orElseThrow();
            assertThat(query("SELECT disturbed FROM cells" + where))
                    .isEqualTo(interference.disturbed().orElseThrow())
                    .startsWith("measured beside 0.71 CPUs of other work");
            assertThat(Double.parseDouble(query("SELECT other_cpus_mean FROM cells" + where)))
                    .isEqualTo(interference.otherCpusMean());
            assertThat(Double.parseDouble(query("SELECT other_cpus_max FROM cells" + where)))
                    .isEqualTo(interference.otherCpusMax());
            assertThat(Double.parseDouble(query("SELECT interference_threshold_cpus FROM cells" + where)))
                    .isEqualTo(0.25);
            assertThat(query("SELECT count(*) FROM cells WHERE run_id = 'disturbed-1' AND disturbed IS NOT NULL"))
                    .as("only the disturbed cell is flagged")
                    .isEqualTo("1");
        } finally {
            try (Connection db = DriverManager.getConnection(server.jdbcUrl());
                    Statement st = db.createStatement()) {
                st.executeUpdate("DELETE FROM runs WHERE run_id = 'disturbed-1'");
            }
        }
    }

    @Test
    void anUnreachableDatabaseIsAClearErrorAndTheSiteIsStillPublished(@TempDir Path tmp) throws Exception {
        RunDirectory run = HistoryTest.run(tmp, "r2", "2026-11-21T11:00:00Z");
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = LoomMatrix.mainWithoutExit(
                publishArgs(run, tmp.resolve("site"), "jdbc:postgresql://127.0.0.1:1/nowhere?user=x&password=secret"),
                System.out,
                new java.io.PrintStream(err, true));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString())
                .contains("could not write to PostgreSQL")
                .contains("password=***")
                .doesNotContain("secret");
        assertThat(History.readIndex(tmp.resolve("site")).runs())
                .extracting(History.Entry::runId)
                .containsExactly("r2");
        assertThat(Optional.of(tmp.resolve("site/index.html"))
                        .map(p -> p.toFile().exists()))
                .hasValue(true);
    }
}
