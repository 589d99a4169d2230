package dev.loommatrix.runner.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.testing.TestMatrices;
import dev.loommatrix.runner.records.RawResults;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The packaged harness on this host's JDK, asked for iterations, and what the runner reads back. */
class HarnessIterationsIT {

    /**
     * iterations reach the harness (the real jar, on this host's JDK) and come back in the sample: the fork's
     * median as wallMs, the first iteration as coldStartMs, every iteration in order.
     */
    @Test
    @SuppressWarnings("unchecked")
    void iterationsComeBackAsTheColdStartAndEveryIteration(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        Cell cell = TestMatrices.plan(
                        """
                schema: 1
                jdks: [{id: j, vm: hotspot, version: 21, image: x}]
                cpus: [2]
                memory: 1g
                iterations: {warmup: 1, measure: 3}
                workloads: [{id: sleep-bound, variants: [virtual], params: {tasks: 20, sleepMs: 5}}]
                """)
                .get(0);
        java.nio.file.Path jar = java.nio.file.Files.write(dir.resolve("harness.jar"), BuiltIn.resource("harness.jar"));
        List<String> command = HarnessCommand.command(
                java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java")
                        .toString(),
                jar.toString(),
                cell,
                "virtual",
                dir.resolve("virtual.records.jsonl").toString(),
                List.of());
        assertThat(command).containsSubsequence("--iterations", "1:3");
        Process process = new ProcessBuilder(command).inheritIO().start();
        assertThat(process.waitFor(3, java.util.concurrent.TimeUnit.MINUTES))
                .as("the harness ends")
                .isTrue();
        assertThat(process.exitValue()).isZero();
        var measurement = RawResults.measurement(cell, RawResults.read(dir, "virtual", 0), java.util.Optional.empty());
        var sample = measurement.samples().get(0);
        List<Number> wall = (List<Number>) sample.facts().get("iterationsWallMs");
        assertThat(wall).hasSize(4);
        assertThat(sample.metric("coldStartMs")).contains(wall.get(0).doubleValue());
        double[] measured = wall.subList(1, 4).stream()
                .mapToDouble(Number::doubleValue)
                .sorted()
                .toArray();
        assertThat(sample.metric("wallMs")).contains(measured[1]);
    }
}
