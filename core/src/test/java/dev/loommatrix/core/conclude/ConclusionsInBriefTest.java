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
    void aUsersSuiteIsCountedByClass() throws Exception {
        List<Finding> findings = Findings.of(FindingsTest.cell("golden/cell-jmh-blocking.json"), 0.10);
        assertThat(ConclusionsInBrief.cell(findings))
                .hasValueSatisfying(line -> assertThat(line).startsWith(findings.size() + " benchmarks: "));
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
}
