package dev.loommatrix.core.conclude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.RunDirectory;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A third-party virtual-thread JMH suite whose truth is known, run on JDK 21 and 25 and concluded (issue #51's
 * "done when"): tahayvz/java-concurrency-benchmarks, built from its public sources outside this repository, run on
 * this project's 2-CPU machine on 2026-12-05 in containers ({@code local/debian-openjdk:21/25}), 3 forks a variant,
 * JFR on. Its alternatives are benchmark methods, so each variant names its own ({@code method:}). Known: 100
 * virtual threads that sleep 10 ms inside {@code synchronized} pin their 2 carriers on JDK 21 (about 500 ms against
 * 10) and not on JDK 25 (JEP 491); 100 sleeping tasks on virtual threads beat a pool of 16 (7 waves of 10 ms); 100
 * CPU-bound tasks of about 1 ms make no difference between virtual threads and a pool of one thread per core.
 */
class ThirdPartySuiteTest {

    static final Path RUN = FindingsTest.RECORDS.resolve("fixtures/runs/third-party-suite-jdk21-jdk25");

    static List<CellRecord> cells() throws Exception {
        RunDirectory run = new RunDirectory(RUN);
        return RunConclusions.inPlanOrder(run.readCells(), run.readManifest().cells());
    }

    static Map<String, Finding> byCell() throws Exception {
        return Findings.of(cells(), 0.10).stream().collect(Collectors.toMap(Finding::cellId, Function.identity()));
    }

    static String id(String jdk, String workload) {
        return jdk + ".linux.cpus-2.par-auto.max-auto.minr-auto." + workload;
    }

    @Test
    void everyConditionReachesItsKnownClassWithTheCauseItMeasured() throws Exception {
        Map<String, Finding> f = byCell();
        Finding pinned = f.get(id("debian-21", "suite-pinning"));
        assertThat(pinned.conclusion()).isEqualTo(Conclusion.HURTS);
        assertThat(pinned.causes()).extracting(Cause::kind).containsExactly(Cause.Kind.PINNING);
        assertThat(pinned.causes().get(0).variant()).isEqualTo("synchronized");
        assertThat(pinned.causes().get(0).words()).contains("GuardedIoTask.sleep:56"); // the suite's own frame
        assertThat(f.get(id("debian-25", "suite-pinning")).conclusion()).isEqualTo(Conclusion.NO_DIFFERENCE);
        assertThat(f.get(id("debian-25", "suite-pinning")).causes()).isEmpty();
        for (String jdk : List.of("debian-21", "debian-25")) {
            assertThat(f.get(id(jdk, "io-bound")).conclusion()).as(jdk).isEqualTo(Conclusion.PAYS_OFF);
            // the pool's waves are no recorded bound: nothing is claimed for why
            assertThat(f.get(id(jdk, "io-bound")).causes()).as(jdk).isEmpty();
            assertThat(f.get(id(jdk, "cpu-bound")).conclusion()).as(jdk).isEqualTo(Conclusion.NO_DIFFERENCE);
            assertThat(f.get(id(jdk, "cpu-bound")).causes())
                    .as(jdk)
                    .extracting(Cause::kind)
                    .containsOnly(Cause.Kind.CPU_BOUND);
        }
    }

    @Test
    void theReportSaysWhatToDoAndEachRatioIsTheCellsOwnMedians() throws Exception {
        String md = ConclusionsMarkdown.render(RunConclusions.of(cells(), 0.10), ConclusionLinks.runDirectory());
        assertThat(md)
                .contains("- **what to do**: keep reentrant-lock on debian-21")
                .contains("change first the code that blocks while pinned: `GuardedIoTask.sleep:56`")
                .contains("- **what to do**: use virtual in every condition measured");
        int checked = 0;
        for (CellRecord cell : cells()) {
            for (Finding f : Findings.of(cell, 0.10)) {
                Finding.Contrasted c = f.overBest().or(f::headline).orElseThrow();
                String benchmark = f.benchmark().orElse("");
                // from the cell file's forks by plain sorting; every metric here is a time (lower is better)
                double ratio = median(cell, c.reference(), benchmark) / median(cell, c.subject(), benchmark);
                assertThat(c.ratio()).as(cell.cellId()).isCloseTo(ratio, org.assertj.core.data.Offset.offset(1e-9));
                String said = ConclusionsMarkdown.ratio(ratio);
                String link = "](cells/" + cell.cellId() + ".json)";
                assertThat(md.lines()
                                .filter(l -> l.startsWith("- **") && l.contains(link))
                                .anyMatch(l -> l.contains(said)))
                        .as("%s: %s beside its link", cell.cellId(), said)
                        .isTrue();
                checked++;
            }
        }
        assertThat(checked).isEqualTo(6);
    }

    private static double median(CellRecord cell, String variant, String benchmark) {
        double[] v = cell.measurement(variant, benchmark).orElseThrow().samples().stream()
                .mapToDouble(s -> s.metric("score").orElseThrow())
                .sorted()
                .toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
