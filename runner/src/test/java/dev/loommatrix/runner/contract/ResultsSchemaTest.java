package dev.loommatrix.runner.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunManifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every format the runner writes, as sealed by the golden files, is valid against the published schema. */
public class ResultsSchemaTest {

    static final Path SCHEMA = Path.of("../schemas/results.schema.json");

    public static JsonSchema schema() throws Exception {
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Files.readString(SCHEMA));
    }

    @Test
    void goldenCellAndCompareFilesAreValid() throws Exception {
        JsonSchema schema = schema();
        for (String golden : List.of(
                "cell-sleep-bound.json",
                "cell-mass-start.json",
                "cell-jmh-blocking.json",
                "cell-sleep-bound-iterated.json",
                "cell-pinning-21.json",
                "cell-pinning-21-profiled.json",
                "cell-pinning-25-profiled.json",
                "cell-fib-fanout-flame.json",
                "cell-http-server.json",
                "cell-fib-fanout.json",
                "cell-spring-service.json",
                "cell-spring-capacity.json",
                "compare.json",
                "run.json")) {
            var json = Json.MAPPER.readTree(
                    Path.of("src/test/resources/golden", golden).toFile());
            assertThat(schema.validate(json)).as(golden).isEmpty();
        }
    }

    @Test
    void theRecordedSeedRunIsValid() throws Exception {
        var cell = Json.MAPPER.readTree(Path.of("../benchmarks/results/2026-11-21-seed-002/loom-matrix-cell.json")
                .toFile());
        assertThat(schema().validate(cell)).isEmpty();
    }

    @Test
    void aWrongStatusOrAMissingReasonIsRejected() throws Exception {
        var cell = (com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.readTree(
                Path.of("src/test/resources/golden/cell-sleep-bound.json").toFile());
        cell.put("status", "failed"); // a failed cell must say why
        assertThat(schema().validate(cell)).isNotEmpty();
        cell.put("status", "exploded");
        assertThat(schema().validate(cell)).isNotEmpty();
    }

    @Test
    void aBuiltInMeasurementStillNeedsWallTimeAUserOneDoesNot() throws Exception {
        var builtIn = (com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.readTree(
                Path.of("src/test/resources/golden/cell-sleep-bound.json").toFile());
        ((com.fasterxml.jackson.databind.node.ObjectNode)
                        builtIn.path("measurements").get(0).path("samples").get(0))
                .remove("wallMs");
        assertThat(schema().validate(builtIn))
                .as("a built-in sample without wallMs")
                .isNotEmpty();
        var user = Json.MAPPER.readTree(
                Path.of("src/test/resources/golden/cell-jmh-blocking.json").toFile());
        assertThat(user.path("measurements").get(0).path("samples").get(0).has("wallMs"))
                .isFalse();
        assertThat(schema().validate(user)).isEmpty();
    }

    @Test
    void aRunManifestIsValid() throws Exception {
        RunManifest manifest = new RunManifest(
                1,
                "20261121T233407Z-f5f3",
                "2026-11-21T23:34:07Z",
                java.util.Optional.of("2026-11-22T00:45:00Z"),
                dev.loommatrix.core.result.RunStatus.FINISHED,
                "manual",
                new RunManifest.Git("dc062f1", "main", false),
                RunManifest.Host.of("Linux", "6.18", "cpu", 2, 24L << 30),
                new RunManifest.MatrixInfo(
                        "matrix.yaml", java.util.Optional.of("seeds-offline"), "ab12", java.util.Optional.empty()),
                List.of("a", "b"));
        assertThat(schema().validate(Json.MAPPER.valueToTree(manifest))).isEmpty();
        // and its bytes are sealed like the other formats (-Dgolden.update=true to rewrite for review)
        dev.loommatrix.core.testing.Golden.assertJson(Path.of("src/test/resources/golden/run.json"), manifest);
        assertThat(Json.MAPPER.readValue(Json.MAPPER.writeValueAsString(manifest), RunManifest.class))
                .isEqualTo(manifest);
    }
}
