package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.runner.backend.ExampleProjects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command, as a new user runs it from the repository's root: {@code ./loom-matrix run --profile
 * quick} (here the CLI jar it runs, in its own process). Issue #49: it exited 3 on a clean machine — the footprint
 * cell called invalid for resident memory that fell while 2,000 virtual threads were started, and the summary said
 * "1 failed". On a healthy machine it ends green: every cell that runs here is ok, the others skipped with why.
 */
class MainJobIT {

    @Test
    void theReadmesFirstCommandEndsGreen(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("run");
        Path log = tmp.resolve("console.log");
        Process run = new ProcessBuilder(
                        RunLifecycleIT.JAVA,
                        "-jar",
                        RunLifecycleIT.JAR.toAbsolutePath().toString(),
                        "run",
                        "--profile",
                        "quick",
                        "--out",
                        out.toString())
                .directory(ExampleProjects.ROOT.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertThat(run.waitFor(15, TimeUnit.MINUTES)).isTrue();
        String console = Files.readString(log);
        assertThat(run.exitValue()).as(console).isZero();
        assertThat(console).containsPattern("(?m)^done: [1-9]\\d* ok, 0 failed, 0 timed out, \\d+ skipped");

        List<CellRecord> cells = new RunDirectory(out).readCells();
        assertThat(cells).allSatisfy(c -> assertThat(c.status())
                .as(c.cellId() + ": " + c.reason().orElse(""))
                .isIn(CellStatus.OK, CellStatus.SKIPPED));
        // a cell skipped in no time is not watched: never "DISTURBED" (12 of them were, on an idle host)
        assertThat(console.lines().filter(l -> l.contains(": skipped")))
                .isNotEmpty()
                .noneMatch(l -> l.contains("DISTURBED"));
        assertThat(cells)
                .filteredOn(c -> c.status() == CellStatus.SKIPPED)
                .allSatisfy(c -> assertThat(c.execution().interference()).isEmpty());
        // the footprint ran and is ok; where RSS fell its line says what it gives instead
        assertThat(cells)
                .filteredOn(c -> c.coordinates().workload().equals("footprint") && c.status() == CellStatus.OK)
                .isNotEmpty();
        assertThat(console).containsPattern("footprint: ok, .*(B heap/thread \\(resident memory fell|B RSS/thread)");
    }
}
