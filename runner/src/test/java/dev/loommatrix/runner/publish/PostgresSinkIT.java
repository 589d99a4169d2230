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
                  (SELECT string_agg(m::text, '|' ORDER BY m.run_id, m.cell_id, m.variant) FROM measurements m) ||
                  (SELECT string_agg(s::text, '|' ORDER BY s.run_id, s.cell_id, s.variant, s.repetition, s.metric) FROM samples s))
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
                .isEqualTo("2");
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
