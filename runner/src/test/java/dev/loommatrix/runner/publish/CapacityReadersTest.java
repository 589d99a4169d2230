package dev.loommatrix.runner.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.runner.cli.CliTest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #52: capacity is a measurement like the others — history and its change points, compare and export read
 * a capacity cell as they read any other, higher being better. From the golden capacity cell (the example Spring
 * Boot service's quick search in containers: virtual threads at least 200 requests/s, Tomcat's pool of 20 at 50),
 * with the pool's capacity scaled to make a change.
 */
class CapacityReadersTest {

    private static final Path GOLDEN = Path.of("src/test/resources/golden/cell-spring-capacity.json");

    /** The golden cell with tomcat-20's capacity in every repetition (and its summary) scaled by a factor. */
    static CellRecord poolScaled(double factor) throws Exception {
        ObjectNode cell = (ObjectNode) Json.MAPPER.readTree(GOLDEN.toFile());
        for (JsonNode m : cell.get("measurements")) {
            if (!m.get("variant").asText().equals("tomcat-20")) {
                continue;
            }
            for (JsonNode s : m.get("samples")) {
                ((ObjectNode) s)
                        .put("capacityPerSecond", s.get("capacityPerSecond").asDouble() * factor);
            }
            ObjectNode summary = (ObjectNode) m.get("summary");
            for (String key : List.of("median", "mean")) {
                summary.put(key, summary.get(key).asDouble() * factor);
            }
            ArrayNode ci = (ArrayNode) summary.get("ci95");
            summary.set(
                    "ci95",
                    Json.MAPPER
                            .createArrayNode()
                            .add(ci.get(0).asDouble() * factor)
                            .add(ci.get(1).asDouble() * factor));
        }
        cell.remove("speedups"); // recomputed by nobody here; the readers under test read the measurements
        return Json.MAPPER.treeToValue(cell, CellRecord.class);
    }

    private static String cli(int expected, String... args) {
        CliTest.Result r = CliTest.run(args);
        assertThat(r.code()).as(r.err()).isEqualTo(expected);
        return r.out();
    }

    @Test
    void historyKeepsTheCapacityAsASeriesAndFindsTheStepDownInIt(@TempDir Path tmp) throws Exception {
        Path site = tmp.resolve("site");
        List<String> runs = new ArrayList<>();
        for (int k = 0; k < 10; k++) {
            // five nightlies at the pool's capacity, then five at 60 % of it, each within 1 % of its level
            double level = (k < 5 ? 1.0 : 0.6) * (1 + 0.01 * (k % 3));
            String id = "r" + k;
            runs.add(id);
            SitePublisher.publish(
                    HistoryTest.runOf(tmp, id, "2026-11-%02dT02:00:00Z".formatted(10 + k), poolScaled(level), "c" + k),
                    site,
                    Optional.empty());
        }
        JsonNode trends = Json.MAPPER.readTree(site.resolve("data/trends/slow-endpoint-capacity/temurin-25.json")
                .toFile());
        JsonNode pool = null;
        for (JsonNode series : trends.get("series")) {
            assertThat(series.get("metric").asText()).isEqualTo("capacityPerSecond");
            assertThat(series.get("unit").asText()).isEqualTo("req/s");
            if (series.get("variant").asText().equals("tomcat-20")) {
                pool = series;
            }
        }
        assertThat(pool).isNotNull();
        assertThat(pool.get("points")).hasSize(10);
        assertThat(pool.at("/points/0/median").asDouble()).isEqualTo(50.0);
        assertThat(pool.at("/points/5/median").asDouble()).isCloseTo(50 * 0.6 * 1.02, within(1e-9));
        assertThat(pool.get("changePoints").toString()).contains(runs.get(5));
    }

    @Test
    void compareSeesALowerCapacityAsWorseAndExportCarriesIt(@TempDir Path tmp) throws Exception {
        Path base = HistoryTest.runOf(tmp, "base", "2026-11-20T02:00:00Z", poolScaled(1.0), "c1")
                .root();
        Path cand = HistoryTest.runOf(tmp, "cand", "2026-11-21T02:00:00Z", poolScaled(0.5), "c2")
                .root();
        String json =
                cli(0, "compare", "--baseline", base.toString(), "--candidate", cand.toString(), "--format", "json");
        JsonNode report = Json.MAPPER.readTree(json);
        JsonNode pool = null;
        for (JsonNode c : report.get("comparisons")) {
            if (c.get("variant").asText().equals("tomcat-20")) {
                pool = c;
            }
        }
        assertThat(pool).as(json).isNotNull();
        assertThat(pool.get("metric").asText()).isEqualTo("capacityPerSecond");
        // half the capacity, higher being better: the candidate is worse
        assertThat(pool.get("ratio").asDouble()).isEqualTo(0.5);
        assertThat(pool.toString()).contains("higher");

        String bmf = cli(0, "export", cand.toString(), "--format", "bmf");
        JsonNode benchmarks = Json.MAPPER.readTree(bmf);
        assertThat(bmf).contains("\"capacityPerSecond\"");
        assertThat(benchmarks.findValues("capacityPerSecond").stream()
                        .map(v -> v.get("value").asDouble())
                        .toList())
                .contains(25.0, 200.0);
    }

    /**
     * Virtual threads met the objective at the top of the range searched in both repetitions: their capacity is at
     * least 200 requests/s, so "4× the pool's" is a floor, and the report says so — in words and as the contrast's
     * bound. Were the pool's capacity a lower bound too, the ratio of two floors says nothing.
     */
    @Test
    void aLowerBoundCapacityMakesTheRatioAFloorInTheReport(@TempDir Path tmp) throws Exception {
        CellRecord golden = Json.MAPPER.readValue(GOLDEN.toFile(), CellRecord.class);
        Path run = HistoryTest.runOf(tmp, "floor", "2026-11-20T02:00:00Z", golden, "c1")
                .root();
        String words = cli(0, "report", run.toString());
        assertThat(words).contains("at least 4.00× [4.00–4.00, 67 % interval]");
        JsonNode finding = Json.MAPPER
                .readTree(cli(0, "report", run.toString(), "--format", "json"))
                .at("/conclusions/0/findings/0");
        assertThat(finding.at("/headline/bound").asText())
                .as(finding.toString())
                .isEqualTo("at least");
        assertThat(finding.get("conclusion").asText()).isEqualTo("pays-off");

        ObjectNode both = (ObjectNode) Json.MAPPER.readTree(GOLDEN.toFile());
        for (JsonNode m : both.get("measurements")) {
            for (JsonNode sample : m.get("samples")) {
                ((ObjectNode) sample).put("capacityOutcome", "lower bound");
            }
        }
        Path floors = HistoryTest.runOf(
                        tmp, "floors", "2026-11-21T02:00:00Z", Json.MAPPER.treeToValue(both, CellRecord.class), "c2")
                .root();
        JsonNode neither = Json.MAPPER
                .readTree(cli(0, "report", floors.toString(), "--format", "json"))
                .at("/conclusions/0/findings/0");
        assertThat(neither.at("/headline/bound").asText())
                .as(neither.toString())
                .isEqualTo("unknown");
        assertThat(neither.get("conclusion").asText()).isEqualTo("cannot-tell");
    }
}
