package dev.loommatrix.core.result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loommatrix.core.stats.MetricDescriptor;
import dev.loommatrix.core.testing.SyntheticRuns;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsFormatTest {

    static Path writeCell(Path dir, ObjectNode cell) throws Exception {
        Path file = dir.resolve("cells").resolve(cell.get("cellId").asText() + ".json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, Json.MAPPER.writeValueAsString(cell));
        return file;
    }

    static ObjectNode aCell(String workload, String metric) {
        return Json.MAPPER.valueToTree(SyntheticRuns.cell(workload, "t21", "virtual", metric, new double[] {1, 2, 3}));
    }

    @Test
    void aCellFileLackingAFieldNamesTheFileAndThePath(@TempDir Path tmp) throws Exception {
        ObjectNode cell = aCell("sleep-bound", "wallMs");
        cell.remove("measurements");
        ((ObjectNode) cell.get("coordinates")).put("cpus", "two");
        Path file = writeCell(tmp, cell);
        var invalid = catchThrowableOfType(ResultsFormat.Invalid.class, () -> new RunDirectory(tmp)
                .readCell(cell.get("cellId").asText()));
        assertThat(invalid.getMessage())
                .startsWith(file + ": $: required property 'measurements' not found\n" + file
                        + ": $.coordinates.cpus: string found, number expected\n")
                .contains("hint: the file is not a loom-matrix cell file of schema 1")
                .doesNotContain("Cannot invoke");
    }

    @Test
    void textThatIsNotJsonSaysWhereItBroke(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("run.json");
        Files.writeString(file, "{\"schemaVersion\": 1,\n  \"runId\": ");
        var invalid = catchThrowableOfType(ResultsFormat.Invalid.class, () -> new RunDirectory(tmp).readManifest());
        assertThat(invalid.getMessage()).startsWith(file + ":2:").contains("not valid JSON");
    }

    /** A site index of another schema, or none, is refused with what it holds: its reader rebuilds it. */
    @Test
    void aVersionedDocumentOfAnotherSchemaSaysWhichItIs(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("index.json");
        Files.writeString(file, "{\"schemaVersion\": 2, \"runs\": []}");
        assertThatThrownBy(() -> Json.readVersioned(file, "data/index.json", 3, ObjectNode.class))
                .isInstanceOf(java.io.IOException.class)
                .hasMessage("data/index.json is not of schema 3 (its schemaVersion: 2)");
        Files.writeString(file, "[]");
        assertThatThrownBy(() -> Json.readVersioned(file, "data/index.json", 3, ObjectNode.class))
                .hasMessage("data/index.json is not of schema 3 (its schemaVersion: none)");
        Files.writeString(file, "{\"schemaVersion\": 3, \"runs\": []}");
        assertThat(Json.readVersioned(file, "data/index.json", 3, ObjectNode.class)
                        .get("runs")
                        .isArray())
                .isTrue();
    }

    @Test
    void aFileFromBeforeMetricsWereRecordedIsReadWithTheCataloguesMetric(@TempDir Path tmp) throws Exception {
        for (String workload : new String[] {"sleep-bound", "http-server"}) {
            ObjectNode cell = aCell(workload, workload.equals("http-server") ? "throughputPerSecond" : "wallMs");
            ((ArrayNode) cell.get("measurements")).forEach(m -> ((ObjectNode) m).remove("metric"));
            writeCell(tmp, cell);
            CellRecord read =
                    new RunDirectory(tmp).readCell(cell.get("cellId").asText()).orElseThrow();
            assertThat(read.measurements().get(0).metric())
                    .isEqualTo(workload.equals("http-server") ? MetricDescriptor.THROUGHPUT : MetricDescriptor.WALL_MS);
        }
    }

    /** A cell file whose writer left out the derived speedups gets them, as the runner computes them. */
    @Test
    void aCellWithoutItsSpeedupsGetsThemOnReading(@TempDir Path tmp) throws Exception {
        CellRecord written = Json.MAPPER.readValue(
                Path.of("../runner/src/test/resources/golden/cell-jmh-blocking.json")
                        .toFile(),
                CellRecord.class);
        ObjectNode tree = Json.MAPPER.valueToTree(written);
        tree.remove("speedups");
        writeCell(tmp, tree);
        CellRecord read = new RunDirectory(tmp).readCell(written.cellId()).orElseThrow();
        assertThat(read.speedups()).isEqualTo(written.speedups());
        assertThat(read.speedups()).singleElement().satisfies(s -> assertThat(s.over())
                .isEqualTo("virtual"));
    }
}
