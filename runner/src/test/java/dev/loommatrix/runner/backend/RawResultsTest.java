package dev.loommatrix.runner.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.testing.TestMatrices;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A fork's iterations as the runner reads them: steady or still trending (Mann-Kendall over the measured ones). */
class RawResultsTest {

    private static String record(String iterations) {
        return "{\"schemaVersion\": 1, \"wallMs\": 12.0, \"coldStartMs\": 40.0, \"metrics\": {},"
                + " \"iterations\": {\"warmup\": 1, \"wallMs\": " + iterations + "}}";
    }

    @Test
    void aForkWhoseIterationsStillFallIsNotSteady(@TempDir Path dir) throws Exception {
        Cell cell = TestMatrices.plan(
                        """
                schema: 1
                jdks: [{id: j, vm: hotspot, version: 21, image: x}]
                cpus: [2]
                iterations: {warmup: 1, measure: 6}
                workloads: [{id: sleep-bound, variants: [virtual]}]
                """)
                .get(0);
        Files.write(
                dir.resolve("virtual.records.jsonl"),
                java.util.List.of(
                        record("[40, 20, 18, 16, 14, 13, 12]"), // every measured iteration faster: a trend, p = 2/6!
                        record("[40, 12, 13, 12, 14, 12, 13]"),
                        "{\"schemaVersion\": 1, \"wallMs\": 12.0, \"metrics\": {}}")); // one iteration: nothing to say
        var m = RawResults.measurement(cell, RawResults.read(dir, "virtual", 0), Optional.empty());
        assertThat(m.samples().get(0).facts()).containsEntry("steady", false);
        assertThat(m.samples().get(0).metric("trendP")).contains(2.0 / 720);
        assertThat(m.samples().get(0).metric("coldStartMs")).contains(40.0);
        assertThat(m.samples().get(1).facts()).containsEntry("steady", true);
        assertThat(m.samples().get(2).facts()).doesNotContainKey("steady");
        assertThat(m.samples().get(2).metric("trendP")).isEmpty();
    }
}
