package dev.loommatrix.core.result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.loommatrix.core.testing.SyntheticRuns;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Shards merged into one run: what the merged manifest says, what is copied, and every conflict refused at once. */
class RunMergerTest {

    static final CellRecord A = SyntheticRuns.cell("sleep-bound", "t21", "virtual", "wallMs", new double[] {1, 2, 3});
    static final CellRecord B = SyntheticRuns.cell("fib-fanout", "t21", "virtual", "wallMs", new double[] {4, 5, 6});
    static final CellRecord A_OTHER =
            SyntheticRuns.cell("sleep-bound", "t21", "virtual", "wallMs", new double[] {7, 8, 9});

    static RunManifest manifest(String runId, String startedAt, String commit, String shard, List<String> cells) {
        return new RunManifest(
                1,
                runId,
                startedAt,
                Optional.of("2026-11-23T02:00:00Z"),
                RunStatus.FINISHED,
                "manual",
                new RunManifest.Git(commit, "main", false),
                RunManifest.Host.of("Linux", "6", "cpu", 2, 1L << 30),
                new RunManifest.MatrixInfo("matrix.yaml", Optional.empty(), "00", Optional.of(shard)),
                cells);
    }

    static Path shard(Path dir, RunManifest manifest, CellRecord... cells) throws Exception {
        RunDirectory run = new RunDirectory(dir);
        run.writeManifest(manifest);
        for (CellRecord cell : cells) {
            run.writeCell(cell);
            Files.createDirectories(run.rawDir(cell.cellId()));
            Files.writeString(run.rawDir(cell.cellId()).resolve("out.txt"), dir.getFileName() + " " + cell.cellId());
        }
        return dir;
    }

    @Test
    void shardsMergeIntoOneRunWithEachCellOnceAndMergingAgainWritesTheSameBytes(@TempDir Path tmp) throws Exception {
        List<String> plan = List.of(A.cellId(), B.cellId());
        Path one = shard(tmp.resolve("one"), manifest("r1", "2026-11-23T00:00:00Z", "abc", "1/2", plan), A);
        // the same cell with the same results in two shards is fine: it is merged once, from the first
        Path two = shard(tmp.resolve("two"), manifest("r1", "2026-11-23T00:00:01Z", "abc", "2/2", plan), B, A);
        Path out = tmp.resolve("out");

        RunManifest merged = RunMerger.merge(List.of(one, two), out);

        assertThat(merged.runId()).isEqualTo("r1");
        assertThat(merged.startedAt()).isEqualTo("2026-11-23T00:00:00Z");
        assertThat(merged.status()).isEqualTo(RunStatus.FINISHED);
        assertThat(merged.cells()).containsExactly(A.cellId(), B.cellId());
        assertThat(merged.shards()).extracting(RunManifest.Shard::shard).containsExactly("1/2", "2/2");
        RunDirectory run = new RunDirectory(out);
        assertThat(run.readManifest()).isEqualTo(merged);
        assertThat(run.cellFile(A.cellId())).hasSameTextualContentAs(new RunDirectory(one).cellFile(A.cellId()));
        assertThat(run.rawDir(A.cellId()).resolve("out.txt")).hasContent("one " + A.cellId());
        assertThat(run.rawDir(B.cellId()).resolve("out.txt")).hasContent("two " + B.cellId());

        String manifestBytes = Files.readString(run.manifestFile());
        RunMerger.merge(List.of(one, two), out);
        assertThat(run.manifestFile()).hasContent(manifestBytes);
    }

    @Test
    void aCellThatDiffersACommitThatDiffersAndACellAlreadyMergedAreRefusedTogetherAndNothingIsWritten(@TempDir Path tmp)
            throws Exception {
        List<String> plan = List.of(A.cellId(), B.cellId());
        Path one = shard(tmp.resolve("one"), manifest("r1", "2026-11-23T00:00:00Z", "abc", "1/2", plan), A);
        Path two = shard(tmp.resolve("two"), manifest("r2", "2026-11-23T00:00:01Z", "def", "2/2", plan), A_OTHER, B);
        Path out = tmp.resolve("out");
        new RunDirectory(out)
                .writeCell(SyntheticRuns.cell("fib-fanout", "t21", "virtual", "wallMs", new double[] {9, 9, 9}));
        String before = Files.readString(new RunDirectory(out).cellFile(B.cellId()));

        RunMerger.Conflict conflict =
                catchThrowableOfType(RunMerger.Conflict.class, () -> RunMerger.merge(List.of(one, two), out));

        assertThat(conflict)
                .hasMessage("conflicting results, nothing merged: " + A.cellId() + " (in " + one + " and " + two
                        + "); shards ran different commits: abc and def; " + B.cellId() + " (already in " + out
                        + " with other results)");
        assertThat(new RunDirectory(out).cellFile(B.cellId())).hasContent(before);
        assertThat(new RunDirectory(out).manifestFile()).doesNotExist();
        assertThat(new RunDirectory(out).cellFile(A.cellId())).doesNotExist();
    }
}
