package dev.loommatrix.core.conclude;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AdviceTest {

    static RunConclusions.Subject pinning() throws Exception {
        RunConclusions run = RunConclusions.of(
                RunConclusionsTest.cells(
                        "golden/cell-pinning-21-profiled.json", "golden/cell-pinning-25-profiled.json"),
                0.10);
        return run.subjects().get(0);
    }

    @Test
    void whereItHurtsWithPinningMeasuredItNamesTheCodeAndWhatChangingItWouldGain() throws Exception {
        List<String> advice = Advice.of(pinning(), false);
        assertThat(advice)
                .contains("keep reentrant-lock on debian-21: synchronized is worse beyond the practical band")
                .contains("change first the code that blocks while pinned: `Pinning.sleep:201` (64 pinned parks)")
                .contains("synchronized or reentrant-lock on debian-25: no material difference — choose on other"
                        + " grounds");
        assertThat(advice).anySatisfy(a -> assertThat(a)
                .matches("what it would gain: synchronized on debian-25 runs 7\\.\\d\\d× as well as on"
                        + " debian-21 \\(the same variant, measured in this run\\)"));
    }

    @Test
    void whereItPaysOffItSaysUseIt() throws Exception {
        RunConclusions run = RunConclusions.of(RunConclusionsTest.cells("golden/cell-sleep-bound.json"), 0.10);
        assertThat(Advice.of(run.subjects().get(0), false))
                .containsExactly(
                        "use virtual in every condition measured: it beats the best other (pool:100) beyond the practical"
                                + " band");
    }

    @Test
    void aConditionThatCannotTellAdvisesNothingButMeasuringMore() throws Exception {
        // fib-fanout's golden cell at the quick scale hurts; caller-virtual's interval is wide but wholly below
        RunConclusions run = RunConclusions.of(RunConclusionsTest.cells("golden/cell-fib-fanout.json"), 0.10);
        assertThat(Advice.of(run.subjects().get(0), false))
                .allSatisfy(a -> assertThat(a).doesNotStartWith("use "));
    }
}
