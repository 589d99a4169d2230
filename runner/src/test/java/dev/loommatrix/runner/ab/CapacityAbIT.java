package dev.loommatrix.runner.ab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loommatrix.runner.backend.service.TestService;
import dev.loommatrix.runner.cli.LoomMatrix;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ab} on a capacity cell, end to end (issue #52): capacity is a measurement like the others, so an A/B of two
 * builds of a service compares the capacity each side's search found, higher being better. The baseline build's pool
 * of 4 threads holding each request 40 ms carries 4 ÷ 0.04 = 100 requests/s; the candidate build's pool of 8 (its jar
 * says so, its arguments are the same) carries 200 (Little's law): the candidate's capacity is about twice the baseline's, an improvement, never a regression — and
 * the A/B exits 0. Two block pairs are too few for the signed-rank test to call the change (its smallest p is 2 ÷ 2²),
 * so the verdict may be inconclusive; the ratio is what this test is about.
 */
class CapacityAbIT {

    private static final String MATRIX =
            """
            schema: 1
            jdks:
              - {id: host-25, vm: hotspot, version: 25}
            cpus: [1]
            repetitions: 1
            warmup: 0
            workloads:
              - id: pool
                service: {jar: "%s", args: [pool, "9200", "4", "40"], port: 9200, ready: {tcp: true}}
                load: {path: /, capacity: {objective: {p99: 120ms, errors: 0.1%%}, from: 60, to: 480}, \
            connections: 64, warmup: 1s, duration: 2s, timeout: 2s}
                variants:
                  plain: {jvmArgs: [-Xmx128m]}
            """;

    @Test
    void theCandidatesLargerPoolCarriesAboutTwiceTheBaselinesAndIsNoRegression(@TempDir Path dir) throws Exception {
        // two builds of the service, run with the same arguments: the candidate's carries a pool of 8
        Path before = TestService.jar(Files.createDirectories(dir.resolve("before")));
        Path after = TestService.jar(Files.createDirectories(dir.resolve("after")), 8);
        Path baseline = Files.writeString(dir.resolve("baseline.yaml"), MATRIX.formatted(before));
        Path candidate = Files.writeString(dir.resolve("candidate.yaml"), MATRIX.formatted(after));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = LoomMatrix.mainWithoutExit(
                new String[] {
                    "ab",
                    "--matrix",
                    candidate.toString(),
                    "--baseline-matrix",
                    baseline.toString(),
                    "--backend",
                    "local",
                    "--blocks",
                    "2",
                    "--confirm",
                    "0",
                    "--out",
                    dir.resolve("ab").toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        String said = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(said).isZero();

        JsonNode report = new ObjectMapper()
                .readTree(dir.resolve("ab").resolve("compare.json").toFile());
        JsonNode capacity = null;
        for (JsonNode c : report.get("comparisons")) {
            if (c.get("metric").asText().equals("capacityPerSecond")) {
                capacity = c;
            }
        }
        assertThat(capacity).as(report.toPrettyString()).isNotNull();
        assertThat(capacity.get("higherIsBetter").asBoolean()).isTrue();
        // each search stops within its precision (10 %) below its truth: 100 and 200, so the ratio is 2 within it
        assertThat(capacity.get("baseline").get("median").asDouble()).isBetween(100 / 1.15, 100 * 1.02);
        assertThat(capacity.get("candidate").get("median").asDouble()).isBetween(200 / 1.15, 200 * 1.02);
        assertThat(capacity.get("ratio").asDouble()).isBetween(2 / 1.15, 2 * 1.15);
        assertThat(capacity.get("verdict").asText()).isIn("improvement", "inconclusive");
        // back to back: a capacity search is not measured by iterations, so lockstep does not apply, and why
        assertThat(report.get("ab").get("pairing").elements().next().asText()).startsWith("back to back");
        assertThat(Files.readString(dir.resolve("ab").resolve("compare.md"))).contains("capacity");
    }
}
