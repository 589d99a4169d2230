package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.runner.backend.container.ContainerBackend;
import dev.loommatrix.runner.cli.LoomMatrix;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A first hour on a host with a Docker engine and no registry (issue #29): a matrix naming a registry image falls
 * back to the host's JDK, and the console says why once — with the fix that applies here, the offline images this
 * engine already has — not once per cell. The registry is one no host can reach ({@code .invalid} is reserved,
 * RFC 2606), so the test holds whether or not this machine reaches Docker Hub.
 */
class NoRegistryIT {

    @Test
    void theFallbackIsExplainedOnceWithTheOfflineImagesThatAreAlreadyThere(@TempDir Path work) throws Exception {
        assertThat(ContainerBackend.connect())
                .as("a Docker engine (.ci/run starts one)")
                .isPresent();
        Path matrix = Files.writeString(
                work.resolve("matrix.yaml"),
                """
                schema: 1
                jdks:
                  - {id: temurin-25, vm: hotspot, version: 25, image: "registry.invalid/eclipse-temurin:25-jdk"}
                cpus: [1, 2]
                repetitions: 1
                warmup: 0
                workloads:
                  - {id: mass-start, variants: [virtual], params: {threads: 100, jmhIterations: 0}}
                """);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = LoomMatrix.mainWithoutExit(
                new String[] {
                    "run",
                    "--matrix",
                    matrix.toString(),
                    "--out",
                    work.resolve("run").toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String console = out.toString(StandardCharsets.UTF_8);
        assertThat(code).as(console).isZero();
        assertThat(console).containsOnlyOnce("is not on this Docker engine and could not be pulled");
        assertThat(console)
                .contains("this engine has offline JDK images (local/debian-openjdk:21, local/debian-openjdk:25)")
                .contains("--profile offline")
                .contains("[local fallback: as above]");
    }
}
