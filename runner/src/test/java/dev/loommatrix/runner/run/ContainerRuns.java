package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.runner.backend.container.ContainerBackend;
import dev.loommatrix.runner.cli.LoomMatrix;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Runs a matrix through the CLI on the real Docker engine, as a user would, for integration tests. */
final class ContainerRuns {

    record Completed(Path runDir, List<CellRecord> cells, int exitCode) {}

    private ContainerRuns() {}

    /** Writes {@code yaml} to WORK/matrix.yaml, runs it with the docker backend into WORK/run, expects exit 0. */
    static Completed run(Path work, String yaml, String... extraArgs) throws IOException {
        Completed completed = runAllowingFailures(work, yaml, extraArgs);
        assertThat(completed.exitCode()).as("run exit code").isZero();
        return completed;
    }

    /** As {@link #run}, but a run whose cells failed (exit 3) is an outcome to inspect, not an error. */
    static Completed runAllowingFailures(Path work, String yaml, String... extraArgs) throws IOException {
        if (ContainerBackend.connect().isEmpty()) {
            fail("no Docker engine answers; start dockerd (.ci/run does) — integration tests never skip");
        }
        Path matrix = work.resolve("matrix.yaml");
        Files.writeString(matrix, yaml);
        Path runDir = work.resolve("run");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> args = new java.util.ArrayList<>(
                List.of("run", "--matrix", matrix.toString(), "--backend", "docker", "--out", runDir.toString()));
        args.addAll(List.of(extraArgs));
        int code = LoomMatrix.mainWithoutExit(
                args.toArray(String[]::new), System.out, new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(code).as("run exit code; stderr: %s", err).isIn(0, 3);
        return new Completed(runDir, new RunDirectory(runDir).readCells(), code);
    }
}
