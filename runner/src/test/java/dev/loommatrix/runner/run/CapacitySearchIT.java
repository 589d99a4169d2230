package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.result.Sample;
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
 * The capacity search (issue #52) against servers whose capacity is known, end to end through the CLI: a pool of 8
 * threads holding each request 40 ms carries 8 ÷ 0.04 = 200 requests/s (Little's law); a handler spending 6 ms of
 * CPU under a 1-CPU quota carries about 1 ÷ 0.006 = 167 requests/s (a little less: the JVM's own work shares the
 * CPU). The CPU-bound case searches to 20 %: its rates are 120, 240, 180 and 150, and it validates 150, a tenth
 * below the truth; at 10 % it went on to 165, within a few percent of the truth, where a fresh JVM's pass or fail
 * is a coin toss (CI saw 165 pass in the search and its validation miss p99 by 1 ms), which is the outcome
 * "inconclusive" rightly reports but not what this test is about. The search must find each within its stated
 * precision, on a fresh server again, in containers and on the local backend; a server that closes every
 * connection fails the search at its lowest rate, and a rate the generator cannot offer (its CPU, or its connections
 * too few for the rate) is invalid, never a capacity.
 */
class CapacitySearchIT {

    /** 8 threads ÷ 40 ms. */
    private static final double POOL_CAPACITY = 8 / 0.040;

    /** 1 CPU ÷ 6 ms of CPU a request. */
    private static final double CPU_CAPACITY = 1 / 0.006;

    private static final String ENTRY =
            """
              - id: %s
                service: {jar: "%s", args: [%s], port: 9000, ready: {tcp: true}}
                load: {path: /, capacity: {objective: {%s, errors: 0.1%%}, from: %s, to: %s}, \
            connections: 64, warmup: 1s, duration: 2s, timeout: 2s}
                variants:
                  plain: {jvmArgs: [-Xmx128m]}
            """;

    @Test
    void inContainersThePoolsAndTheCpusCapacityAreFoundAndABrokenServerOrGeneratorIsSaidSo(@TempDir Path work)
            throws Exception {
        Path jar = TestService.jar(Files.createDirectories(work.resolve("svc")));
        ContainerRuns.Completed run = ContainerRuns.runAllowingFailures(
                work,
                """
                schema: 1
                jdks:
                  - {id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
                cpus: [1]
                repetitions: 2
                warmup: 0
                memory: 1g
                workloads:
                """
                        + ENTRY.formatted("pool", jar, "pool, \"9000\", \"8\", \"40\"", "p99: 120ms", 120, 960)
                        + ENTRY.formatted("cpu-bound", jar, "cpu, \"9000\", \"6\"", "p99: 250ms", 120, 960)
                                // A fresh JVM's JIT shares the one CPU with the handler, and C2 keeps compiling for
                                // longer than a warmup: the search's server, warm from many windows, then carries
                                // ~10 % more than the validation's fresh one (CI saw 142 and 150/s pass in the search
                                // and fail on the fresh server). C1 alone reaches its steady state within the warmup,
                                // so both servers are the same server; the handler's cost is CPU time, not code.
                                .replace("warmup: 1s", "warmup: 4s")
                                .replace("to: 960}", "to: 960, precision: 20%}")
                                .replace("-Xmx128m", "-Xmx128m, -XX:TieredStopAtLevel=1")
                        + ENTRY.formatted("refuses", jar, "refuse, \"9000\"", "p99: 120ms", 50, 400)
                        // the pool carries 200/s, but 3 connections carry at most 3 ÷ 0.04 = 75/s
                        + ENTRY.formatted(
                                        "few-connections", jar, "pool, \"9000\", \"8\", \"40\"", "p99: 120ms", 25, 200)
                                .replace("connections: 64", "connections: 3")
                        + ENTRY.formatted("too-fast", jar, "ok, \"9000\"", "p99: 60s", 2000000, 4000000));
        Map<String, CellRecord> cells = run.cells().stream()
                .collect(Collectors.toMap(c -> c.coordinates().workload(), Function.identity()));

        Measurement pool = found(cells.get("pool"));
        assertWithinPrecision(pool, POOL_CAPACITY);
        // the pool, not the CPU: sleeping threads use next to none of it
        assertThat(pool.samples()).allSatisfy(s -> assertThat(s.metric("serverCpuShareAtCapacity"))
                .hasValueSatisfying(share -> assertThat(share).isLessThan(0.5)));

        Measurement cpu = found(cells.get("cpu-bound"));
        // "about": the JVM's own work (the HTTP server, the JIT, GC) shares the CPU with the handler
        assertThat(cpu.summary().orElseThrow().median()).isBetween(0.7 * CPU_CAPACITY, 1.05 * CPU_CAPACITY);
        assertThat(cpu.samples()).allSatisfy(s -> assertThat(s.facts().get("capacityLimitedBy"))
                .asString()
                .startsWith("the CPU: the server used"));

        CellRecord refuses = cells.get("refuses");
        assertThat(refuses.status()).isEqualTo(CellStatus.FAILED);
        assertThat(refuses.reason().orElseThrow())
                .contains("the capacity search found none (failed): it did not meet the objective even at the lowest "
                        + "rate searched, rate=50/s: errors 100 % > 0.1 %");
        assertThat(outcomes(refuses)).containsOnly("failed");

        // the generator's connections, not the pool, gave out: never a capacity, and said so
        CellRecord few = cells.get("few-connections");
        assertThat(few.status()).as(few.reason().orElse("")).isEqualTo(CellStatus.INVALID);
        assertThat(outcomes(few)).containsOnly("generator-limited");
        for (Sample s : few.measurements().getFirst().samples()) {
            assertThat(tried(s).getFirst()).containsEntry("rate", 25.0).containsEntry("verdict", "pass");
            assertThat(tried(s).getLast().get("why"))
                    .asString()
                    .startsWith("its 3 connections (the load's connections) were all busy");
            assertThat(s.metric("capacityPerSecond")).isEmpty();
        }

        // 2,000,000 requests/s is beyond the generator or the server here, whichever gives out first: never a
        // capacity; generator-limited (invalid) when the generator's CPU or its 64 connections were the limit, else
        // the server's failure
        CellRecord tooFast = cells.get("too-fast");
        assertThat(tooFast.status()).as(tooFast.reason().orElse("")).isNotEqualTo(CellStatus.OK);
        for (Sample s : tooFast.measurements().getFirst().samples()) {
            String why = (String) tried(s).getFirst().get("why");
            boolean generator = why.contains("CPU were") || why.contains("connections) were all busy");
            assertThat(s.facts().get("capacityOutcome")).as(why).isEqualTo(generator ? "generator-limited" : "failed");
            if (!generator) {
                assertThat(why).contains("the service did not keep up");
            }
        }
        assertThat(tooFast.status())
                .isEqualTo(outcomes(tooFast).contains("generator-limited") ? CellStatus.INVALID : CellStatus.FAILED);
        assertThat(tooFast.measurements().getFirst().samples())
                .allSatisfy(s -> assertThat(s.metric("capacityPerSecond")).isEmpty());
    }

    @Test
    void onTheLocalBackendThePoolsCapacityIsFoundWithinItsPrecision(@TempDir Path work) throws Exception {
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
                """
                        + ENTRY.formatted("pool", jar, "pool, \"9100\", \"8\", \"40\"", "p99: 120ms", 120, 960)
                                .replace("port: 9000", "port: 9100"));
        Path runDir = work.resolve("run");
        int code = dev.loommatrix.runner.cli.LoomMatrix.mainWithoutExit(
                new String[] {"run", "--matrix", matrix.toString(), "--backend", "local", "--out", runDir.toString()},
                System.out,
                System.err);
        CellRecord cell =
                new dev.loommatrix.core.result.RunDirectory(runDir).readCells().getFirst();
        assertThat(code).as(cell.reason().orElse("")).isZero();
        assertWithinPrecision(found(cell), POOL_CAPACITY);
    }

    /** The cell's one measurement, its capacity found and validated in every repetition. */
    private static Measurement found(CellRecord cell) {
        assertThat(cell.status())
                .as(cell.cellId() + ": " + cell.reason().orElse(""))
                .isEqualTo(CellStatus.OK);
        assertThat(cell.environment().orElseThrow().attested()).isTrue();
        Measurement m = cell.measurements().getFirst();
        assertThat(m.metric().name()).isEqualTo("capacityPerSecond");
        assertThat(m.benchmark().orElseThrow().params().get("load")).startsWith("capacity at p99 ≤ ");
        assertThat(m.samples()).hasSize(2);
        assertThat(outcomes(cell)).containsOnly("bracketed");
        for (Sample s : m.samples()) {
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> tried =
                    (List<Map<String, Object>>) s.facts().get("capacityTried");
            // doubling, then bisection, then the validation on a fresh server at the capacity
            assertThat(tried.getFirst()).containsEntry("rate", 120.0);
            assertThat(tried.getLast())
                    .containsEntry("validation", true)
                    .containsEntry("verdict", "pass")
                    .containsEntry("rate", s.metric("capacityPerSecond").orElseThrow());
            assertThat(tried).allSatisfy(t -> assertThat(t).containsKeys("achievedRate", "latencyP99Ms", "errors"));
        }
        return m;
    }

    /**
     * Every repetition brackets the known capacity: it passed at its capacity and failed within the precision
     * above it. Above the truth, the queue grows for the whole window, so a rate a few percent above it breaks a p99
     * of three handler times: the failing rate may sit just above the truth, never below the passing one.
     */
    private static void assertWithinPrecision(Measurement m, double truth) {
        for (Sample s : m.samples()) {
            double capacity = s.metric("capacityPerSecond").orElseThrow();
            double failing = s.metric("capacityFirstFailingPerSecond").orElseThrow();
            assertThat(failing).isLessThanOrEqualTo(capacity * 1.10);
            assertThat(capacity).as("the capacity found").isBetween(truth / 1.10, truth * 1.02);
            assertThat(failing).as("the first failing rate").isGreaterThan(truth * 0.98);
        }
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> tried(Sample s) {
        return (List<Map<String, Object>>) s.facts().get("capacityTried");
    }

    private static List<Object> outcomes(CellRecord cell) {
        return cell.measurements().stream()
                .flatMap(m -> m.samples().stream())
                .map(s -> s.facts().get("capacityOutcome"))
                .toList();
    }
}
