package dev.loommatrix.runner.prune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.result.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which run directories {@code prune} takes for abandoned: unfinished, not live, and untouched for the age. */
class AbandonedRunsTest {

    private static final Instant WRITTEN = Instant.parse("2026-11-01T00:00:00Z");
    private static final Duration WEEK = Duration.ofDays(7);

    /** A run directory with its run.json and a cell's raw output of 1,000 bytes, all last written at WRITTEN. */
    private static Path run(Path results, String runId, RunStatus status) throws Exception {
        Path dir = results.resolve(runId);
        new RunDirectory(dir)
                .writeManifest(new RunManifest(
                        1,
                        runId,
                        WRITTEN.toString(),
                        Optional.empty(),
                        status,
                        "manual",
                        new RunManifest.Git("abc", "main", false),
                        RunManifest.Host.of("Linux", "6", "cpu", 2, 1L << 30),
                        new RunManifest.MatrixInfo("matrix.yaml", Optional.empty(), "0", Optional.empty()),
                        List.of()));
        Files.createDirectories(dir.resolve("raw/cell"));
        Files.write(dir.resolve("raw/cell/out.txt"), new byte[1000]);
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.toList()) {
                Files.setLastModifiedTime(p, FileTime.from(WRITTEN));
            }
        }
        return dir;
    }

    @Test
    void onlyUnfinishedRunsNobodyHoldsAndNobodyTouchedForTheAgeAreAbandoned(@TempDir Path results) throws Exception {
        Path killed = run(results, "killed", RunStatus.RUNNING);
        Path stopped = run(results, "stopped", RunStatus.INTERRUPTED);
        run(results, "finished", RunStatus.FINISHED);
        run(results, "live", RunStatus.RUNNING);
        Files.createDirectories(results.resolve("not-a-run"));
        Files.setLastModifiedTime(results.resolve("not-a-run"), FileTime.from(WRITTEN));

        List<AbandonedRuns.Abandoned> found =
                AbandonedRuns.find(results, WEEK, Set.of("live"), WRITTEN.plus(Duration.ofDays(8)));

        assertThat(found).extracting(AbandonedRuns.Abandoned::dir).containsExactly(killed, stopped);
        assertThat(found)
                .extracting(AbandonedRuns.Abandoned::status)
                .containsExactly(RunStatus.RUNNING, RunStatus.INTERRUPTED);
        assertThat(found).allSatisfy(a -> assertThat(a.lastWritten()).isEqualTo(WRITTEN));
        long runJson = Files.size(killed.resolve("run.json"));
        assertThat(found.get(0).bytes()).isEqualTo(1000 + runJson);
    }

    @Test
    void aRunTouchedWithinTheAgeIsNotAbandonedYet(@TempDir Path results) throws Exception {
        run(results, "killed", RunStatus.RUNNING);
        assertThat(AbandonedRuns.find(results, WEEK, Set.of(), WRITTEN.plus(Duration.ofDays(6))))
                .isEmpty();
        // a cell's record written later dates the run: it is not abandoned a week after it started
        Files.setLastModifiedTime(
                results.resolve("killed/raw/cell/out.txt"), FileTime.from(WRITTEN.plus(Duration.ofDays(5))));
        assertThat(AbandonedRuns.find(results, WEEK, Set.of(), WRITTEN.plus(Duration.ofDays(8))))
                .isEmpty();
    }

    @Test
    void removingARunDeletesItsWholeDirectory(@TempDir Path results) throws Exception {
        Path killed = run(results, "killed", RunStatus.RUNNING);
        AbandonedRuns.remove(AbandonedRuns.find(results, WEEK, Set.of(), WRITTEN.plus(Duration.ofDays(8)))
                .get(0));
        assertThat(killed).doesNotExist();
        assertThat(results).isDirectory();
    }
}
