package dev.loommatrix.runner.records;

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

    /**
     * Issue #49 (was #32's invalid): footprint's samples as the quick profile recorded them, two of three below zero.
     * Resident memory that fell while the threads were started is no failure of the cell — the README's first command
     * exited 3 for it — but no RSS footprint either: the variant stays ok, its samples kept as measured, and its
     * console line gives the heap per thread and why RSS is not one (CellRecorderTest).
     */
    @Test
    void aFootprintBelowZeroIsKeptAndSaidNotAFailure(@TempDir Path dir) throws Exception {
        Cell cell = TestMatrices.plan(
                        """
                schema: 1
                jdks: [{id: j, vm: hotspot, version: 25, image: x}]
                cpus: [2]
                repetitions: 3
                workloads: [{id: footprint, variants: [virtual], params: {threads: 10000}}]
                """)
                .get(0);
        java.util.function.LongFunction<String> rec = rss -> "{\"schemaVersion\": 1, \"wallMs\": 30.0, \"metrics\":"
                + " {\"threadsParked\": 10000, \"heapBytesPerThread\": 1100.0, \"rssBytes\": " + rss
                + ", \"rssBytesPerThread\": " + rss / 10000.0 + "}}";
        Files.write(
                dir.resolve("virtual.records.jsonl"),
                java.util.List.of(rec.apply(-3_830_000), rec.apply(2_100_000), rec.apply(-1_048_576)));
        var m = RawResults.measurement(cell, RawResults.read(dir, "virtual", 0), Optional.empty());
        assertThat(m.error()).isEmpty();
        assertThat(m.samples()).hasSize(3); // kept as measured
        Files.write(
                dir.resolve("virtual.records.jsonl"),
                java.util.List.of(rec.apply(3_830_000), rec.apply(2_100_000), rec.apply(1_048_576)));
        assertThat(RawResults.measurement(cell, RawResults.read(dir, "virtual", 0), Optional.empty())
                        .error())
                .isEmpty();
    }

    /**
     * The second reader of the offline run's report: http-server's summary said a median of 1,000 for both variants
     * (its window, in ms) while its forks served 1,842-1,855 req/s. The summary is of the metric the cell is judged by.
     */
    @Test
    void aThroughputCellIsSummarisedOnItsThroughputNotItsWindow(@TempDir Path dir) throws Exception {
        Cell cell = TestMatrices.plan(
                        """
                schema: 1
                jdks: [{id: j, vm: hotspot, version: 25, image: x}]
                cpus: [2]
                repetitions: 3
                workloads: [{id: http-server, variants: [virtual]}]
                """)
                .get(0);
        java.util.function.IntFunction<String> rec = served -> "{\"schemaVersion\": 1, \"wallMs\": 1000.0,"
                + " \"metrics\": {\"throughputPerSecond\": " + served + "}}";
        Files.write(
                dir.resolve("virtual.records.jsonl"),
                java.util.List.of(rec.apply(1842), rec.apply(1855), rec.apply(1847)));
        var m = RawResults.measurement(cell, RawResults.read(dir, "virtual", 0), Optional.empty());
        assertThat(m.metric().name()).isEqualTo("throughputPerSecond");
        assertThat(m.summary().orElseThrow().median()).isEqualTo(1847.0);
        assertThat(m.summary().orElseThrow().n()).isEqualTo(3);
    }

    /** The records file as both readers take it: blank lines left out, warmups first, a bad line named by its place. */
    @Test
    void warmupLinesAreSkippedAndABadLineIsNamedByItsPlace(@TempDir Path dir) throws Exception {
        Files.write(
                dir.resolve("pool-8.records.jsonl"),
                java.util.List.of(
                        "{\"schemaVersion\": 1, \"wallMs\": 99.0}", // the warmup run
                        "",
                        "{\"schemaVersion\": 1, \"wallMs\": 12.0}",
                        "{\"schemaVersion\": 2, \"wallMs\": 11.0}",
                        "{\"schemaVersion\": 1, \"wallMs\": 10.0}"));
        var data = RawResults.read(dir, "pool:8", 1);
        assertThat(data.records()).extracting(RawResults.HarnessRecord::wallMs).containsExactly(12.0);
        assertThat(data.problem())
                .hasValue("raw/pool-8.records.jsonl:4: harness record schema 2, this runner reads 1 (the cell's image"
                        + " carries another harness than this runner's)");
        assertThat(RawResults.read(dir, "virtual", 0).records()).isEmpty();
    }
}
