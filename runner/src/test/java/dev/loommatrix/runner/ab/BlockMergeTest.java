package dev.loommatrix.runner.ab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.Planner;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.Interference;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.testing.SyntheticRuns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A side's record of a cell from its blocks' records (what compare pairs): the samples block after block with their
 * numbers, the first trouble named by its block, the blocks' times summed, the most disturbed block said.
 */
class BlockMergeTest {

    @Test
    void theSamplesFollowEachOtherWithTheirBlocksAndTheFirstTroubleNamesItsBlock(@TempDir Path dir) throws Exception {
        Cell cell = sleepBound(dir);
        SortedMap<Integer, CellRecord> blocks = new TreeMap<>();
        blocks.put(0, block(cell, CellStatus.OK, Optional.empty(), 100, "t0", "t1", 1_000, Optional.of(0.1)));
        blocks.put(2, block(cell, CellStatus.FAILED, Optional.of("exit 1"), 110, "t4", "t5", 2_000, Optional.of(0.5)));

        BlockMerge.Merged merged = BlockMerge.merge(cell, blocks, 3).orElseThrow();

        CellRecord record = merged.record();
        assertThat(merged.ok()).isFalse();
        assertThat(record.cellId()).isEqualTo(cell.id());
        assertThat(record.status()).isEqualTo(CellStatus.FAILED);
        assertThat(record.reason()).contains("block 2: exit 1");
        Measurement m = record.measurements().get(0);
        assertThat(m.values("wallMs")).containsExactly(100.0, 110.0);
        assertThat(m.blocks()).contains(List.of(0, 2));
        CellRecord.Execution execution = record.execution();
        assertThat(execution.driver()).isEqualTo("test; A/B: 2 blocks of one repetition per variant");
        assertThat(execution.startedAt()).isEqualTo("t0");
        assertThat(execution.finishedAt()).isEqualTo("t5");
        assertThat(execution.durationMs()).isEqualTo(3_000);
        // the block with the most other work speaks for the side, named
        Interference it = execution.interference().orElseThrow();
        assertThat(it.otherCpusMean()).isEqualTo(0.5);
        assertThat(it.source()).isEqualTo("block 2 of 2: sampler");
        assertThat(it.disturbed()).contains("block 2 of 2: 0.50 CPUs of other work");
    }

    @Test
    void aSideIsOkOnlyWithEveryBlockThereAndNoneFailed(@TempDir Path dir) throws Exception {
        Cell cell = sleepBound(dir);
        SortedMap<Integer, CellRecord> all = new TreeMap<>();
        for (int k = 0; k < 3; k++) {
            all.put(k, block(cell, CellStatus.OK, Optional.empty(), 100 + k, "t" + k, "u" + k, 10, Optional.empty()));
        }
        BlockMerge.Merged merged = BlockMerge.merge(cell, all, 3).orElseThrow();
        assertThat(merged.ok()).isTrue();
        assertThat(merged.record().status()).isEqualTo(CellStatus.OK);
        assertThat(merged.record().reason()).isEmpty();
        assertThat(merged.record().execution().interference()).isEmpty();

        // a block without a record (stopped, or never written): not ok, though nothing failed
        all.remove(1);
        assertThat(BlockMerge.merge(cell, all, 3).orElseThrow().ok()).isFalse();
        // no block at all: nothing to write
        assertThat(BlockMerge.merge(cell, new TreeMap<>(), 3)).isEmpty();
    }

    /** A cell this host cannot run is skipped in every block alike: its reason as it is, and it fails no check. */
    @Test
    void aSkippedCellKeepsItsReasonAndIsNotFailed(@TempDir Path dir) throws Exception {
        Cell cell = sleepBound(dir);
        SortedMap<Integer, CellRecord> skipped = new TreeMap<>();
        for (int k = 0; k < 2; k++) {
            skipped.put(
                    k,
                    block(
                            cell,
                            CellStatus.SKIPPED,
                            Optional.of("no JDK 21 on this host"),
                            1,
                            "t",
                            "t",
                            0,
                            Optional.empty()));
        }
        BlockMerge.Merged merged = BlockMerge.merge(cell, skipped, 2).orElseThrow();
        assertThat(merged.record().status()).isEqualTo(CellStatus.SKIPPED);
        assertThat(merged.record().reason()).contains("no JDK 21 on this host");
        assertThat(merged.ok()).isTrue();
    }

    private static Cell sleepBound(Path dir) throws Exception {
        Path file = Files.writeString(
                dir.resolve("m.yaml"),
                """
                schema: 1
                jdks: [{id: t25, vm: hotspot, version: 25, image: "eclipse-temurin:25-jdk"}]
                cpus: [2]
                workloads:
                  - {id: sleep-bound, variants: [virtual], params: {tasks: 100, sleepMs: 5}}
                repetitions: 1
                warmup: 0
                """);
        return Planner.plan(MatrixParser.parse(file, Optional.empty())).get(0);
    }

    /** One block's record: one sample of wallMs, its times, and the other work beside it (if it was watched). */
    private static CellRecord block(
            Cell cell,
            CellStatus status,
            Optional<String> reason,
            double wallMs,
            String started,
            String finished,
            long durationMs,
            Optional<Double> otherCpus) {
        Measurement m = SyntheticRuns.cell("sleep-bound", "t25", "virtual", "wallMs", new double[] {wallMs})
                .measurements()
                .get(0);
        Optional<Interference> interference = otherCpus.map(cpus -> new Interference(
                "sampler",
                500,
                cpus,
                cpus,
                Interference.THRESHOLD_CPUS,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                List.of(),
                List.of(),
                cpus >= Interference.THRESHOLD_CPUS
                        ? Optional.of(String.format(java.util.Locale.ROOT, "%.2f CPUs of other work", cpus))
                        : Optional.empty()));
        return CellRecord.of(
                cell.id(),
                cell.coordinates(),
                status,
                reason,
                Optional.empty(),
                Optional.of(SyntheticRuns.ENVIRONMENT),
                List.of(m),
                new CellRecord.Execution(
                        "container",
                        "test",
                        started,
                        finished,
                        durationMs,
                        List.of("virtual"),
                        Optional.empty(),
                        Optional.empty(),
                        List.of(),
                        List.of(),
                        interference));
    }
}
