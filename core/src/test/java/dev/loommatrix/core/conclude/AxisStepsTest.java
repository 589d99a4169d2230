package dev.loommatrix.core.conclude;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AxisStepsTest {

    @Test
    void theSameVariantIsComparedAcrossJdksWithItsOwnInterval() throws Exception {
        // synchronized on JDK 21 pins (403 ms), on 25 it does not (JEP 491: 50.8 ms): 25 is ~7.9× better, measured
        List<AxisSteps.Step> steps = AxisSteps.of(
                RunConclusionsTest.cells("golden/cell-pinning-21.json", "golden/cell-pinning-25.json"),
                "synchronized",
                Optional.empty(),
                0.10);
        assertThat(steps).hasSize(1);
        AxisSteps.Step step = steps.get(0);
        assertThat(step.axis()).isEqualTo("jdk");
        assertThat(step.from()).isEqualTo("debian-21");
        assertThat(step.to()).isEqualTo("debian-25");
        assertThat(step.at()).containsEntry("cpus", "2");
        assertThat(step.contrast().ratio()).isBetween(7.8, 8.0);
        assertThat(step.contrast().low()).isGreaterThan(1.1);
        assertThat(step.contrast().conclusion()).isEqualTo(Conclusion.PAYS_OFF);
    }

    @Test
    void cellsThatDifferInMoreThanOneAxisAreNotCompared() throws Exception {
        // sleep-bound on debian-21 at 1 CPU and the disturbed one on debian-25 pinned to CPU 0: two axes differ
        assertThat(AxisSteps.of(
                        RunConclusionsTest.cells(
                                "golden/cell-sleep-bound.json", "fixtures/records/sleep-bound-disturbed.json"),
                        "virtual",
                        Optional.empty(),
                        0.10))
                .isEmpty();
    }

    @Test
    void theReportSaysWhichJdkInAMeasuredContrast() throws Exception {
        RunConclusions run = RunConclusions.of(
                RunConclusionsTest.cells("golden/cell-pinning-21.json", "golden/cell-pinning-25.json"), 0.10);
        assertThat(ConclusionsMarkdown.render(run, ConclusionLinks.runDirectory()))
                .containsPattern("- synchronized on debian-25 against debian-21, at 2 CPUs: 7\\.\\d\\d× \\[[0-9.]+–"
                        + "[0-9.]+, \\d+ %\\] — \\*\\*pays off\\*\\* \\(\\[debian-21\\]\\(cells/debian-21\\.");
    }
}
