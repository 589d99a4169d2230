package dev.loommatrix.runner.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.testing.TestMatrices;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a program's Bencher Metric Format report becomes, and what is said when it is not that. */
class BmfResultsTest {

    @TempDir
    Path dir;

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
                cell, UserCells.programRun("{\"checkout\": {\"p50\": {\"value\": 3.5}}}"), Optional.empty());
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
        var host = new AgentRecord(
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
        var runs = new VariantRuns(
                "virtual",
                java.util.List.of(new JvmRun(host, java.util.List.of())),
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
                                UserCells.programRun("{\"handle\": {\"roundMs\": {\"value\": " + median
                                        + ", \"iterations\": " + list + "}}}"),
                                Optional.empty())
                        .measurements()
                        .get(0);
                Measurement plain = UserResults.measurements(
                                cell,
                                UserCells.programRun("{\"handle\": {\"roundMs\": {\"value\": " + median + "}}}"),
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
                UserCells.programRun(
                        "{\"handle\": {\"roundMs\": {\"value\": 12.0, \"iterations\": [12.1, \"fast\"]}}}"),
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
