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
 * A whole real run whose truth is known, concluded (issue #51's "done when"): the offline profile on this project's
 * 2-CPU machine, 2026-11-28, JDK 21 and 25 in containers (`local/debian-openjdk:21/25`), 22 cells. Known: sleep-bound
 * pays off (a pool of 200 against 1,000 sleeping tasks); CPU-bound fib-fanout does not (and at this scale is too
 * small to tell how it scales); pinning hurts on 21 — synchronized pins — and makes no difference on 25 (JEP 491),
 * where class initialisation still pins; thread-local hurts (per-thread objects rebuilt for every task); a Spring
 * Boot service under 100 users pays off over Tomcat with 20 threads, which its size caps. Two cells ran while the
 * machine compiled beside them (primes-io and echo-server on JDK 25): disturbed, not valid.
 */
class KnownTruthTest {

    static final Path RUN = FindingsTest.RECORDS.resolve("fixtures/runs/offline-jdk21-jdk25");

    static List<CellRecord> cells() throws Exception {
        RunDirectory run = new RunDirectory(RUN);
        return RunConclusions.inPlanOrder(run.readCells(), run.readManifest().cells());
    }

    static Map<String, Finding> byCell() throws Exception {
        return Findings.of(cells(), 0.10).stream().collect(Collectors.toMap(f -> f.cellId(), Function.identity()));
    }

    static String id(String jdk, String workload) {
        return jdk + ".linux.cpus-2.par-auto.max-auto.minr-auto." + workload;
    }

    @Test
    void everyConditionReachesItsKnownClass() throws Exception {
        Map<String, Finding> f = byCell();
        for (String jdk : List.of("debian-21", "debian-25")) {
            assertThat(f.get(id(jdk, "sleep-bound")).conclusion()).as(jdk).isEqualTo(Conclusion.PAYS_OFF);
            assertThat(f.get(id(jdk, "mass-start")).conclusion()).as(jdk).isEqualTo(Conclusion.PAYS_OFF);
            assertThat(f.get(id(jdk, "fib-fanout")).conclusion()).as(jdk).isEqualTo(Conclusion.HURTS);
            assertThat(f.get(id(jdk, "thread-local")).conclusion()).as(jdk).isEqualTo(Conclusion.HURTS);
            assertThat(f.get(id(jdk, "spring-boot")).conclusion()).as(jdk).isEqualTo(Conclusion.PAYS_OFF);
            assertThat(f.get(id(jdk, "footprint")).conclusion()).as(jdk).isEqualTo(Conclusion.PAYS_OFF);
        }
        assertThat(f.get(id("debian-21", "pinning")).conclusion()).isEqualTo(Conclusion.HURTS);
        assertThat(f.get(id("debian-25", "pinning")).conclusion()).isEqualTo(Conclusion.NO_DIFFERENCE);
        // measured beside the machine's own compilation: never evidence
        assertThat(f.get(id("debian-25", "primes-io")).conclusion()).isEqualTo(Conclusion.NOT_VALID);
        assertThat(f.get(id("debian-25", "primes-io")).why().orElseThrow()).startsWith("disturbed: ");
        assertThat(f.get(id("debian-25", "echo-server")).conclusion()).isEqualTo(Conclusion.NOT_VALID);
    }

    @Test
    void aCauseIsNamedWhereOneWasMeasuredAndNoneWhereNoneWas() throws Exception {
        Map<String, Finding> f = byCell();
        assertThat(kinds(f.get(id("debian-21", "pinning")))).containsExactly(Cause.Kind.PINNING);
        assertThat(f.get(id("debian-21", "pinning")).causes().get(0).variant()).isEqualTo("synchronized");
        // on 25 synchronized does not pin; class-init, far below it, does — and that is the pinning said there
        assertThat(f.get(id("debian-25", "pinning")).causes())
                .extracting(Cause::variant)
                .containsExactly("class-init");
        assertThat(kinds(f.get(id("debian-21", "fib-fanout")))).containsExactly(Cause.Kind.TOO_SMALL);
        assertThat(kinds(f.get(id("debian-21", "thread-local")))).containsExactly(Cause.Kind.GC);
        assertThat(kinds(f.get(id("debian-21", "spring-boot")))).containsExactly(Cause.Kind.POOL_BOUND);
        assertThat(kinds(f.get(id("debian-21", "footprint")))).containsExactly(Cause.Kind.MEMORY);
        // virtual threads beat platform threads at starting 2,000 of them; nothing in the cell says why, and nothing
        // is claimed — nor is "profile it" said where the subject pays off
        assertThat(f.get(id("debian-21", "mass-start")).causes()).isEmpty();
    }

    @Test
    void whatWeakensANumberIsSaidWhereItApplies() throws Exception {
        Map<String, Finding> f = byCell();
        // mass-start on 21: virtual's three forks took 1.25-2.62 ms (cv 0.36); fib-fanout on 21: one of
        // caller-virtual's forks still trended; sleep-bound on 25: neither
        assertThat(f.get(id("debian-21", "mass-start")).caveats())
                .anySatisfy(c -> assertThat(c).startsWith("virtual unstable (its forks spread 36 %"));
        assertThat(f.get(id("debian-21", "fib-fanout")).caveats())
                .contains("caller-virtual not steady in 1 of 3 forks (its iterations still trended)");
        assertThat(f.get(id("debian-25", "sleep-bound")).caveats()).isEmpty();
    }

    @Test
    void eachRatioTheReportSaysIsTheCellsOwnMediansAndSitsBesideItsLink() throws Exception {
        String md = ConclusionsMarkdown.render(RunConclusions.of(cells(), 0.10), ConclusionLinks.runDirectory());
        int checked = 0;
        for (CellRecord cell : cells()) {
            for (Finding f : Findings.of(cell, 0.10)) {
                if (f.conclusion() == Conclusion.NOT_VALID) {
                    continue;
                }
                Finding.Contrasted c = f.overBest().or(f::headline).orElseThrow();
                // the ratio from the cell file's own numbers, by plain sorting (not through the product's code)
                String benchmark = f.benchmark().orElse("");
                double subject = median(cell, c.subject(), benchmark, c.metric());
                double reference = median(cell, c.reference(), benchmark, c.metric());
                boolean higherIsBetter = c.metric().equals("throughputPerSecond");
                double ratio = higherIsBetter ? subject / reference : reference / subject;
                assertThat(c.ratio()).as(cell.cellId()).isCloseTo(ratio, org.assertj.core.data.Offset.offset(1e-9));
                String said = ConclusionsMarkdown.ratio(ratio);
                String link = "](cells/" + cell.cellId() + ".json)";
                assertThat(md.lines()
                                .filter(l -> l.contains(link))
                                .filter(l -> l.startsWith("- **"))
                                .anyMatch(l -> l.contains(said) || l.contains(said.replace("×", "–"))))
                        .as("%s: %s beside its link", cell.cellId(), said)
                        .isTrue();
                checked++;
            }
        }
        assertThat(checked).isEqualTo(20); // 22 cells, 2 not valid
    }

    private static List<Cause.Kind> kinds(Finding f) {
        return f.causes().stream().map(Cause::kind).toList();
    }

    private static double median(CellRecord cell, String variant, String benchmark, String metric) {
        double[] v = cell.measurement(variant, benchmark).orElseThrow().samples().stream()
                .mapToDouble(s -> s.metric(metric).orElseThrow())
                .sorted()
                .toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
