package dev.loommatrix.runner.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.stats.MetricDescriptor;
import dev.loommatrix.core.testing.JmhJars;
import dev.loommatrix.core.testing.TestMatrices;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading a user workload's raw output, on records the attestation agent wrote around real JMH 1.37 runs
 * of the example project (fixtures/user): with JMH forks, and with forks that could not start.
 */
class UserResultsTest {

    @TempDir
    Path dir;

    Cell cell(int repetitions, int warmup) throws Exception {
        Path jar = JmhJars.blockingExample(dir);
        return TestMatrices.plan(
                        """
                        schema: 1
                        jdks: [{id: t25, vm: hotspot, version: 25, image: "eclipse-temurin:25-jdk"}]
                        cpus: [2]
                        workloads:
                          - id: blocking
                            jmh: {jar: "%s", include: threadsByParam, forks: 1}
                            variants:
                              virtual: {params: {threadType: VIRTUAL}}
                              platform: {params: {threadType: PLATFORM}}
                            baseline: platform
                        repetitions: %d
                        warmup: %d
                        """
                                .formatted(jar, repetitions, warmup))
                .get(0);
    }

    static Path fixture(String name) {
        return Path.of("src/test/resources/fixtures/user", name);
    }

    @Test
    void aForkedRunIsItsHostAndForksAndTheForksAreWhatRanTheBenchmark() throws Exception {
        Path raw = fixture("jmh-forks");
        UserResults.VariantRuns all = UserResults.read(raw, "virtual", 0);
        assertThat(all.runs()).hasSize(2);
        assertThat(all.runs()).allSatisfy(run -> {
            assertThat(run.forks()).hasSize(1);
            assertThat(run.forks().get(0).command()).startsWith(UserResults.JMH_FORK_MAIN);
            assertThat(run.host().collected()).isPresent();
        });
        assertThat(UserResults.environments(java.util.List.of(all)))
                .as("every JVM is attested, forks too")
                .hasSize(4);

        UserResults.VariantRuns measured = UserResults.read(raw, "virtual", 1);
        assertThat(measured.runs())
                .as("the warmup run is dropped whole, fork and host")
                .hasSize(1);

        UserResults.Result result = UserResults.measurements(cell(2, 0), all, Optional.empty());
        assertThat(result.problem()).isEmpty();
        Measurement m = result.measurements().get(0);
        assertThat(m.benchmark().orElseThrow().name())
                .isEqualTo("example.blocking.BlockingServiceBenchmark.threadsByParam");
        assertThat(m.benchmark().get().mode()).contains("avgt");
        assertThat(m.benchmark().get().variantParams()).containsEntry("threadType", "VIRTUAL");
        assertThat(m.benchmark().get().params()).containsEntry("poolSize", "50").doesNotContainKey("threadType");
        assertThat(m.benchmark().get().units())
                .as("-prof gc's secondary metrics keep their units")
                .containsEntry("gc.alloc.rate.norm", "B/op");
        assertThat(m.metric())
                .isEqualTo(new MetricDescriptor("score", "ms/op", MetricDescriptor.Direction.LOWER_IS_BETTER));
        assertThat(m.samples()).hasSize(2);
        assertThat(m.samples().get(0).metrics()).containsKeys("score", "gc.alloc.rate.norm", "cpuMs", "forks");
        assertThat(m.samples().get(0).metric("forks")).contains(1.0);
        assertThat(m.summary().orElseThrow().median())
                .isBetween(10.0, 15.0); // 100 requests × 4 calls of 10 ms on virtual threads
    }

    @Test
    void jmhExitingZeroWithAnEmptyResultIsAFailureNotAnEmptyOk() throws Exception {
        // JMH 1.37 on a JDK whose lib/jspawnhelper is not executable: the fork cannot start, JMH prints the
        // exception, exits 0 and writes "[ ]" (jmh-output.txt is what it printed)
        assertThat(Files.readString(fixture("jmh-empty").resolve("jmh-output.txt")))
                .contains("posix_spawn failed, error: 13 (Permission denied)");
        UserResults.VariantRuns runs = UserResults.read(fixture("jmh-empty"), "virtual", 0);
        assertThat(runs.runs()).hasSize(1);
        UserResults.Result result = UserResults.measurements(cell(1, 0), runs, Optional.empty());
        assertThat(result.measurements()).isEmpty();
        assertThat(result.problem()).hasValueSatisfying(p -> assertThat(p)
                .startsWith("run 1 produced no score for example.blocking.BlockingServiceBenchmark.threadsByParam")
                .contains("its forks may have failed to start"));
    }

    @Test
    void fewerRunsThanRepetitionsIsSaid() throws Exception {
        UserResults.VariantRuns runs = UserResults.read(fixture("jmh-forks"), "virtual", 0);
        UserResults.Result result = UserResults.measurements(cell(5, 0), runs, Optional.empty());
        assertThat(result.problem()).contains("only 2 of 5 repetitions produced a record");
    }

    static UserResults.AgentRecord jvm(String command, double cpuMs) {
        return new UserResults.AgentRecord(
                1,
                "agent",
                1,
                "virtual",
                command,
                java.util.Map.of("cpuMs", cpuMs, "carriers", 2),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                java.util.Map.of());
    }

    @Test
    void whatTheJvmsUsedGoesToTheBenchmarkTheyRanOrToNone() {
        String fork = UserResults.JMH_FORK_MAIN + " 127.0.0.1 40000";
        var host = jvm("benchmarks.jar", 5);
        // JMH ran three benchmarks, one fork each, in the order of its results
        var forked = new UserResults.JvmRun(host, java.util.List.of(jvm(fork, 100), jvm(fork, 200), jvm(fork, 300)));
        assertThat(UserResults.jvmUseOf(forked, 1, 3))
                .containsEntry("cpuMs", 200L)
                .containsEntry("forks", 1);
        assertThat(UserResults.jvmUseOf(forked, 0, 1))
                .as("one benchmark: all three forks are its own")
                .containsEntry("cpuMs", 600L)
                .containsEntry("forks", 3);
        assertThat(UserResults.jvmUseOf(forked, 0, 2))
                .as("forks that do not split evenly")
                .isEmpty();
        // no forks: the one JVM ran every benchmark, so its numbers are no single benchmark's
        var unforked = new UserResults.JvmRun(host, java.util.List.of());
        assertThat(UserResults.jvmUseOf(unforked, 0, 1))
                .containsEntry("cpuMs", 5L)
                .doesNotContainKey("forks");
        assertThat(UserResults.jvmUseOf(unforked, 0, 3)).isEmpty();
    }

    @Test
    void pinnedParksAreReadFromTheRecordingJfrWroteAtExit() throws Exception {
        // Pin.java.txt run on JDK 25 with the agent and -Dloom.pinnedEvents=true: a virtual thread blocks in
        // a class initializer (pinned on every JDK); JFR wrote the recording the record names
        UserResults.VariantRuns runs = UserResults.read(fixture("pinned"), "virtual", 0);
        var host = runs.runs().get(0).host();
        assertThat(host.pinnedRecording()).hasValueSatisfying(f -> assertThat(f).endsWith(".jfr"));
        assertThat(host.metrics()).containsEntry("pinnedEvents", 1L);
        assertThat((Double) host.metrics().get("pinnedMs")).isGreaterThan(40.0); // the initializer sleeps 50 ms
        assertThat(UserResults.jvmUse(java.util.List.of(host), false)).containsEntry("pinnedEvents", 1L);
    }

    @Test
    void aProgramThatDoesNotReportADeclaredMetricFailsItsVariant() throws Exception {
        Cell cell = TestMatrices.plan(
                        """
                        schema: 1
                        jdks: [{id: t25, vm: hotspot, version: 25, image: "eclipse-temurin:25-jdk"}]
                        workloads:
                          - id: load
                            program:
                              classpath: ["%s"]
                              mainClass: app.Main
                              metrics: {p99: {unit: ms, direction: lower}}
                            variants: {virtual: {properties: {threads: virtual}}}
                        repetitions: 1
                        warmup: 0
                        """
                                .formatted(dir))
                .get(0);
        UserResults.Result result = UserResults.measurements(
                cell, programRun("{\"checkout\": {\"p50\": {\"value\": 3.5}}}"), Optional.empty());
        assertThat(result.problem()).hasValue("run 1: benchmark checkout reported no 'p99' (it reported p50)");
        assertThat(result.measurements()).singleElement().satisfies(m -> {
            assertThat(m.error()).isPresent(); // kept, with its numbers, and marked
            assertThat(m.samples().get(0).metric("p50")).contains(3.5);
            assertThat(m.samples().get(0).metric("processMs")).contains(120.0);
        });
    }

    @Test
    void aProgramsMalformedMetricsFileIsSaidWithWhereAndWhatTheFormatExpects() throws Exception {
        // issue #32: the agent's words for a file that is not JSON (AgentIT checks them on a real JVM)
        Cell cell = TestMatrices.plan(
                        """
                        schema: 1
                        jdks: [{id: t25, vm: hotspot, version: 25, image: "eclipse-temurin:25-jdk"}]
                        workloads:
                          - id: load
                            program:
                              classpath: ["%s"]
                              mainClass: app.Main
                              metrics: {p99: {unit: ms, direction: lower}}
                            variants: {virtual: {properties: {threads: virtual}}}
                        repetitions: 1
                        warmup: 0
                        """
                                .formatted(dir))
                .get(0);
        var host = new UserResults.AgentRecord(
                1,
                "agent",
                7,
                "virtual",
                "app.Main",
                java.util.Map.of("cpuMs", 10.0),
                Optional.empty(),
                Optional.empty(),
                Optional.of("/tmp/loom/metrics.json is not JSON at line 1, column 3: Unexpected character ('n'): was"
                        + " expecting double-quote to start field name"),
                Optional.empty(),
                Optional.empty(),
                java.util.Map.of());
        var runs = new UserResults.VariantRuns(
                "virtual",
                java.util.List.of(new UserResults.JvmRun(host, java.util.List.of())),
                java.util.List.of(120.0),
                Optional.empty());
        assertThat(UserResults.measurements(cell, runs, Optional.empty())
                        .problem()
                        .orElseThrow())
                .startsWith(
                        "run 1: the program's metrics file ($LOOM_METRICS_FILE, /tmp/loom/metrics.json is not JSON at"
                                + " line 1, column 3: Unexpected character ('n'): was expecting double-quote to start field"
                                + " name); Bencher Metric Format is a JSON object of benchmarks, each an object of measures"
                                + " with a numeric value: {\"handle-requests\": {\"roundMs\": {\"value\": 12.5}}}");
    }

    /** A program's cell judged by its rounds' time, as the example's load test reports it. */
    Cell programCell() throws Exception {
        return TestMatrices.plan(
                        """
                        schema: 1
                        jdks: [{id: t25, vm: hotspot, version: 25, image: "eclipse-temurin:25-jdk"}]
                        workloads:
                          - id: load
                            program:
                              classpath: ["%s"]
                              mainClass: app.Main
                              metrics: {roundMs: {unit: ms, direction: lower}}
                            variants: {virtual: {properties: {threads: virtual}}}
                        repetitions: 1
                        warmup: 0
                        """
                                .formatted(dir))
                .get(0);
    }

    /** One run of a program that reported {@code bmf}, as its variant's only run. */
    static UserResults.VariantRuns programRun(String bmf) throws Exception {
        var host = new UserResults.AgentRecord(
                1,
                "agent",
                7,
                "virtual",
                "app.Main",
                java.util.Map.of("cpuMs", 10.0),
                Optional.empty(),
                Optional.of(dev.loommatrix.core.result.Json.MAPPER.readTree(bmf)),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                java.util.Map.of());
        return new UserResults.VariantRuns(
                "virtual",
                java.util.List.of(new UserResults.JvmRun(host, java.util.List.of())),
                java.util.List.of(120.0),
                Optional.empty());
    }

    /**
     * Issue #30: a program that lists its rounds beside its value ({@code iterations}, open in Bencher's schema) is
     * judged in an A/B by the nested model on them, one fork per run, as a JMH fork is; without them, by the
     * fork-level test on its values. Twelve pairs, the rounds of each run 10 % apart, the runs 2 % apart, the
     * candidate 6 % slower: the rounds find it with the interval of the nested t.
     */
    @Test
    void aProgramsRoundsAreItsIterationsAndAnAbJudgesThemByTheNestedModel() throws Exception {
        Cell cell = programCell();
        var random = new java.util.SplittableRandom(30);
        java.util.List<Measurement> withRounds = new java.util.ArrayList<>();
        java.util.List<Measurement> valuesOnly = new java.util.ArrayList<>();
        java.util.List<Integer> blocks = new java.util.ArrayList<>();
        java.util.List<Measurement> candidateWith = new java.util.ArrayList<>();
        java.util.List<Measurement> candidateValues = new java.util.ArrayList<>();
        for (int block = 0; block < 12; block++) {
            blocks.add(block);
            for (double shift : new double[] {1.0, 1.06}) {
                double run = 20 * shift * Math.exp(0.02 * random.nextGaussian());
                double[] rounds = new double[20];
                for (int r = 0; r < rounds.length; r++) {
                    rounds[r] = run * Math.exp(0.10 * random.nextGaussian());
                }
                double median = java.util.Arrays.stream(rounds).sorted().toArray()[10];
                String list = java.util.Arrays.toString(rounds);
                Measurement rich = UserResults.measurements(
                                cell,
                                programRun("{\"handle\": {\"roundMs\": {\"value\": " + median + ", \"iterations\": "
                                        + list + "}}}"),
                                Optional.empty())
                        .measurements()
                        .get(0);
                Measurement plain = UserResults.measurements(
                                cell,
                                programRun("{\"handle\": {\"roundMs\": {\"value\": " + median + "}}}"),
                                Optional.empty())
                        .measurements()
                        .get(0);
                assertThat(rich.error()).isEmpty();
                assertThat(rich.samples().get(0).facts().get("iterations"))
                        .isEqualTo(java.util.List.of(
                                java.util.Arrays.stream(rounds).boxed().toList()));
                (shift == 1.0 ? withRounds : candidateWith).add(rich);
                (shift == 1.0 ? valuesOnly : candidateValues).add(plain);
            }
        }
        var nested = compareBlocks(cell, blocks, withRounds, candidateWith);
        assertThat(nested.test()).isEqualTo(dev.loommatrix.core.compare.Comparison.NESTED_T);
        assertThat(nested.pairs()).isEqualTo(12);
        assertThat(nested.nested().iterationsPerFork()).isEqualTo(20.0);
        assertThat(nested.verdict()).isEqualTo(dev.loommatrix.core.compare.Comparison.Verdict.regression);
        assertThat(nested.ci95().get(0)).isLessThan(1.06);
        assertThat(nested.ci95().get(1)).isGreaterThan(1.06);
        var forkLevel = compareBlocks(cell, blocks, valuesOnly, candidateValues);
        assertThat(forkLevel.test()).isEqualTo(dev.loommatrix.core.compare.Comparison.SIGNED_RANK);
        assertThat(forkLevel.nested()).isNull();
    }

    @Test
    void roundsThatAreNotPositiveNumbersAreSaidAndFailTheVariant() throws Exception {
        UserResults.Result result = UserResults.measurements(
                programCell(),
                programRun("{\"handle\": {\"roundMs\": {\"value\": 12.0, \"iterations\": [12.1, \"fast\"]}}}"),
                Optional.empty());
        assertThat(result.problem())
                .hasValue("run 1: benchmark handle: 'roundMs.iterations' is not an array of positive numbers ([12.1,"
                        + "\"fast\"]); it holds the program's rounds in the order they ran, e.g. [12.5, 12.1, 12.3]");
    }

    private static dev.loommatrix.core.compare.Comparison compareBlocks(
            Cell cell,
            java.util.List<Integer> blocks,
            java.util.List<Measurement> baseline,
            java.util.List<Measurement> candidate) {
        java.util.function.Function<java.util.List<Measurement>, dev.loommatrix.core.result.CellRecord> side =
                parts -> dev.loommatrix.core.result.CellRecord.of(
                        cell.id(),
                        cell.coordinates(),
                        dev.loommatrix.core.result.CellStatus.OK,
                        Optional.empty(),
                        Optional.empty(),
                        Optional.of(dev.loommatrix.core.testing.SyntheticRuns.ENVIRONMENT),
                        java.util.List.of(Measurement.ofBlocks(blocks, parts, "roundMs")),
                        dev.loommatrix.core.result.CellRecord.Execution.of(
                                "local", "test", "t0", "t1", 0, java.util.List.of("virtual")));
        return dev.loommatrix.core.compare.Comparer.compare(
                        "a",
                        java.util.List.of(side.apply(baseline)),
                        "b",
                        java.util.List.of(side.apply(candidate)),
                        0.03,
                        0.05)
                .comparisons()
                .get(0);
    }
}
