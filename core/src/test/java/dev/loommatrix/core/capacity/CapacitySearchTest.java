package dev.loommatrix.core.capacity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.capacity.CapacitySearch.Step;
import dev.loommatrix.core.capacity.CapacitySearch.Verdict;
import dev.loommatrix.core.matrix.ServiceLoad;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The search against servers whose capacity is known exactly: a window passes when its rate is at most the server's
 * capacity (a pool of T threads holding each request S seconds carries T ÷ S; above it the queue grows for the whole
 * window and every percentile breaks).
 */
class CapacitySearchTest {

    static final ServiceLoad.Objective P99_1S = new ServiceLoad.Objective(Map.of("99", 1000.0), 0.001);

    static ServiceLoad.Capacity range(double from, double to, double precision) {
        return new ServiceLoad.Capacity(P99_1S, from, to, precision, 256);
    }

    /** A server that carries {@code truth} requests a second. */
    static CapacitySearch.Window server(double truth) {
        return (rate, validation) -> rate <= truth
                ? new Step(rate, Verdict.PASS, "met", validation)
                : new Step(rate, Verdict.FAIL, "p99 5 s > 1 s", validation);
    }

    @Test
    void aPoolOf200ThreadsWithA300msHandlerCarries667RequestsASecondFoundWithinThePrecision() throws Exception {
        double truth = 200 / 0.3;
        CapacityResult r = CapacitySearch.search(range(50, 6400, 0.10), server(truth));
        assertThat(r.outcome()).isEqualTo(CapacityResult.Outcome.BRACKETED);
        double found = r.capacity().orElseThrow();
        double failing = r.firstFailing().orElseThrow();
        assertThat(found).isLessThanOrEqualTo(truth);
        assertThat(failing).isGreaterThan(truth);
        assertThat(failing - found).isLessThanOrEqualTo(0.10 * found);
        // 50, 100, 200, 400, 800 (fails), then 600, 700 (fails), 650 — and the validation at the found rate
        assertThat(r.steps())
                .extracting(Step::rate)
                .containsExactly(50.0, 100.0, 200.0, 400.0, 800.0, 600.0, 700.0, 650.0, 650.0);
        assertThat(r.steps().getLast().validation()).isTrue();
        assertThat(r.steps().stream().filter(Step::validation)).hasSize(1);
        assertThat(r.why())
                .isEqualTo("it met the objective at rate=650/s, again on a fresh server, and not at rate=700/s "
                        + "(p99 5 s > 1 s)");
    }

    @Test
    void everyKnownCapacityInTheRangeIsBracketedWithinThePrecisionAndTheStatedNumberOfWindows() throws Exception {
        for (double precision : List.of(0.02, 0.05, 0.10, 0.25)) {
            ServiceLoad.Capacity capacity = range(10, 10_000, precision);
            for (double truth = 10; truth < 10_000; truth *= 1.07) {
                CapacityResult r = CapacitySearch.search(capacity, server(truth));
                String at = "truth " + truth + ", precision " + precision;
                assertThat(r.outcome()).as(at).isEqualTo(CapacityResult.Outcome.BRACKETED);
                double found = r.capacity().orElseThrow();
                assertThat(found).as(at).isLessThanOrEqualTo(truth);
                // within the precision of the truth (the rounding to whole requests a second is far finer)
                assertThat(truth - found).as(at).isLessThanOrEqualTo(precision * found + 1);
                assertThat(r.steps().size()).as(at).isLessThanOrEqualTo(capacity.windows());
            }
        }
    }

    @Test
    void aServerThatCarriesTheTopOfTheRangeIsALowerBoundNotACapacity() throws Exception {
        CapacityResult r = CapacitySearch.search(range(100, 1000, 0.10), server(5000));
        assertThat(r.outcome()).isEqualTo(CapacityResult.Outcome.LOWER_BOUND);
        assertThat(r.capacity()).contains(1000.0);
        assertThat(r.firstFailing()).isEmpty();
        // 100, 200, 400, 800, then the top itself, and the validation there
        assertThat(r.steps()).extracting(Step::rate).containsExactly(100.0, 200.0, 400.0, 800.0, 1000.0, 1000.0);
        assertThat(r.why()).contains("carries at least this");
    }

    @Test
    void aServerThatStallsMeetsTheObjectiveAtNoRateAndFails() throws Exception {
        CapacityResult r = CapacitySearch.search(range(50, 6400, 0.10), server(0));
        assertThat(r.outcome()).isEqualTo(CapacityResult.Outcome.FAILED);
        assertThat(r.capacity()).isEmpty();
        assertThat(r.steps()).hasSize(1);
        assertThat(r.why())
                .isEqualTo("it did not meet the objective even at the lowest rate searched, rate=50/s: p99 5 s > 1 s");
    }

    @Test
    void aRateTheGeneratorCannotOfferEndsTheSearchAsGeneratorLimitedNeverACapacity() throws Exception {
        CapacityResult r = CapacitySearch.search(
                range(50, 6400, 0.10),
                (rate, validation) -> rate >= 1600
                        ? new Step(rate, Verdict.GENERATOR_LIMITED, "the generator used 97 % of its CPU", validation)
                        : new Step(rate, Verdict.PASS, "met", validation));
        assertThat(r.outcome()).isEqualTo(CapacityResult.Outcome.GENERATOR_LIMITED);
        assertThat(r.capacity()).isEmpty();
        assertThat(r.outcome().found()).isFalse();
        assertThat(r.why())
                .isEqualTo("the generator could not offer rate=1600/s (the generator used 97 % of its CPU): its limit, "
                        + "not the service's, was reached; it carried rate=800/s before");
    }

    @Test
    void aCapacityTheFreshServerDoesNotReachIsInconclusiveAndSaysWhere() throws Exception {
        // warmed by the search's windows it carries 700/s; fresh, only 400/s
        CapacityResult r = CapacitySearch.search(
                range(50, 6400, 0.10),
                (rate, validation) -> rate <= (validation ? 400 : 700)
                        ? new Step(rate, Verdict.PASS, "met", validation)
                        : new Step(rate, Verdict.FAIL, "p99 1.8 s > 1 s", validation));
        assertThat(r.outcome()).isEqualTo(CapacityResult.Outcome.INCONCLUSIVE);
        assertThat(r.capacity()).isEmpty();
        assertThat(r.why())
                .isEqualTo("it met the objective at rate=700/s in the search but not in the validation window on a "
                        + "fresh server (p99 1.8 s > 1 s): pass and fail are not steady at this rate");
    }

    @Test
    void aServerThatDiesMidSearchFailsAndSaysWhatItCarriedBefore() throws Exception {
        CapacityResult r = CapacitySearch.search(
                range(50, 6400, 0.10),
                (rate, validation) -> rate >= 400
                        ? new Step(rate, Verdict.BROKEN, "the service died (exit code 3)", validation)
                        : new Step(rate, Verdict.PASS, "met", validation));
        assertThat(r.outcome()).isEqualTo(CapacityResult.Outcome.FAILED);
        assertThat(r.why())
                .isEqualTo("the window at rate=400/s broke: the service died (exit code 3); it carried rate=200/s "
                        + "before");
    }

    @Test
    void anObjectiveSaysEachBoundAWindowBrokeWithItsMeasuredValue() {
        ServiceLoad.Objective o = new ServiceLoad.Objective(new java.util.LinkedHashMap<>(Map.of("99", 500.0)), 0.001);
        assertThat(o.unmet(Map.of("99", 480.0), 10_000, 10)).isEmpty();
        assertThat(o.unmet(Map.of("99", 812.0), 10_000, 11)).contains("errors 0.11 % > 0.1 %, p99 812 ms > 500 ms");
        assertThat(o.unmet(Map.of(), 0, 0)).contains("no request was answered");
        assertThat(o.words()).isEqualTo("p99 ≤ 500 ms, errors ≤ 0.1 %");
    }

    /**
     * A window opens first as many connections as its rate has in flight at half the objective's highest bound, and
     * no more than the load's: seed 002's search (p99 ≤ 1 s, 6,400 connections) opens 50 at 100 requests/s, 550 at
     * 1,100/s, 3,200 at 6,400/s; to judge a window whose connections were all busy, rate × the bound × 1.5 (1,650 at
     * 1,100/s, all 6,400 at 6,400/s). The generator's opening of them goes uncounted, at most the warmup.
     */
    @Test
    void aWindowOpensTheConnectionsItsRateHasInFlightAtHalfTheBoundAndToJudgeItAtTheBound() {
        ServiceLoad.Capacity seed = new ServiceLoad.Capacity(P99_1S, 100, 6400, 0.1, 6400);
        assertThat(seed.connectionsAt(100)).isEqualTo(50);
        assertThat(seed.connectionsAt(1100)).isEqualTo(550);
        assertThat(seed.connectionsAt(6400)).isEqualTo(3200);
        assertThat(seed.connectionsToJudge(1100)).isEqualTo(1650);
        assertThat(seed.connectionsToJudge(6400)).isEqualTo(6400);
        assertThat(seed.opening(1100, java.time.Duration.ofSeconds(5))).isEqualTo(java.time.Duration.ofMillis(500));
        assertThat(ServiceLoad.Capacity.opening(1100, 1650, java.time.Duration.ofSeconds(5)))
                .isEqualTo(java.time.Duration.ofMillis(1500));
        ServiceLoad.Capacity tight = new ServiceLoad.Capacity(
                new ServiceLoad.Objective(Map.of("99", 500.0, "99.9", 2000.0), 0.001), 25, 1600, 0.1, 512);
        assertThat(tight.connectionsAt(100)).as("the highest bound, p99.9's").isEqualTo(100);
        assertThat(tight.connectionsAt(1600)).as("at most the load's").isEqualTo(512);
        assertThat(tight.opening(25, java.time.Duration.ofSeconds(1))).isEqualTo(java.time.Duration.ofSeconds(1));
    }
}
