package dev.loommatrix.runner.publish;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.runner.cli.LoomMatrix;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Grafana cannot be installed here, so its dashboards are checked the way Grafana would use them: every
 * template variable's query and every panel's SQL, with the variables and macros substituted as Grafana
 * substitutes them, runs against a real PostgreSQL loaded by {@code publish --postgres}, returns rows,
 * and has the columns its panel type needs.
 */
class GrafanaDashboardsIT {

    static PostgresServer server;

    @TempDir
    static Path tmp;

    static final Path DASHBOARDS =
            Path.of(System.getProperty("loom.projectRoot", ".."), "dashboard", "grafana", "dashboards");

    /** What Grafana would put in place of each variable (multi-value $jdk: a quoted list, as for SQL). */
    static final Map<String, String> VARIABLES = Map.of(
            "$run", "r3",
            "$baseline", "r1",
            "$candidate", "r3",
            "$workload", "sleep-bound",
            "$jdk", "'debian-21','debian-25'",
            "$variant", "virtual");

    @BeforeAll
    static void load() throws Exception {
        server = PostgresServer.start();
        for (int i = 1; i <= 3; i++) {
            var run = HistoryTest.run(tmp, "r" + i, "2026-11-1" + i + "T02:00:00Z");
            int exit = LoomMatrix.mainWithoutExit(
                    PostgresSinkIT.publishArgs(run, tmp.resolve("site"), server.jdbcUrl()), System.out, System.err);
            assertThat(exit).isZero();
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    static String substitute(String sql) {
        String out = sql.replaceAll(
                "\\$__timeFilter\\(([^)]+)\\)", "$1 BETWEEN '2026-01-01T00:00:00Z' AND '2026-12-31T23:59:59Z'");
        // longest names first, so $variant is not read as $var + "iant"
        for (String name : VARIABLES.keySet().stream()
                .sorted((a, b) -> b.length() - a.length())
                .toList()) {
            out = out.replace(name, VARIABLES.get(name));
        }
        assertThat(out).as("every variable substituted").doesNotContain("$");
        return out;
    }

    record Result(List<String> names, List<Integer> types, int rows) {}

    static Result execute(String sql) throws Exception {
        try (Connection db = DriverManager.getConnection(server.jdbcUrl());
                Statement st = db.createStatement();
                ResultSet rs = st.executeQuery(substitute(sql))) {
            ResultSetMetaData meta = rs.getMetaData();
            List<String> names = new ArrayList<>();
            List<Integer> types = new ArrayList<>();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                names.add(meta.getColumnLabel(i));
                types.add(meta.getColumnType(i));
            }
            int rows = 0;
            while (rs.next()) {
                rows++;
            }
            return new Result(names, types, rows);
        }
    }

    static final Set<Integer> NUMERIC =
            Set.of(Types.BIGINT, Types.INTEGER, Types.SMALLINT, Types.NUMERIC, Types.DOUBLE, Types.REAL, Types.DECIMAL);

    @TestFactory
    Stream<DynamicTest> everyPanelAndVariableQueryRunsAndFitsItsPanel() throws Exception {
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> files = Files.list(DASHBOARDS)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                JsonNode dashboard = Json.MAPPER.readTree(file.toFile());
                String name = file.getFileName().toString();
                for (JsonNode variable : dashboard.path("templating").path("list")) {
                    tests.add(DynamicTest.dynamicTest(
                            name + " variable $" + variable.get("name").asText(), () -> {
                                Result r = execute(variable.get("query").asText());
                                assertThat(r.names()).hasSize(1);
                                assertThat(r.rows()).isPositive();
                            }));
                }
                for (JsonNode panel : dashboard.path("panels")) {
                    for (JsonNode target : panel.path("targets")) {
                        String type = panel.get("type").asText();
                        tests.add(DynamicTest.dynamicTest(
                                name + " " + type + " \"" + panel.get("title").asText() + "\"",
                                () -> checkPanel(type, target)));
                    }
                }
            }
        }
        assertThat(tests).hasSizeGreaterThanOrEqualTo(8 + 8); // 8 panels and 8 variables in three dashboards
        return tests.stream();
    }

    static void checkPanel(String type, JsonNode target) throws Exception {
        Result r = execute(target.get("rawSql").asText());
        assertThat(r.rows()).as("the fixture runs give this panel rows").isPositive();
        switch (type) {
            case "timeseries" -> {
                assertThat(target.get("format").asText()).isEqualTo("time_series");
                assertThat(r.names()).containsExactly("time", "metric", "value");
                assertThat(r.types().get(0)).isIn(Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE);
                assertThat(NUMERIC).contains(r.types().get(2));
            }
            case "stat" ->
                assertThat(r.types()).allSatisfy(t -> assertThat(NUMERIC).contains(t));
            case "bargauge" -> {
                assertThat(r.types().get(0)).as("a label column").isEqualTo(Types.VARCHAR);
                assertThat(NUMERIC).contains(r.types().get(1));
            }
            case "table" -> assertThat(r.names()).isNotEmpty();
            default -> throw new AssertionError("no column rule for panel type " + type);
        }
    }
}
