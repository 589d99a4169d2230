package dev.loommatrix.runner.ab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.compare.Comparison;
import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.Planner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A later look of an A/B run measures, per cell, only the variants whose comparisons are still live (issue #30): a
 * built-in workload's variant is a JVM of its own, so the others need not run again.
 */
class AbRunVariantsTest {

    @Test
    void aCellMeasuresOnlyTheVariantsOfItsLiveComparisonsInItsOwnOrder(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("m.yaml");
        Files.writeString(
                file,
                """
                schema: 1
                jdks:
                  - {id: t25, vm: hotspot, version: 25, image: "eclipse-temurin:25-jdk"}
                cpus: [2]
                workloads:
                  - {id: sleep-bound, variants: [virtual, "pool:200", "pool:10"], params: {tasks: 100, sleepMs: 5}}
                  - {id: thread-local, variants: [virtual, "pool:cpus"], params: {tasks: 1000}}
                repetitions: 1
                warmup: 0
                timeout: 2m
                memory: 512m
                """);
        List<Cell> cells = Planner.plan(MatrixParser.parse(file, Optional.empty()));
        AbSides.Matched matched = AbSides.match(cells, cells, Optional.empty(), Optional.empty());
        Cell sleep = matched.pairs().get(0).candidate();
        assertThat(sleep.id()).endsWith("sleep-bound");

        Map<Integer, List<String>> live = LookScheduler.liveVariants(
                matched, List.of(comparison(sleep.id(), "pool:10"), comparison(sleep.id(), "virtual")));
        // the cell's order, not the comparisons'; the other cell, nothing live, is not measured
        assertThat(live).containsOnlyKeys(0);
        assertThat(live.get(0)).containsExactly("virtual", "pool:10");

        Cell only = CellPairs.only(sleep, live.get(0));
        assertThat(only.workload().variants()).containsExactly("virtual", "pool:10");
        assertThat(only.id()).isEqualTo(sleep.id());
        assertThat(only.workload().params()).isEqualTo(sleep.workload().params());
        assertThat(only.workload().iterations()).isEqualTo(sleep.workload().iterations());
        assertThat(only).isEqualTo(sleep.withWorkload(only.workload())); // nothing else of the cell changed
        // all of them, or none named: the cell as it is
        assertThat(CellPairs.only(sleep, null)).isSameAs(sleep);
        assertThat(CellPairs.only(sleep, sleep.workload().variants())).isSameAs(sleep);
    }

    /**
     * A program's variants are JVMs of their own too (so is a JMH suite's run of a variant): the example program's
     * platform variant decided, its dearer JVM is measured no more while the virtual one goes on.
     */
    @Test
    void aProgramsCellMeasuresOnlyItsLiveVariants(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("m.yaml");
        Files.writeString(
                file,
                """
                schema: 1
                jdks:
                  - {id: t25, vm: hotspot, version: 25, image: "eclipse-temurin:25-jdk"}
                cpus: [2]
                workloads:
                  - id: load-test
                    program:
                      classpath: ["%s"]
                      mainClass: example.blocking.LoadTest
                      metrics: {roundMs: {unit: ms, direction: lower}}
                    variants:
                      virtual: {properties: {blocking.threads: virtual}}
                      platform: {properties: {blocking.threads: platform}}
                    baseline: platform
                repetitions: 1
                warmup: 0
                """
                        .formatted(dir));
        List<Cell> cells = Planner.plan(MatrixParser.parse(file, Optional.empty()));
        AbSides.Matched matched = AbSides.match(cells, cells, Optional.empty(), Optional.empty());
        Cell program = matched.pairs().get(0).candidate();
        Comparison virtual = comparison(program.id(), "virtual", Optional.of("handle-100-requests"));
        assertThat(virtual.series()).isEqualTo("virtual · handle-100-requests");

        Map<Integer, List<String>> live = LookScheduler.liveVariants(matched, List.of(virtual));
        assertThat(live).containsOnlyKeys(0);
        assertThat(live.get(0)).containsExactly("virtual");
        Cell only = CellPairs.only(program, live.get(0));
        assertThat(only.workload().variants()).containsExactly("virtual");
        assertThat(only.workload().user()).isEqualTo(program.workload().user()); // the variants' settings kept
    }

    /**
     * A flag that its confirmation does not bear out is what all its pairs say: unchanged only with its interval
     * within the threshold, else inconclusive (the example program's platform variant 2.0 % slower at --threshold 2,
     * flagged at 9 pairs, +1.3 … +2.7 % after 15: it read "unchanged").
     */
    @Test
    void aFlagNotConfirmedIsUnchangedOnlyWithinTheThreshold() {
        Comparison flagged = judged(1.03, 1.021, 1.04, Comparison.Verdict.regression);
        Comparison straddling = judged(1.020, 1.013, 1.027, Comparison.Verdict.unchanged);
        Comparison after = AbReport.afterConfirmation(flagged, straddling, 0.02, 6);
        assertThat(after.verdict()).isEqualTo(Comparison.Verdict.inconclusive);
        assertThat(after.confirmation().confirmed()).isFalse();
        assertThat(after.confirmation().firstVerdict()).isEqualTo(Comparison.Verdict.regression);

        Comparison within = judged(1.005, 0.995, 1.015, Comparison.Verdict.unchanged);
        assertThat(AbReport.afterConfirmation(flagged, within, 0.02, 6).verdict())
                .isEqualTo(Comparison.Verdict.unchanged);

        Comparison still = judged(1.05, 1.03, 1.07, Comparison.Verdict.regression);
        Comparison confirmed = AbReport.afterConfirmation(flagged, still, 0.02, 6);
        assertThat(confirmed.verdict()).isEqualTo(Comparison.Verdict.regression);
        assertThat(confirmed.confirmation().confirmed()).isTrue();
    }

    /** The platform variant's comparison with this estimate, interval and verdict. */
    private static Comparison judged(double ratio, double low, double high, Comparison.Verdict verdict) {
        Comparison c = comparison("c", "platform");
        return new Comparison(
                c.cellId(),
                c.variant(),
                c.metric(),
                c.higherIsBetter(),
                c.baseline(),
                c.candidate(),
                ratio,
                List.of(low, high),
                c.pValue(),
                c.pAdjusted(),
                verdict,
                c.benchmark(),
                c.ciLevel(),
                c.test(),
                c.pairs(),
                c.detectable(),
                c.noise(),
                c.confirmation(),
                c.nested());
    }

    private static Comparison comparison(String cellId, String variant) {
        return comparison(cellId, variant, Optional.empty());
    }

    private static Comparison comparison(String cellId, String variant, Optional<String> benchmark) {
        return new Comparison(
                cellId,
                variant,
                "wallMs",
                false,
                new Comparison.Side(6, 100),
                new Comparison.Side(6, 100),
                1.0,
                List.of(0.9, 1.1),
                0.5,
                0.5,
                Comparison.Verdict.inconclusive,
                benchmark,
                0.99,
                Comparison.NESTED_T,
                6,
                0.2,
                0.1,
                null,
                null);
    }
}
