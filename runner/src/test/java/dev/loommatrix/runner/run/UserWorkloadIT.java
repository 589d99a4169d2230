package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.runner.backend.ExampleProjects;
import dev.loommatrix.runner.cli.LoomMatrix;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's own JMH benchmark across the matrix, end to end: the example project (examples/jmh-blocking)
 * built from source here, its uber-jar named in a matrix.yaml like a team would write it, and run by the
 * CLI — in containers on two JDK images × two CPU quotas × two variants, and on the local backend — with
 * every cell attested from inside its JVMs and every score in JMH's unit. Then the check a pull request
 * needs: a deliberately slowed build of the example is flagged by {@code compare}, a rebuild of the same
 * sources is not.
 */
class UserWorkloadIT {

    static Path jar;

    @BeforeAll
    static void buildTheExample() throws Exception {
        jar = ExampleProjects.build(ExampleProjects.BLOCKING);
    }

    /** The example's by-@Param benchmark, small iterations, as a matrix entry pointing at {@code benchmarks}. */
    static String workload(Path benchmarks) {
        return """
                workloads:
                  - id: blocking
                    jmh:
                      jar: "%s"
                      include: ['BlockingServiceBenchmark\\.threadsByParam$']
                      params: {poolSize: [50], requests: [100]}
                      warmupIterations: 1
                      iterations: 3
                      warmupTime: 200ms
                      time: 200ms
                    variants:
                      virtual: {params: {threadType: VIRTUAL}}
                      platform: {params: {threadType: PLATFORM}}
                    baseline: platform
                """
                .formatted(benchmarks);
    }

    @Test
    void acrossTwoJdkImagesTwoQuotasAndTwoVariantsInContainers(@TempDir Path work) throws Exception {
        ContainerRuns.Completed run = ContainerRuns.run(
                work,
                """
                schema: 1
                jdks:
                  - {id: debian-21, vm: hotspot, version: 21, image: "local/debian-openjdk:21"}
                  - {id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
                cpus: [1, 2]
                repetitions: 2
                warmup: 0
                memory: 1g
                """
                        + workload(jar));
        assertThat(run.cells()).hasSize(4);
        for (CellRecord cell : run.cells()) {
            assertThat(cell.status())
                    .as(cell.cellId() + ": " + cell.reason().orElse(""))
                    .isEqualTo(CellStatus.OK);
            var env = cell.environment().orElseThrow();
            assertThat(env.attested()).as(cell.cellId()).isTrue();
            assertThat(env.availableProcessors())
                    .isEqualTo(cell.coordinates().cpus().intValueExact());
            assertThat(env.javaVersion())
                    .startsWith(String.valueOf(cell.coordinates().version()));
            assertThat(cell.measurements()).hasSize(2).allSatisfy(m -> {
                assertThat(m.error()).isEmpty();
                assertThat(m.metric().name()).isEqualTo("score");
                assertThat(m.metric().unit()).isEqualTo("ms/op");
                assertThat(m.benchmark().orElseThrow().name())
                        .isEqualTo("example.blocking.BlockingServiceBenchmark.threadsByParam");
                assertThat(m.samples()).hasSize(2).allSatisfy(s -> assertThat(s.metrics())
                        .containsKeys("score", "processMs", "cpuMs"));
            });
            // 100 requests × 4 calls of 10 ms: a virtual thread each vs a pool of 50 — virtual wins clearly
            assertThat(cell.speedups()).singleElement().satisfies(s -> {
                assertThat(s.over()).isEqualTo("virtual");
                assertThat(s.variant()).isEqualTo("platform");
                assertThat(s.ratio()).isGreaterThan(2);
            });
            // the user's jar entered the cell in its own image layer, under the same lock-down
            JsonNode docker = Json.MAPPER.readTree(run.runDir()
                    .resolve("raw")
                    .resolve(cell.cellId())
                    .resolve("docker-run.json")
                    .toFile());
            List<String> args = Json.MAPPER.convertValue(docker, List.class);
            assertThat(args).contains("--read-only", "--cap-drop", "ALL", "--user", "10001:10001");
            assertThat(args.get(args.indexOf("--network") + 1)).isEqualTo("none");
            assertThat(args.stream().filter(a -> a.startsWith("loom-matrix/cell:user-")))
                    .hasSize(1);
        }
        // schema-valid: the readers (compare, publish) accept the run as written
        assertThat(new RunDirectory(run.runDir()).readCells()).hasSize(4);
    }

    @Test
    void onTheLocalBackend(@TempDir Path work) throws Exception {
        RunDirectory run = runLocal(work, jar, 2, "[1]");
        CellRecord cell = run.readCells().get(0);
        assertThat(cell.status()).as(cell.reason().orElse("")).isEqualTo(CellStatus.OK);
        assertThat(cell.execution().backend()).isEqualTo("local");
        assertThat(cell.environment().orElseThrow().attested()).isTrue();
        assertThat(cell.environment().get().availableProcessors()).isEqualTo(1);
        assertThat(cell.measurements()).extracting(m -> m.metric().unit()).containsExactly("ms/op", "ms/op");
    }

    /**
     * The example's load test as a program: timed as a process by hyperfine, its own numbers read from the
     * Bencher Metric Format file it writes to $LOOM_METRICS_FILE, judged by the first declared metric.
     */
    @Test
    void aProgramReportsItsOwnNumbers(@TempDir Path work) throws Exception {
        Path matrix = work.resolve("matrix.yaml");
        Files.writeString(
                matrix,
                """
                schema: 1
                jdks:
                  - {id: host, vm: hotspot, version: %d, javaHome: "%s"}
                cpus: [2]
                repetitions: 3
                warmup: 1
                workloads:
                  - id: load-test
                    program:
                      classpath: ["%s"]
                      mainClass: example.blocking.LoadTest
                      args: ["10", "100"]
                      metrics:
                        roundMs: {unit: ms, direction: lower}
                        requestsPerSecond: {unit: req/s, direction: higher}
                    variants:
                      virtual: {properties: {blocking.threads: virtual}}
                      platform: {env: {JAVA_TOOL_OPTIONS: "-Dblocking.threads=platform"}}
                    baseline: platform
                """
                        .formatted(Runtime.version().feature(), System.getProperty("java.home"), jar));
        Path out = work.resolve("run");
        int code = LoomMatrix.mainWithoutExit(
                new String[] {"run", "--matrix", matrix.toString(), "--backend", "local", "--out", out.toString()},
                System.out,
                System.err);
        assertThat(code).isZero();
        CellRecord cell = new RunDirectory(out).readCells().get(0);
        assertThat(cell.status()).as(cell.reason().orElse("")).isEqualTo(CellStatus.OK);
        assertThat(cell.environment().orElseThrow().attested()).isTrue();
        assertThat(cell.measurements()).hasSize(2).allSatisfy(m -> {
            assertThat(m.metric().name()).isEqualTo("roundMs");
            assertThat(m.metric().unit()).isEqualTo("ms");
            assertThat(m.benchmark().orElseThrow().name()).isEqualTo("handle-100-requests");
            assertThat(m.benchmark().get().units()).containsEntry("requestsPerSecond", "req/s");
            assertThat(m.samples()).hasSize(3).allSatisfy(x -> {
                assertThat(x.metrics()).containsKeys("roundMs", "requestsPerSecond", "processMs");
                // its 10 measured rounds (after its own 5 warmup rounds), one fork of them: the A/B's iterations
                assertThat(x.facts().get("iterations"))
                        .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
                        .singleElement()
                        .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
                        .hasSize(10);
            });
        });
        // what it wrote, rounds included, is Bencher Metric Format by Bencher's own schema
        var bmfSchema = com.networknt.schema.JsonSchemaFactory.getInstance(
                        com.networknt.schema.SpecVersion.VersionFlag.V7)
                .getSchema(Files.readString(Path.of("../core/src/test/resources/fixtures/bmf/bmf.schema.json")));
        Path records = out.resolve("raw").resolve(cell.cellId()).resolve("virtual.records.jsonl");
        for (String line : Files.readAllLines(records)) {
            JsonNode collected = Json.MAPPER.readTree(line).path("collected");
            assertThat(collected
                            .path("handle-100-requests")
                            .path("roundMs")
                            .path("iterations")
                            .size())
                    .isEqualTo(10);
            assertThat(bmfSchema.validate(collected)).isEmpty();
        }
        // 100 requests × 4 blocking calls of 10 ms: a virtual thread each (~10 ms) vs 50 pool threads (~80 ms)
        assertThat(cell.speedups()).singleElement().satisfies(s -> {
            assertThat(s.metric()).isEqualTo("roundMs");
            assertThat(s.ratio()).isGreaterThan(2);
        });
    }

    @Test
    void compareFlagsASlowedBuildAndNotAnUnchangedRebuild(@TempDir Path work) throws Exception {
        // the same sources built again, and a build whose blocking calls take 15 ms instead of 10
        Path same = ExampleProjects.build(ExampleProjects.copy(work.resolve("same")));
        Path slowSources = ExampleProjects.copy(work.resolve("slow"));
        Path benchmark = slowSources.resolve("src/main/java/example/blocking/BlockingServiceBenchmark.java");
        String source = Files.readString(benchmark);
        assertThat(source).contains("Duration.ofMillis(10)");
        Files.writeString(benchmark, source.replace("Duration.ofMillis(10)", "Duration.ofMillis(15)"));
        Path slow = ExampleProjects.build(slowSources);

        Path baseline = runLocal(work.resolve("baseline"), jar, 5, "[2]").root();
        Path rebuilt = runLocal(work.resolve("rebuilt"), same, 5, "[2]").root();
        Path slowed = runLocal(work.resolve("slowed"), slow, 5, "[2]").root();

        Compared unchanged = compare(baseline, rebuilt);
        assertThat(unchanged.exit()).as(unchanged.report().toString()).isZero();
        assertThat(unchanged.report().path("regressions").asInt()).isZero();
        assertThat(unchanged.report().path("comparisons")).hasSize(2);

        Compared regressed = compare(baseline, slowed);
        assertThat(regressed.exit()).as(regressed.report().toString()).isEqualTo(4);
        assertThat(regressed.report().path("regressions").asInt()).isEqualTo(2);
        for (JsonNode c : regressed.report().path("comparisons")) {
            assertThat(c.path("verdict").asText()).isEqualTo("regression");
            assertThat(c.path("benchmark").asText())
                    .isEqualTo("example.blocking.BlockingServiceBenchmark.threadsByParam(poolSize=50, requests=100)");
            assertThat(c.path("ratio").asDouble()).isGreaterThan(1.2);
        }
    }

    /**
     * Issue #32: a failed cell's reason leads with what went wrong — a JMH suite that rejects a {@code @Param} value
     * (the example's setup throws on an unknown thread kind), and a program that throws (an argument that is not a
     * number) — not with the last three stack frames the JVM printed.
     */
    @Test
    void aFailedCellsReasonLeadsWithTheException(@TempDir Path work) throws Exception {
        Path matrix = work.resolve("matrix.yaml");
        Files.writeString(
                matrix,
                """
                schema: 1
                jdks:
                  - {id: host, vm: hotspot, version: %d, javaHome: "%s"}
                cpus: [2]
                repetitions: 1
                warmup: 0
                workloads:
                  - id: blocking
                    jmh:
                      jar: "%s"
                      include: ['BlockingServiceBenchmark\\.threadsByParam$']
                      params: {poolSize: [50], requests: [100]}
                      warmupIterations: 0
                      iterations: 1
                      time: 100ms
                    variants:
                      virtual: {params: {threadType: VIRTUL}}
                  - id: load-test
                    program:
                      classpath: ["%s"]
                      mainClass: example.blocking.LoadTest
                      args: ["ten"]
                      metrics:
                        roundMs: {unit: ms, direction: lower}
                    variants:
                      virtual: {properties: {blocking.threads: virtual}}
                """
                        .formatted(Runtime.version().feature(), System.getProperty("java.home"), jar, jar));
        Path out = work.resolve("run");
        int code = LoomMatrix.mainWithoutExit(
                new String[] {"run", "--matrix", matrix.toString(), "--backend", "local", "--out", out.toString()},
                System.out,
                System.err);
        assertThat(code).isEqualTo(3);
        var cells = new RunDirectory(out).readCells();
        CellRecord jmh = cells.stream()
                .filter(c -> c.coordinates().workload().equals("blocking"))
                .findFirst()
                .orElseThrow();
        assertThat(jmh.status()).isEqualTo(CellStatus.FAILED);
        assertThat(jmh.reason().orElseThrow())
                .contains("the JVM said: java.lang.IllegalArgumentException: threads must be virtual or platform,"
                        + " got VIRTUL / at example.blocking.BlockingService.executor(");
        CellRecord program = cells.stream()
                .filter(c -> c.coordinates().workload().equals("load-test"))
                .findFirst()
                .orElseThrow();
        assertThat(program.status()).isEqualTo(CellStatus.FAILED);
        assertThat(program.reason().orElseThrow())
                .contains("the JVM said: java.lang.NumberFormatException: For input string: \"ten\" / at ");
    }

    /** One cell on this host's JDK (the one running the tests). */
    /** A run on the local backend of {@code entry} on this JDK; its exit code, run directory and console. */
    record Ran(int code, RunDirectory run, String out) {}

    static Ran runLocalEntry(Path work, String entry) throws Exception {
        return runLocalEntry(work, entry, 1, "[2]");
    }

    /** {@code entries} (a workloads list) on this JDK on the local backend, {@code repetitions} fresh JVMs a variant. */
    static Ran runLocalEntry(Path work, String entries, int repetitions, String cpus) throws Exception {
        Files.createDirectories(work);
        Path matrix = Files.writeString(
                work.resolve("matrix.yaml"),
                """
                schema: 1
                jdks:
                  - {id: host, vm: hotspot, version: %d, javaHome: "%s"}
                cpus: %s
                repetitions: %d
                warmup: 0
                memory: 1g
                workloads:
                """
                                .formatted(
                                        Runtime.version().feature(), System.getProperty("java.home"), cpus, repetitions)
                        + entries);
        Path out = work.resolve("run");
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        int code = LoomMatrix.mainWithoutExit(
                new String[] {"run", "--matrix", matrix.toString(), "--backend", "local", "--out", out.toString()},
                new PrintStream(console, true, StandardCharsets.UTF_8),
                new PrintStream(console, true, StandardCharsets.UTF_8));
        return new Ran(code, new RunDirectory(out), console.toString(StandardCharsets.UTF_8));
    }

    /**
     * Issue #49: {@code include: ['.*']}, as init wrote it, measures the team's benchmarks and none of loom-matrix's
     * own. The harness jar as the agent put its BenchmarkList on the class path, and JMH read it beside the team's
     * (JMH's own listing shows it); the agent jar users' JVMs get carries none.
     */
    @Test
    void includeEverythingMeasuresTheTeamsBenchmarksOnly(@TempDir Path work) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path harness = work.resolve("harness.jar");
        try (var in = UserWorkloadIT.class.getResourceAsStream("/dev/loommatrix/runner/backend/harness.jar")) {
            Files.copy(in, harness);
        }
        assertThat(jmhList(java, harness, work)).anyMatch(b -> b.startsWith("dev.loommatrix.harness."));
        Path agent = Files.write(
                work.resolve("agent.jar"), dev.loommatrix.runner.backend.AgentJar.from(Files.readAllBytes(harness)));
        assertThat(jmhList(java, agent, work))
                .containsExactly(
                        "example.blocking.BlockingServiceBenchmark.threadsByConfiguration",
                        "example.blocking.BlockingServiceBenchmark.threadsByParam");

        Ran ran = runLocalEntry(
                work.resolve("all"),
                """
                  - id: everything
                    jmh:
                      jar: "%s"
                      include: ['.*']
                      params: {poolSize: [50], requests: [20], threadType: [VIRTUAL]}
                      warmupIterations: 0
                      iterations: 1
                      time: 100ms
                    variants:
                      virtual: {properties: {blocking.threads: virtual}}
                      platform: {properties: {blocking.threads: platform}}
                    baseline: platform
                """
                        .formatted(jar));
        assertThat(ran.code()).as(ran.out()).isZero();
        CellRecord cell = ran.run().readCells().get(0);
        assertThat(cell.measurements())
                .extracting(m -> m.variant() + " " + m.benchmark().orElseThrow().name())
                .containsExactlyInAnyOrder(
                        "virtual example.blocking.BlockingServiceBenchmark.threadsByConfiguration",
                        "virtual example.blocking.BlockingServiceBenchmark.threadsByParam",
                        "platform example.blocking.BlockingServiceBenchmark.threadsByConfiguration",
                        "platform example.blocking.BlockingServiceBenchmark.threadsByParam");
        // the property is read while threadsByConfiguration runs, never while threadsByParam does: that benchmark
        // ran alike in both variants, and its check says so (the cell is not attested; its line names the check)
        var env = cell.environment().orElseThrow();
        assertThat(env.attested()).isFalse();
        assertThat(env.attestation())
                .filteredOn(c -> !c.ok())
                .extracting(c -> c.setting())
                .containsExactlyInAnyOrder(
                        "variant virtual: system property blocking.threads, for"
                                + " example.blocking.BlockingServiceBenchmark.threadsByParam",
                        "variant platform: system property blocking.threads, for"
                                + " example.blocking.BlockingServiceBenchmark.threadsByParam");
        assertThat(ran.out())
                .contains("NOT attested (variant ")
                .contains("never while example.blocking.BlockingServiceBenchmark.threadsByParam ran");
    }

    private static List<String> jmhList(String java, Path agent, Path work) throws Exception {
        Process list = new ProcessBuilder(
                        java, "-javaagent:" + agent + "=" + work.resolve("list.jsonl"), "-jar", jar.toString(), "-l")
                .redirectErrorStream(true)
                .start();
        String out = new String(list.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(list.waitFor()).as(out).isZero();
        return out.lines()
                .filter(l -> l.contains(".") && !l.startsWith("Benchmarks:"))
                .toList();
    }

    /**
     * Issue #49: variants that set a property the code never reads (init's old starter: {@code threads}, where the
     * example reads {@code blocking.threads}) measured the same code twice and reported "virtual" beside "platform"
     * with exit 0. The agent now sees nothing read it: the check fails in the cell's attestation, the variant changed
     * nothing, and the cell is invalid (exit 3) with the reason; the property the code does read passes the check.
     */
    @Test
    void aVariantWhosePropertyNothingReadsIsInvalidAndOneThatIsReadIsAttested(@TempDir Path work) throws Exception {
        String entry =
                """
                  - id: by-configuration
                    jmh:
                      jar: "%s"
                      include: ['threadsByConfiguration$']
                      params: {poolSize: [50], requests: [20]}
                      warmupIterations: 0
                      iterations: 1
                      time: 100ms
                    variants:
                      virtual: {properties: {PROPERTY: virtual}}
                      platform: {properties: {PROPERTY: platform}}
                    baseline: platform
                """;
        Ran unread = runLocalEntry(work.resolve("unread"), entry.formatted(jar).replace("PROPERTY", "threads"));
        assertThat(unread.code()).as(unread.out()).isEqualTo(3);
        CellRecord invalid = unread.run().readCells().get(0);
        assertThat(invalid.status()).isEqualTo(CellStatus.INVALID);
        assertThat(invalid.reason().orElseThrow())
                .contains("virtual: invalid: changed nothing: its only difference from the baseline platform is the"
                        + " system property threads=virtual, which nothing in its JVM read");
        var env = invalid.environment().orElseThrow();
        assertThat(env.attested()).isFalse();
        assertThat(env.attestation())
                .filteredOn(c -> c.setting().equals("variant virtual: system property threads"))
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.ok()).isFalse();
                    assertThat(c.observed()).isEqualTo("read by nothing in its JVM");
                });
        assertThat(unread.out()).contains("invalid").contains("changed nothing");

        Ran read = runLocalEntry(work.resolve("read"), entry.formatted(jar).replace("PROPERTY", "blocking.threads"));
        assertThat(read.code()).as(read.out()).isZero();
        CellRecord ok = read.run().readCells().get(0);
        assertThat(ok.status()).isEqualTo(CellStatus.OK);
        assertThat(ok.environment().orElseThrow().attested()).isTrue();
        assertThat(ok.environment().get().attestation())
                .filteredOn(c -> c.setting().startsWith("variant "))
                .extracting(c -> c.setting() + ": " + c.observed())
                .containsExactlyInAnyOrder(
                        "variant virtual: system property blocking.threads: read",
                        "variant platform: system property blocking.threads: read");
    }

    static RunDirectory runLocal(Path work, Path benchmarks, int repetitions, String cpus) throws Exception {
        Ran ran = runLocalEntry(work, workload(benchmarks).replaceFirst("^workloads:\n", ""), repetitions, cpus);
        assertThat(ran.code()).as("run exit code; console: %s", ran.out()).isZero();
        return ran.run();
    }

    record Compared(int exit, JsonNode report) {}

    static Compared compare(Path baseline, Path candidate) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = LoomMatrix.mainWithoutExit(
                new String[] {
                    "compare",
                    "--baseline",
                    baseline.toString(),
                    "--candidate",
                    candidate.toString(),
                    "--format",
                    "json"
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        return new Compared(code, Json.MAPPER.readTree(out.toString(StandardCharsets.UTF_8)));
    }
}
