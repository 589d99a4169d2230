package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.core.testing.TestMatrices;
import dev.loommatrix.runner.backend.local.JdkLocator;
import dev.loommatrix.runner.backend.local.LocalBackend;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cell this host skips is not measured, so nothing is said of what ran beside it (issue #32): a user's first
 * quick run printed "skipped — no hotspot JDK 21 on this host …, DISTURBED: measured beside 2.05 CPUs of other
 * work" for a cell that lasted no time, read from one sample of a few milliseconds.
 */
class SkippedCellsTest {

    @Test
    void aSkippedCellCarriesNoInterferenceReadingAndIsNeverCalledDisturbed(@TempDir Path dir) throws Exception {
        List<Cell> cells = TestMatrices.plan(
                """
                schema: 1
                jdks:
                  - {id: gone-21, vm: hotspot, version: 21, javaHome: "%s"}
                cpus: [2]
                workloads:
                  - {id: mass-start, variants: [virtual, platform]}
                  - {id: sleep-bound, variants: [virtual, "pool:200"]}
                  - {id: primes-io, variants: ["pool:cpus", virtual]}
                  - {id: fib-fanout, variants: [sequential, executor]}
                  - {id: pinning, variants: [synchronized, reentrant-lock]}
                  - {id: echo-server, variants: [virtual, "pool:200"]}
                  - {id: http-server, variants: [virtual, "pool:200"]}
                  - {id: ping-pong, variants: [virtual, platform]}
                  - {id: thread-local, variants: [virtual, "pool:cpus"]}
                  - {id: footprint, variants: [virtual, platform]}
                memory: 512m
                """
                        .formatted(dir.resolve("no-such-jdk")));
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        RunDirectory run = new RunDirectory(dir.resolve("run"));
        MatrixRun.Totals totals = new MatrixRun(
                        run,
                        new PrintStream(console, true, StandardCharsets.UTF_8),
                        MatrixRun.BackendChoice.LOCAL,
                        Optional.empty(),
                        new LocalBackend(JdkLocator.forHost()))
                .run(LocalBackendIT.manifest(cells), cells, MatrixRun.Resume.NO);

        assertThat(totals.skipped()).isEqualTo(cells.size());
        for (CellRecord cell : run.readCells()) {
            assertThat(cell.status()).isEqualTo(CellStatus.SKIPPED);
            assertThat(cell.execution().interference())
                    .as("%s: skipped, so not measured", cell.cellId())
                    .isEmpty();
        }
        assertThat(console.toString(StandardCharsets.UTF_8)).doesNotContain("DISTURBED");
    }
}
