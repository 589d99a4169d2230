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
                .matches("what it would gain: synchronized on debian-25 is 7\\.\\d\\d× better than on"
                        + " debian-21 on time \\(lower is better\\) \\(the same variant, measured in this run\\)"));
    }

    @Test
    void whereItPaysOffItSaysUseIt() throws Exception {
        RunConclusions run = RunConclusions.of(RunConclusionsTest.cells("golden/cell-sleep-bound.json"), 0.10);
        assertThat(Advice.of(run.subjects().get(0), false))
                .containsExactly(
                        // pool:100 took 570 ms against the 500 ms its 100 threads allow: a larger pool might not
                        "use virtual in every condition measured: it beats the best other (pool:100) beyond the practical"
                                + " band — but pool:100 ran at the bound of its own size (why, above): against a larger"
                                + " pool, not measured here, it may not");
    }

    @Test
    void aConditionThatCannotTellAdvisesNothingButMeasuringMore() throws Exception {
        // fib-fanout's golden cell at the quick scale hurts; caller-virtual's interval is wide but wholly below
        RunConclusions run = RunConclusions.of(RunConclusionsTest.cells("golden/cell-fib-fanout.json"), 0.10);
        assertThat(Advice.of(run.subjects().get(0), false))
                .allSatisfy(a -> assertThat(a).doesNotStartWith("use "));
    }

    @Test
    void aWinOverAPoolHeldByItsOwnSizeSaysSo() throws Exception {
        // the Spring cell at 100 users: tomcat-20 served 65 req/s, the bound of its 20 threads at 302 ms a request —
        // "use virtual" stands only against the pools measured
        RunConclusions run = RunConclusions.of(
                List.of(FindingsTest.cell("golden/cell-spring-service.json")), RunConclusions.DEFAULT_THRESHOLD);
        List<String> advice = Advice.of(run.subjects().get(0), false);
        assertThat(advice).anySatisfy(a -> assertThat(a)
                .startsWith("use virtual in every condition measured: it beats the best other (tomcat-20)")
                .endsWith(" — but tomcat-20 ran at the bound of its own size (why, above): against a larger pool,"
                        + " not measured here, it may not"));
    }
}
