package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.testing.TestMatrices;
import dev.loommatrix.runner.backend.Execution;
import dev.loommatrix.runner.records.Attestation;
import dev.loommatrix.runner.records.CellAssembler;
import dev.loommatrix.runner.records.CellOutcome;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The cell file format, sealed by golden files built from real harness records and hyperfine exports
 * (captured from container runs on local/debian-openjdk images). Any change to the JSON shows as a
 * diff here; regenerate with {@code -Dgolden.update=true} and review the diff.
 */
class CellRecordGoldenTest {

    static final Path FIXTURES = Path.of("src/test/resources/fixtures/raw");
    static final Path GOLDEN = Path.of("src/test/resources/golden");
    static final Instant START = Instant.parse("2026-11-21T22:36:48Z");
    static final Instant END = Instant.parse("2026-11-21T22:36:55Z");

    static Cell cell(String jdk, int version, String workload, String variants, String params) throws Exception {
        return TestMatrices.plan(
                        """
                schema: 1
                jdks: [{id: %s, vm: hotspot, version: %d, image: "local/debian-openjdk:%d"}]
                cpus: [1]
                workloads: [{id: %s, variants: %s, params: %s}]
                repetitions: 3
                warmup: 1
                memory: 1g
                pids: 20000
                """
                                .formatted(jdk, version, version, workload, variants, params))
                .get(0);
    }

    static CellRecord record(Cell cell, String fixture, List<String> order) {
        return record(cell, fixture, order, 1);
    }

    static CellRecord record(Cell cell, String fixture, List<String> order, int cpus) {
        Attestation.Expectation expected = new Attestation.Expectation(
                cpus,
                "hotspot derives processors from the quota " + cpus + " rounded up, at most the host's 2",
                Optional.of(BigDecimal.valueOf(cpus)),
                Optional.of(1L << 30),
                Optional.of(20_000L));
        CellOutcome outcome = CellAssembler.assemble(
                cell,
                FIXTURES.resolve(fixture),
                order,
                Map.of(),
                expected,
                Optional.of(cell.jdk().image().orElseThrow()),
                Optional.of("sha256:fixture"),
                new CellAssembler.Ending.Completed());
        return MatrixRun.toRecord(
                cell,
                new Execution(outcome, "container", "hyperfine (in container)", order, Optional.empty()),
                START,
                END);
    }

    @Test
    void sleepBoundCell() throws Exception {
        Cell cell = cell("debian-21", 21, "sleep-bound", "[virtual, \"pool:100\"]", "{tasks: 1000, sleepMs: 50}");
        CellRecord record = record(cell, "container-hotspot21-cpus1-sleep-bound", List.of("virtual", "pool:100"));
        assertThat(record.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
        assertThat(record.environment()).get().satisfies(env -> {
            assertThat(env.attested()).isTrue();
            assertThat(env.availableProcessors()).isEqualTo(1);
        });
        assertThat(record.measurements()).hasSize(2).allSatisfy(m -> assertThat(m.samples())
                .hasSize(3)); // warmup dropped
        assertGolden("cell-sleep-bound.json", record);
    }

    /**
     * Issue #18: forks × iterations. Captured from a real container cell (2 warmup + 5 measured iterations in each
     * of 3 forks): each sample's wallMs is its fork's steady state, the cold start is summarized apart and has
     * its own speedup, and every iteration is kept.
     */
    @Test
    void iteratedSleepBoundCell() throws Exception {
        Cell cell = TestMatrices.plan(
                        """
                        schema: 1
                        jdks: [{id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}]
                        cpus: [1]
                        workloads:
                          - {id: sleep-bound, variants: [virtual, "pool:100"], params: {tasks: 1000, sleepMs: 50}}
                        repetitions: 3
                        warmup: 0
                        iterations: {warmup: 2, measure: 5}
                        memory: 1g
                        pids: 20000
                        """)
                .get(0);
        CellRecord record =
                record(cell, "container-hotspot25-cpus1-sleep-bound-iterated", List.of("virtual", "pool:100"));
        assertThat(record.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
        assertThat(record.measurements()).allSatisfy(m -> {
            assertThat(m.iterations()).hasValue(new dev.loommatrix.core.matrix.Iterations(2, 5));
            assertThat(m.basis()).isEqualTo("3 forks × 5 iterations (+2 warmup)");
            // the cold start is each fork's first iteration, well above its steady state here
            assertThat(m.coldStart().orElseThrow().median())
                    .isGreaterThan(m.summary().orElseThrow().median());
            assertThat(m.samples()).allSatisfy(s -> assertThat(s.facts()).containsKey("iterationsWallMs"));
        });
        assertThat(record.speedups()).extracting(s -> s.metric()).containsExactly("wallMs", "coldStartMs");
        assertGolden("cell-sleep-bound-iterated.json", record);
    }

    /**
     * Issue #19: the seed's JDK 21 vs 24+ story, from two real container cells (2 CPUs, 16 virtual threads each
     * sleeping 50 ms while holding a lock, 3 forks × 1+3 iterations): on JDK 21 synchronized pins both carriers
     * and is far slower than reentrant-lock — the headline contrast's interval lies wholly below 1 — while on
     * JDK 25 (JEP 491) the two are alike.
     */
    @Test
    void pinningCellsOnJdk21And25() throws Exception {
        for (int version : new int[] {21, 25}) {
            Cell cell = TestMatrices.plan(
                            """
                            schema: 1
                            jdks: [{id: debian-%d, vm: hotspot, version: %d, image: "local/debian-openjdk:%d"}]
                            cpus: [2]
                            workloads:
                              - {id: pinning, variants: [synchronized, reentrant-lock, object-wait, class-init], params: {tasks: 16, sleepMs: 50}}
                            repetitions: 3
                            warmup: 0
                            iterations: {warmup: 1, measure: 3}
                            memory: 1g
                            pids: 20000
                            """
                                    .formatted(version, version, version))
                    .get(0);
            CellRecord record = record(
                    cell,
                    "container-hotspot" + version + "-cpus2-pinning",
                    List.of("synchronized", "reentrant-lock", "object-wait", "class-init"),
                    2);
            assertThat(record.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
            assertThat(record.baseline()).hasValue("reentrant-lock");
            var contrast = record.contrast().orElseThrow();
            assertThat(contrast.subject()).isEqualTo("synchronized");
            assertThat(contrast.reference()).hasValue("reentrant-lock");
            var penalty = record.speedups().stream()
                    .filter(s -> s.over().equals("synchronized") && s.metric().equals("wallMs"))
                    .findFirst()
                    .orElseThrow();
            var pinned = record.measurement("synchronized").orElseThrow().medianOf("pinnedEvents");
            if (version == 21) {
                assertThat(penalty.ci95().get(1)).isLessThan(0.5); // synchronized at least 2× slower
                assertThat(pinned).hasValueSatisfying(n -> assertThat(n).isPositive());
            } else {
                assertThat(penalty.ci95().get(0)).isLessThan(1.1);
                assertThat(penalty.ci95().get(1)).isGreaterThan(0.9);
                assertThat(pinned.orElse(0.0)).isZero();
            }
            assertGolden("cell-pinning-" + version + ".json", record);
        }
    }

    /**
     * Issue #19: records a real run wrote before contrasts existed get their workload's headline when read, as
     * publish reads them — seed 002 at its scale (container, 3 forks × 2+5) against its fastest pool, pool:1000
     * (3.1 s; pool:200 takes 15 s), and http-server's throughput against its Little's-law bound (quick profile).
     */
    @Test
    void recordsOfARealRunReadWithTheirHeadline() throws Exception {
        Path records = Path.of("src/test/resources/fixtures/records");
        CellRecord sleep = readRecord(records.resolve("sleep-bound-seed-scale.json"));
        var contrast = sleep.contrast().orElseThrow();
        assertThat(contrast.subject()).isEqualTo("virtual");
        assertThat(contrast.reference()).hasValue("pool:1000");
        assertThat(contrast.fastestOther()).isTrue();
        assertGolden("cell-sleep-bound-seed-scale.json", sleep);

        CellRecord http = readRecord(records.resolve("http-server-quick.json"));
        assertThat(http.contrast().orElseThrow().kind()).isEqualTo(dev.loommatrix.core.matrix.Contrast.Kind.EFFICIENCY);
        assertThat(http.contrast().orElseThrow().reference()).isEmpty();
        assertGolden("cell-http-server.json", http);

        CellRecord fib = readRecord(records.resolve("fib-fanout-quick.json"));
        assertThat(fib.baseline()).hasValue("sequential");
        assertThat(fib.contrast().orElseThrow().subject()).isEqualTo("caller-virtual");
        assertGolden("cell-fib-fanout.json", fib);
    }

    /**
     * Issue #20: two real container cells of the pinning workload with profiling on (JDK 21 and 25, 2 CPUs, 16
     * virtual threads sleeping 50 ms under a lock, 3 forks × 1+3 iterations, then one JFR run per variant): on JDK
     * 21 synchronized pinned 64 times (16 tasks × 4 iterations) at Pinning.sleep, 3.2 s in all; on JDK 25 never.
     */
    @Test
    void profiledCellsOfARealRun() throws Exception {
        Path records = Path.of("src/test/resources/fixtures/records");
        for (int version : new int[] {21, 25}) {
            CellRecord cell = readRecord(records.resolve("pinning-" + version + "-profiled.json"));
            var sync = cell.profiles().stream()
                    .filter(p -> p.variant().equals("synchronized"))
                    .findFirst()
                    .orElseThrow()
                    .jfr()
                    .orElseThrow();
            if (version == 21) {
                assertThat(sync.pinnedEvents()).isEqualTo(64);
                assertThat(sync.pinnedFrames().get(0).frame()).startsWith("Pinning.sleep");
            } else {
                assertThat(sync.pinnedEvents()).isZero();
            }
            assertGolden("cell-pinning-" + version + "-profiled.json", cell);
        }
        // fib-fanout with flame graphs too (JDK 25, 2 forks): async-profiler sampled CPU with its timer (no perf
        // events in the locked-down container), and fib is most of it; the pages are in fixtures/records
        CellRecord fib = readRecord(records.resolve("fib-fanout-flame.json"));
        var flame = fib.profiles().get(0).flame().orElseThrow();
        assertThat(flame.engine()).isEqualTo("ctimer");
        assertThat(flame.cpuFrames().get(0).frame()).startsWith("FibFanout.fibonacci");
        for (var p : fib.profiles()) {
            for (String page : List.of(
                    p.flame().orElseThrow().cpu(), p.flame().orElseThrow().wall())) {
                assertThat(records.resolve("fib-fanout-flame").resolve(page)).isRegularFile();
            }
        }
        assertGolden("cell-fib-fanout-flame.json", fib);
    }

    static CellRecord readRecord(Path file) throws Exception {
        return dev.loommatrix.core.result.ResultsFormat.readCell(file, Json.MAPPER.readTree(file.toFile()));
    }

    @Test
    void massStartCell() throws Exception {
        Cell cell = cell("debian-25", 25, "mass-start", "[virtual, platform]", "{threads: 10000}");
        CellRecord record = record(cell, "container-hotspot25-cpus1-mass-start", List.of("platform", "virtual"));
        assertThat(record.measurements())
                .extracting(m -> m.lowerBoundMs().isPresent())
                .containsOnly(false);
        assertGolden("cell-mass-start.json", record);
    }

    @Test
    void aMissingVariantMakesTheCellFailedButKeepsTheOthers() throws Exception {
        Cell cell = cell(
                "debian-21", 21, "sleep-bound", "[virtual, \"pool:100\", \"pool:7\"]", "{tasks: 1000, sleepMs: 50}");
        CellRecord record =
                record(cell, "container-hotspot21-cpus1-sleep-bound", List.of("virtual", "pool:100", "pool:7"));
        assertThat(record.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.FAILED);
        assertThat(record.reason()).hasValue("variant(s) failed: pool:7");
        assertThat(record.measurements()).extracting(m -> m.variant()).containsExactly("virtual", "pool:100");
    }

    /**
     * A user's JMH benchmark (examples/jmh-blocking, variants by its own @Param) in a container cell: the
     * agent's records with JMH's results collected, one measurement per benchmark, the score in JMH's unit,
     * the speedup over the entry's baseline.
     */
    @Test
    void userJmhCell(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path jar = dev.loommatrix.core.testing.JmhJars.blockingExample(dir);
        Cell cell = TestMatrices.plan(
                        """
                        schema: 1
                        jdks: [{id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}]
                        cpus: [1]
                        workloads:
                          - id: blocking-by-param
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
                        repetitions: 3
                        warmup: 0
                        memory: 1g
                        pids: 20000
                        """
                                .formatted(jar))
                .get(0);
        CellRecord record = record(cell, "container-hotspot25-cpus1-jmh-blocking", List.of("platform", "virtual"));
        assertThat(record.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
        assertThat(record.environment()).get().satisfies(env -> assertThat(env.attested())
                .isTrue());
        assertThat(record.baseline()).hasValue("platform");
        assertThat(record.measurements()).hasSize(2).allSatisfy(m -> {
            assertThat(m.metric().unit()).isEqualTo("ms/op");
            assertThat(m.samples()).hasSize(3);
            assertThat(m.benchmark()).isPresent();
        });
        assertThat(record.speedups()).singleElement().satisfies(s -> {
            assertThat(s.over()).isEqualTo("virtual");
            assertThat(s.variant()).isEqualTo("platform");
            assertThat(s.ratio()).isGreaterThan(3); // 50 pool threads vs a virtual thread per 10 ms call
        });
        assertGolden("cell-jmh-blocking.json", record);
        // and it reads back as the results schema says, byte for byte
        String json = Files.readString(GOLDEN.resolve("cell-jmh-blocking.json"));
        assertThat(Json.MAPPER.writeValueAsString(Json.MAPPER.readValue(json, CellRecord.class)) + "\n")
                .isEqualTo(json);
    }

    @Test
    void roundTripsThroughJson() throws Exception {
        String json = Files.readString(GOLDEN.resolve("cell-sleep-bound.json"));
        CellRecord read = Json.MAPPER.readValue(json, CellRecord.class);
        assertThat(Json.MAPPER.writeValueAsString(read) + "\n").isEqualTo(json);
    }

    static void assertGolden(String name, Object value) throws Exception {
        dev.loommatrix.core.testing.Golden.assertJson(GOLDEN.resolve(name), value);
    }
}
