package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.result.Sample;
import dev.loommatrix.runner.backend.ExampleProjects;
import dev.loommatrix.runner.backend.service.TestService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Services under load in containers (issue #28), end to end through the CLI on the real engine: the Spring Boot
 * example built from source with Maven, run on both JDK images with virtual threads and a Tomcat pool under
 * oha's closed model; and services that misbehave — one that never becomes ready, one that dies under load, and
 * a rate the generator cannot produce here — each failing or invalidating its own cell while the others run.
 */
class ServiceCellsIT {

    @Test
    void theSpringExampleOnBothJdkImagesReachesItsLittlesLawBounds(@TempDir Path work) throws Exception {
        Path jar = ExampleProjects.build(ExampleProjects.SPRING, "spring-service.jar");
        ContainerRuns.Completed run = ContainerRuns.run(
                work,
                """
                schema: 1
                jdks:
                  - {id: debian-21, vm: hotspot, version: 21, image: "local/debian-openjdk:21"}
                  - {id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
                cpus: [1]
                repetitions: 2
                warmup: 0
                memory: 1g
                workloads:
                  - id: slow-endpoint
                    service:
                      jar: "%s"
                      args: [--server.port=8080, --app.downstream-ms=300]
                      port: 8080
                      ready: {http: /health, status: 200}
                    load: {path: /work, users: 100, warmup: 3s, duration: 12s}
                    variants:
                      virtual: {properties: {spring.threads.virtual.enabled: "true"}}
                      tomcat-20: {properties: {server.tomcat.threads.max: "20"}}
                    baseline: tomcat-20
                """
                        .formatted(jar));
        assertThat(run.cells()).hasSize(2);
        for (CellRecord cell : run.cells()) {
            assertThat(cell.status())
                    .as(cell.cellId() + ": " + cell.reason().orElse(""))
                    .isEqualTo(CellStatus.OK);
            assertThat(cell.environment().orElseThrow().attested())
                    .as(cell.cellId())
                    .isTrue();
            assertThat(cell.environment().orElseThrow().availableProcessors()).isEqualTo(1);
            Map<String, Measurement> byVariant =
                    cell.measurements().stream().collect(Collectors.toMap(Measurement::variant, Function.identity()));
            Measurement pool = byVariant.get("tomcat-20");
            Measurement virtual = byVariant.get("virtual");
            for (Measurement m : List.of(pool, virtual)) {
                assertThat(m.error()).as(m.variant()).isEmpty();
                assertThat(m.metric().name()).isEqualTo("throughputPerSecond");
                assertThat(m.samples()).hasSize(2).allSatisfy(s -> {
                    assertThat(s.metrics())
                            .containsKeys(
                                    "latencyP50Ms",
                                    "latencyP99Ms",
                                    "latencyP999Ms",
                                    "latencyMaxMs",
                                    "errors",
                                    "generatorCpuSeconds",
                                    "cpuMs",
                                    "peakRssBytes");
                    assertThat(s.metric("errors")).contains(0.0);
                    // the host has 2 CPUs: the server on CPU 0, oha alone on CPU 1
                    assertThat(s.metric("generatorCpus")).contains(1.0);
                });
            }
            // Little's law: 20 threads each holding a request for 0.3 s serve at most 66.7 requests a second (the
            // 12 s window is 40 whole rounds of 20, so the bound can be reached; 8 s would cap it at 97.5 %)
            double bound = 20 / 0.3;
            assertThat(pool.summary().orElseThrow().median()).as(cell.cellId()).isBetween(0.9 * bound, bound * 1.01);
            // virtual threads take all 100 users at once: 333/s at most, far above the pool
            assertThat(virtual.summary().orElseThrow().median())
                    .as(cell.cellId())
                    .isGreaterThan(2 * pool.summary().orElseThrow().median())
                    .isLessThan(100 / 0.3 * 1.01);
        }
    }

    @Test
    void aServiceThatMisbehavesFailsOrInvalidatesItsOwnCellAndTheOthersRun(@TempDir Path work) throws Exception {
        Path jar = TestService.jar(Files.createDirectories(work.resolve("svc")));
        String entry =
                """
                  - id: %s
                    service:
                      jar: "%s"
                      args: [%s, "9000"%s]
                      port: 9000
                      ready: {http: /, status: 200}
                      startTimeout: %s
                    load: {%s, %s, warmup: 0s, duration: 4s}
                    variants:
                      plain: {jvmArgs: [-Xmx128m]}
                """;
        // the fine one's requests are a file in oha's own format, naming a host of the team's: the file reaches
        // the generator's container with the cell's image, and --connect-to sends its URLs to the server
        Path urls = Files.writeString(
                work.resolve("svc/fine.urls"), "http://orders.internal:9000/a\nhttp://orders.internal:9000/b?c=1\n");
        ContainerRuns.Completed run = ContainerRuns.runAllowingFailures(
                work,
                """
                schema: 1
                jdks:
                  - {id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
                cpus: [1]
                repetitions: 1
                warmup: 0
                memory: 1g
                workloads:
                """
                        + entry.formatted("never-ready", jar, "never-ready", "", "15s", "path: /", "users: 4")
                        + entry.formatted("dies", jar, "die-after", ", \"200\"", "60s", "path: /", "users: 4")
                        + entry.formatted("too-fast", jar, "ok", "", "60s", "path: /", "rate: 2000000, connections: 16")
                        + entry.formatted("fine", jar, "ok", "", "60s", "urlsFile: \"" + urls + "\"", "users: 4"));
        assertThat(run.exitCode()).isEqualTo(3);
        Map<String, CellRecord> cells = run.cells().stream()
                .collect(Collectors.toMap(c -> c.coordinates().workload(), Function.identity()));
        assertThat(cells.get("never-ready").status()).isEqualTo(CellStatus.FAILED);
        assertThat(cells.get("never-ready").reason().orElseThrow())
                .contains("the service was not ready within 15 s (ready when GET / answers 200; last: no answer")
                // the service's own last words, from the cell log
                .contains("the JVM said: TestService: waiting for a database that never answers");
        assertThat(cells.get("dies").status()).isEqualTo(CellStatus.FAILED);
        assertThat(cells.get("dies").reason().orElseThrow())
                .containsPattern("the service died during the load \\(exit code 3\\); the generator counted \\d+ "
                        + "errors \\(connect \\d+\\); the JVM said: TestService: die-after on port 9000");
        assertThat(cells.get("too-fast").status()).isEqualTo(CellStatus.INVALID);
        assertThat(cells.get("too-fast").reason().orElseThrow())
                .containsPattern("invalid: (the load generator was saturated at rate=2000000/s|at rate=2000000/s "
                        + "the generator sent)");
        assertThat(cells.get("too-fast").measurements()).singleElement().satisfies(m -> {
            assertThat(m.error()).isPresent();
            assertThat(m.samples()).singleElement().extracting(Sample::metrics).satisfies(s -> assertThat(s)
                    .containsKeys("askedRate", "achievedRate", "generatorCpuSeconds"));
        });
        assertThat(cells.get("fine").status())
                .as(cells.get("fine").reason().orElse(""))
                .isEqualTo(CellStatus.OK);
        assertThat(cells.get("fine")
                        .measurements()
                        .get(0)
                        .summary()
                        .orElseThrow()
                        .median())
                .isGreaterThan(100);
        assertThat(cells.get("fine").measurements().get(0).benchmarkLabel()).startsWith("GET fine.urls (2 URLs)");
    }

    @Test
    void onTheLocalBackendTheServerAndOhaArePinnedApartAndNothingIsLeftRunning(@TempDir Path work) throws Exception {
        Path jar = TestService.jar(Files.createDirectories(work.resolve("svc")));
        Path matrix = Files.writeString(
                work.resolve("matrix.yaml"),
                """
                schema: 1
                jdks:
                  - {id: host-25, vm: hotspot, version: 25}
                cpus: [1]
                repetitions: 2
                warmup: 0
                workloads:
                  - id: local-service
                    service: {jar: "%s", args: [ok, "9100"], port: 9100, ready: {tcp: true}}
                    load: {path: /, rate: [200, 400], connections: 8, warmup: 1s, duration: 2s}
                    variants:
                      small-heap: {jvmArgs: [-Xmx64m]}
                      large-heap: {jvmArgs: [-Xmx256m]}
                    baseline: small-heap
                """
                        .formatted(jar));
        Path runDir = work.resolve("run");
        int code = dev.loommatrix.runner.cli.LoomMatrix.mainWithoutExit(
                new String[] {"run", "--matrix", matrix.toString(), "--backend", "local", "--out", runDir.toString()},
                System.out,
                System.err);
        assertThat(code).isZero();
        CellRecord cell =
                new dev.loommatrix.core.result.RunDirectory(runDir).readCells().get(0);
        assertThat(cell.status()).as(cell.reason().orElse("")).isEqualTo(CellStatus.OK);
        assertThat(cell.environment().orElseThrow().attested()).isTrue();
        // two rates, a curve: one measurement per variant and rate, judged by its p99, every rate kept
        assertThat(cell.measurements()).hasSize(4).allSatisfy(m -> {
            assertThat(m.metric().name()).isEqualTo("latencyP99Ms");
            assertThat(m.samples()).hasSize(2).allSatisfy(sample -> {
                double asked = sample.metric("askedRate").orElseThrow();
                assertThat(sample.metric("achievedRate").orElseThrow()).isGreaterThan(asked * 0.95);
                assertThat(sample.metric("generatorCpus")).contains(1.0);
            });
        });
        assertThat(cell.measurements().stream()
                        .map(m -> m.benchmark().orElseThrow().params().get("load")))
                .containsOnly("rate=200/s", "rate=400/s");
        // every server JVM was stopped with its repetition
        assertThat(ProcessHandle.allProcesses()
                        .filter(p -> p.info().commandLine().orElse("").contains(jar.toString())))
                .isEmpty();
    }

    @Test
    void theBuiltInSpringBootWorkloadRunsSeed002sThreeWaysOfServing(@TempDir Path work) throws Exception {
        ContainerRuns.Completed run = ContainerRuns.run(
                work,
                """
                schema: 1
                jdks:
                  - {id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
                cpus: [1]
                repetitions: 1
                warmup: 0
                memory: 1g
                workloads:
                  - id: spring-boot
                    variants: [virtual, "tomcat:20", webflux]
                    params: {users: 100, durationS: 12, warmupS: 3, sleepMs: 300}
                """);
        CellRecord cell = run.cells().get(0);
        assertThat(cell.status()).as(cell.reason().orElse("")).isEqualTo(CellStatus.OK);
        assertThat(cell.environment().orElseThrow().attested()).isTrue();
        Map<String, Double> throughput = cell.measurements().stream()
                .collect(Collectors.toMap(
                        Measurement::variant, m -> m.summary().orElseThrow().median()));
        // Tomcat's 20 threads: Little's law, 20 / 0.3 s; virtual threads and WebFlux take all 100 users
        assertThat(throughput.get("tomcat:20")).isBetween(0.9 * 20 / 0.3, 1.01 * 20 / 0.3);
        assertThat(throughput.get("virtual")).isGreaterThan(3 * throughput.get("tomcat:20"));
        assertThat(throughput.get("webflux")).isGreaterThan(3 * throughput.get("tomcat:20"));
        // the catalogue's headline: virtual threads over the fastest other way of serving
        assertThat(cell.contrast().orElseThrow().subject()).isEqualTo("virtual");
        assertThat(cell.speedups()).extracting(s -> s.variant()).containsExactlyInAnyOrder("tomcat:20", "webflux");
        // the percentiles are an HdrHistogram's of every answered request, fetched from the generator's container
        // (oha's request database), and the histogram itself is in the sample: its count is the answers
        for (Measurement m : cell.measurements()) {
            Map<String, Number> sample = m.samples().get(0).metrics();
            org.HdrHistogram.Histogram histogram = org.HdrHistogram.Histogram.decodeFromCompressedByteBuffer(
                    java.nio.ByteBuffer.wrap(java.util.Base64.getDecoder()
                            .decode((String) m.samples().get(0).facts().get("latencyHistogram"))),
                    0);
            assertThat(histogram.getTotalCount())
                    .isEqualTo(sample.get("answered").longValue());
            assertThat(histogram.getValueAtPercentile(99) / 1000.0)
                    .isCloseTo(sample.get("latencyP99Ms").doubleValue(), org.assertj.core.data.Offset.offset(0.01));
        }
    }
}
