package dev.loommatrix.runner.backend.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.capacity.CapacitySearch;
import dev.loommatrix.core.matrix.ServiceLoad;
import dev.loommatrix.runner.records.LoadReport;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How a capacity search's window is judged: the generator's limit first, then the objective, then the rate. */
class CapacityRunTest {

    private static final ServiceLoad.Objective OBJECTIVE =
            new ServiceLoad.Objective(Map.of("99", 500.0, "99.9", 1000.0), 0.001);

    /**
     * 100 to 6,400 requests/s, to 10 %, at most 1,000 connections: 100 at 200/s first (200/s × ½ s), 300 to judge a
     * window (200/s × 1 s × 1.5).
     */
    private static final ServiceLoad.Capacity SEARCH = new ServiceLoad.Capacity(OBJECTIVE, 100, 6400, 0.10, 1000);

    @Test
    void theValidationsFreshServerIsWarmedByTheRatesTheSearchPassedBelowItRising() {
        // a search window is warmed at its own rate only
        assertThat(CapacityRun.warmups(2800, false, java.util.List.of(100.0, 200.0)))
                .containsExactly(2800.0);
        // seed 002's pool of 800: doubling to 1,600 passed, 3,200 failed, then 2,400 and 2,800 passed, 3,000 failed
        assertThat(CapacityRun.warmups(
                        2800, true, java.util.List.of(100.0, 200.0, 400.0, 800.0, 1600.0, 2400.0, 2800.0)))
                .containsExactly(100.0, 200.0, 400.0, 800.0, 1600.0, 2400.0, 2800.0);
        // bisection passes out of order are warmed rising, each once
        assertThat(CapacityRun.warmups(700, true, java.util.List.of(400.0, 600.0, 500.0, 600.0, 700.0)))
                .containsExactly(400.0, 500.0, 600.0, 700.0);
        // nothing passed below the rate (the range's first rate): a quarter and half of it
        assertThat(CapacityRun.warmups(100, true, java.util.List.of(100.0))).containsExactly(25.0, 50.0, 100.0);
    }

    @Test
    void aWindowPassesFailsOrMeasuredTheGeneratorAndSaysWhy() {
        // met every bound at the rate asked
        assertThat(judge(window(200, 1995, 480, 900, 0, 0.3)))
                .isEqualTo(step(CapacitySearch.Verdict.PASS, "met p99 ≤ 500 ms, p99.9 ≤ 1 s, errors ≤ 0.1 %"));
        // two bounds broken, each with what was measured
        assertThat(judge(window(200, 2000, 812, 1500, 10, 0.3)))
                .isEqualTo(step(
                        CapacitySearch.Verdict.FAIL, "errors 0.5 % > 0.1 %, p99 812 ms > 500 ms, p99.9 1.5 s > 1 s"));
        // a saturated generator decides it, whatever the service did
        assertThat(judge(window(200, 1000, 812, 1500, 0, 0.95)))
                .isEqualTo(step(CapacitySearch.Verdict.GENERATOR_LIMITED, "its 1 CPU were 95 % busy"));
        // the objective met, and still 20 % short of the rate from a generator with CPU to spare: the service's
        assertThat(judge(window(200, 1600, 100, 200, 0, 0.5)))
                .isEqualTo(step(
                        CapacitySearch.Verdict.FAIL,
                        "it sent 160.0 requests/s, more than 5 % short of the rate: the service did not keep up"));
        // a 300 ms handler in a 3 s window at 25/s: 67 answered, 8 still in flight at the end (rate × latency),
        // 22.3/s completed and 25/s sent: it kept up (Spring Boot's example failed here when completed counted)
        LoadReport slowHandler = new LoadReport(
                "rate=25/s",
                Optional.of(25.0),
                3,
                67,
                Map.of("50", 300.0, "99", 310.0, "99.9", 320.0, "100", 330.0),
                Map.of(),
                8,
                0.3,
                1,
                Optional.empty());
        assertThat(slowHandler.achievedRate()).isLessThan(25 * 0.95);
        assertThat(CapacityRun.judge(
                                25,
                                false,
                                slowHandler,
                                SEARCH,
                                SEARCH.connectionsAt(25),
                                ServiceLoad.DEFAULT_MAX_SHORTFALL)
                        .verdict())
                .isEqualTo(CapacitySearch.Verdict.PASS);
    }

    @Test
    void aFailureWithEveryConnectionBusyAndFewerThanTheObjectiveAllowsMeasuredTheGenerator() {
        // 200/s within p99.9 ≤ 1 s may have 200 requests in flight; 40 connections, each busy (160/s × 250 ms)
        ServiceLoad.Capacity few = new ServiceLoad.Capacity(OBJECTIVE, 100, 6400, 0.10, 40);
        assertThat(judge(window(200, 1600, 900, 1500, 0, 0.3, 250), few))
                .isEqualTo(step(
                        CapacitySearch.Verdict.GENERATOR_LIMITED,
                        "its 40 connections (the load's connections) were all busy, fewer than the 200 requests a "
                                + "service within 1 s can have in flight at this rate: raise connections to at least "
                                + "300"));
        // the same connections, not all busy (160/s × 100 ms is 16 of 40): the service failed, not the generator
        assertThat(judge(window(200, 1600, 900, 1500, 0, 0.3, 100), few).verdict())
                .isEqualTo(CapacitySearch.Verdict.FAIL);
        // every connection busy, but as many as the objective allows in flight (300 opened to judge it): the service's
        assertThat(judge(window(200, 1600, 900, 1500, 0, 0.3, 2000)).verdict()).isEqualTo(CapacitySearch.Verdict.FAIL);
        // the first 100 of them (half the bound's), all busy: the generator's, and the window is measured again
        assertThat(CapacityRun.connectionsShort(200, window(200, 1600, 900, 1500, 0, 0.3, 2000), SEARCH, 100))
                .isPresent();
        // a pass is a pass, however few the connections
        assertThat(judge(window(200, 1995, 480, 900, 0, 0.3, 20), few).verdict())
                .isEqualTo(CapacitySearch.Verdict.PASS);
    }

    private static CapacitySearch.Step judge(LoadReport report) {
        return judge(report, SEARCH);
    }

    private static CapacitySearch.Step judge(LoadReport report, ServiceLoad.Capacity search) {
        return CapacityRun.judge(
                200, false, report, search, search.connectionsToJudge(200), ServiceLoad.DEFAULT_MAX_SHORTFALL);
    }

    private static CapacitySearch.Step step(CapacitySearch.Verdict verdict, String why) {
        return new CapacitySearch.Step(200, verdict, why, false);
    }

    /** A 10 s window at the rate: requests completed, p99 and p99.9, errors, the generator's CPU share of 1 CPU. */
    private static LoadReport window(
            double rate, long completed, double p99, double p999, long errors, double generatorShare) {
        return window(rate, completed, p99, p999, errors, generatorShare, 10);
    }

    /** The same, with its median latency. */
    private static LoadReport window(
            double rate, long completed, double p99, double p999, long errors, double generatorShare, double p50) {
        return new LoadReport(
                "rate=" + (long) rate + "/s",
                Optional.of(rate),
                10,
                completed - errors,
                Map.of("50", p50, "99", p99, "99.9", p999, "100", p999 * 2),
                errors == 0 ? Map.of() : Map.of("timeout", errors),
                0,
                generatorShare * 10,
                1,
                Optional.empty());
    }
}
