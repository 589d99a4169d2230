package dev.loommatrix.core.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.result.RunStatus;
import dev.loommatrix.core.testing.SyntheticRuns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;

/** Each export format checked against the real thing: JMH's own result file, Bencher's published schema. */
class ExportTest {

    /** A result file JMH 1.37 wrote for examples/jmh-blocking (2 forks × 2 iterations, -prof gc). */
    static final Path JMH_RESULT = Path.of("src/test/resources/fixtures/jmh/blocking-avgt-gc.json");

    static final List<CellRecord> CELLS = List.of(
            SyntheticRuns.cell("sleep-bound", "t21", "virtual", "wallMs", SyntheticRuns.samples(1, 5, 440, 0.02)),
            SyntheticRuns.cell(
                    "http-server", "t21", "virtual", "throughputPerSecond", SyntheticRuns.samples(2, 5, 8500, 0.03)));

    @Test
    void theScoreErrorAndPercentilesAreJmhsOwn() throws Exception {
        JsonNode primary = Json.MAPPER.readTree(JMH_RESULT.toFile()).get(0).get("primaryMetric");
        List<List<Double>> forks = new ArrayList<>();
        primary.get("rawData").forEach(fork -> {
            List<Double> values = new ArrayList<>();
            fork.forEach(v -> values.add(v.asDouble()));
            forks.add(values);
        });
        JmhScore ours = JmhScore.of(forks, "ms/op");
        assertThat(ours.score()).isCloseTo(primary.get("score").asDouble(), within(1e-12));
        assertThat(ours.scoreError()).isCloseTo(primary.get("scoreError").asDouble(), within(1e-9));
        assertThat(ours.scoreConfidence().get(0))
                .isCloseTo(primary.get("scoreConfidence").get(0).asDouble(), within(1e-9));
        Iterator<String> keys = primary.get("scorePercentiles").fieldNames();
        assertThat(ours.scorePercentiles().keySet()).containsExactlyElementsOf(() -> keys);
        ours.scorePercentiles().forEach((p, v) -> assertThat(v)
                .as("percentile %s", p)
                .isCloseTo(primary.get("scorePercentiles").get(p).asDouble(), within(1e-12)));
    }

    @Test
    void theJmhExportHasJmhsShapeAndItsUnitsAndModes() throws Exception {
        JsonNode real = Json.MAPPER.readTree(JMH_RESULT.toFile()).get(0);
        JsonNode ours = Json.MAPPER.valueToTree(Export.jmh(CELLS));
        assertThat(ours).hasSize(2);
        for (JsonNode benchmark : ours) {
            assertThat(fields(benchmark)).isEqualTo(fields(real));
            assertThat(fields(benchmark.get("primaryMetric"))).isEqualTo(fields(real.get("primaryMetric")));
            real.fields()
                    .forEachRemaining(f -> assertThat(benchmark.get(f.getKey()).getNodeType())
                            .as(f.getKey())
                            .isEqualTo(f.getValue().getNodeType()));
            assertThat(benchmark.get("params").get("jdk").asText()).isEqualTo("t21");
            assertThat(benchmark.get("primaryMetric").get("rawData")).hasSize(5); // a fork per fresh JVM
        }
        assertThat(ours.get(0).get("mode").asText()).isEqualTo("ss");
        assertThat(ours.get(0).get("primaryMetric").get("scoreUnit").asText()).isEqualTo("ms/op");
        assertThat(ours.get(1).get("mode").asText()).isEqualTo("thrpt");
        assertThat(ours.get(1).get("primaryMetric").get("scoreUnit").asText()).isEqualTo("ops/s");
    }

    /**
     * A user's JMH benchmark (the runner's golden user cell, from a real container run of the example):
     * JMH's shape, its own name, mode, unit and @Param values, each fresh JVM a fork with its iterations.
     */
    @Test
    void aUsersJmhBenchmarkIsExportedUnderItsOwnName() throws Exception {
        CellRecord user = Json.MAPPER.readValue(
                Path.of("../runner/src/test/resources/golden/cell-jmh-blocking.json")
                        .toFile(),
                CellRecord.class);
        JsonNode real = Json.MAPPER.readTree(JMH_RESULT.toFile()).get(0);
        JsonNode ours = Json.MAPPER.valueToTree(Export.jmh(List.of(user)));
        assertThat(ours).hasSize(2);
        for (JsonNode benchmark : ours) {
            assertThat(fields(benchmark)).isEqualTo(fields(real));
            assertThat(benchmark.get("benchmark").asText())
                    .isEqualTo(real.get("benchmark").asText());
            assertThat(benchmark.get("mode").asText()).isEqualTo("avgt");
            assertThat(benchmark.get("primaryMetric").get("scoreUnit").asText()).isEqualTo("ms/op");
            assertThat(benchmark.get("params").get("poolSize").asText()).isEqualTo("50");
            assertThat(benchmark.get("params").has("threadType")).isTrue();
            assertThat(benchmark.get("measurementIterations").asInt()).isEqualTo(3);
            JsonNode raw = benchmark.get("primaryMetric").get("rawData");
            assertThat(raw).hasSize(3); // a fork per fresh JVM
            raw.forEach(fork -> assertThat(fork).hasSize(3)); // with its three iterations
        }
        // the score over every iteration of every fork, as JMH computes it
        List<List<Double>> forks = new ArrayList<>();
        ours.get(0).get("primaryMetric").get("rawData").forEach(fork -> {
            List<Double> values = new ArrayList<>();
            fork.forEach(v -> values.add(v.asDouble()));
            forks.add(values);
        });
        assertThat(ours.get(0).get("primaryMetric").get("score").asDouble())
                .isCloseTo(JmhScore.of(forks, "ms/op").score(), within(1e-12));
    }

    @Test
    void theBmfExportIsValidAgainstBenchersSchema() throws Exception {
        var schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7)
                .getSchema(Files.readString(Path.of("src/test/resources/fixtures/bmf/bmf.schema.json")));
        JsonNode bmf = Json.MAPPER.valueToTree(Export.bmf(CELLS));
        assertThat(schema.validate(bmf)).isEmpty();
        JsonNode sleep =
                bmf.get(Export.name(CELLS.get(0), CELLS.get(0).measurements().get(0)));
        JsonNode wall = sleep.get("wallMs");
        assertThat(wall.get("value").asDouble())
                .isEqualTo(CELLS.get(0).measurements().get(0).medianOf("wallMs").orElseThrow());
        assertThat(wall.get("lower_value").asDouble())
                .isLessThanOrEqualTo(wall.get("value").asDouble());
        assertThat(wall.get("upper_value").asDouble())
                .isGreaterThanOrEqualTo(wall.get("value").asDouble());
    }

    @Test
    void theCsvHasOneRowPerRecordedNumberAndReadsBack() throws Exception {
        RunManifest run = new RunManifest(
                1,
                "r1",
                "2026-11-23T00:00:00Z",
                Optional.empty(),
                RunStatus.FINISHED,
                "manual",
                new RunManifest.Git("abc", "main", false),
                RunManifest.Host.of("Linux", "6", "cpu", 2, 1L << 30),
                new RunManifest.MatrixInfo("matrix.yaml", Optional.empty(), "00", Optional.empty()),
                List.of());
        String text = Export.csv(run, CELLS);
        List<CSVRecord> rows = CSVFormat.RFC4180
                .builder()
                .setHeader()
                .setSkipHeaderRecord(true)
                .get()
                .parse(new java.io.StringReader(text))
                .getRecords();
        long numbers = CELLS.stream()
                .flatMap(c -> c.measurements().stream())
                .flatMap(m -> m.samples().stream())
                .mapToLong(s -> s.metrics().size())
                .sum();
        assertThat(rows).hasSize((int) numbers);
        CSVRecord judged = rows.stream()
                .filter(r -> r.get("judged").equals("true") && r.get("workload").equals("http-server"))
                .findFirst()
                .orElseThrow();
        assertThat(judged.get("metric")).isEqualTo("throughputPerSecond");
        assertThat(judged.get("unit")).isEqualTo("req/s");
        assertThat(judged.get("direction")).isEqualTo("higher");
        assertThat(judged.get("repetition")).isEqualTo("1");
        assertThat(Double.parseDouble(judged.get("value")))
                .isEqualTo(CELLS.get(1).measurements().get(0).values("throughputPerSecond")[0]);
    }

    static TreeSet<String> fields(JsonNode node) {
        TreeSet<String> names = new TreeSet<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
