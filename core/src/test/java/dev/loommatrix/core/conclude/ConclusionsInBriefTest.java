package dev.loommatrix.core.conclude;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConclusionsInBriefTest {

    @Test
    void aCellsLineEndsWithItsConclusionAndInterval() throws Exception {
        // sleep-bound's golden cell: virtual over pool:100, 5.755× [4.366, 6.139] at 90 %
        assertThat(ConclusionsInBrief.cell(Findings.of(FindingsTest.cell("golden/cell-sleep-bound.json"), 0.10)))
                .hasValue("pays off: virtual 5.75× over pool:100 [4.37–6.14, 90 %]");
    }

    @Test
    void aWinOverAWeakerVariantIsSaidBesideTheOneOverTheBest() throws Exception {
        // pinning on 21: the best other to synchronized is object-wait; the headline's reentrant-lock is said after
        assertThat(ConclusionsInBrief.cell(Findings.of(FindingsTest.cell("golden/cell-pinning-21.json"), 0.10)))
                .hasValueSatisfying(line -> assertThat(line)
                        .startsWith("hurts: synchronized 0.127× over the best other, object-wait [")
                        .endsWith("; over reentrant-lock 0.127×"));
    }

    @Test
    void aDisturbedCellsLineSaysNothingMore() throws Exception {
        assertThat(ConclusionsInBrief.cell(
                        Findings.of(FindingsTest.cell("fixtures/records/sleep-bound-disturbed.json"), 0.10)))
                .isEmpty();
    }

    @Test
    void aUsersBenchmarkIsNamedAndSeveralAreCountedByClass() throws Exception {
        List<Finding> findings = Findings.of(FindingsTest.cell("golden/cell-jmh-blocking.json"), 0.10);
        assertThat(findings).hasSize(1);
        assertThat(ConclusionsInBrief.cell(findings)).hasValueSatisfying(line -> assertThat(line)
                .startsWith(findings.get(0).benchmark().orElseThrow() + ": pays off: virtual "));
        Finding one = findings.get(0);
        Finding another = new Finding(
                one.cellId(),
                one.coordinates(),
                java.util.Optional.of("example.Other.run"),
                Conclusion.HURTS,
                one.headline(),
                one.overBest(),
                one.why());
        assertThat(ConclusionsInBrief.cell(List.of(one, another))).hasValue("2 benchmarks: 1 pays off, 1 hurts");
    }

    @Test
    void aServicesLineSaysItsRequestItsRatioAndItsTail() throws Exception {
        // the finding: a service cell's line said two throughputs, no ratio, no p99
        Finding f = FindingsTest.only("golden/cell-spring-service.json");
        Finding.Contrasted tail = f.tail().orElseThrow();
        assertThat(ConclusionsInBrief.cell(List.of(f))).hasValueSatisfying(line -> assertThat(line)
                .startsWith("GET /work(load=users=100): pays off: virtual ")
                .contains(" over tomcat-20 [")
                .contains("; p99 latency virtual " + ConclusionsMarkdown.ratio(tail.ratio())
                        + " lower than tomcat-20's [")
                .endsWith(", " + tail.conclusion().words()));
    }

    @Test
    void theRunsSummaryIsALinePerWorkload() throws Exception {
        RunConclusions run = RunConclusions.of(
                RunConclusionsTest.cells(
                        "golden/cell-pinning-21.json",
                        "golden/cell-pinning-25.json",
                        "golden/cell-sleep-bound.json",
                        "fixtures/records/sleep-bound-disturbed.json"),
                0.10);
        assertThat(ConclusionsInBrief.run(run))
                .containsExactly(
                        "pinning: hurts on debian-21 (0.127×); no difference on debian-25 (1.00×)",
                        "sleep-bound: pays off in every valid condition measured (5.75×) (1 not valid)");
    }

    /** Two conditions whose ratios print alike (6.81× on JDK 21 and on 25, the third-party suite) say one number. */
    @Test
    void ratiosThatPrintAlikeAreOneNumberNotARange() throws Exception {
        RunConclusions run = RunConclusions.of(ThirdPartySuiteTest.cells(), 0.10);
        assertThat(ConclusionsInBrief.run(run))
                .contains("io-bound · com.tahayavuz.concurrency.jmh.IoBoundBenchmark: pays off in every condition"
                        + " measured (6.81×)");
    }
}
