package dev.loommatrix.core.capacity;

import dev.loommatrix.core.matrix.ServiceLoad;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The capacity search of one repetition (issue #52), independent of what runs the windows: open-model windows at
 * rising rates, doubling from the range's low end, until one fails the objective or the range's top passes; then
 * bisection between the last passing and the first failing rate until they are within the precision; then a
 * validation window at the found rate on a fresh server. Every window is a {@link Step} with its verdict, so the
 * {@link CapacityResult} says how it was found, never one silent number.
 *
 * <p>Why doubling and then bisection: the search does not know the capacity's order of magnitude, and doubling
 * finds it in log₂(to ÷ from) windows; bisection then narrows a factor of two to the precision in
 * log₂(1 ÷ precision) more. Why a validation window on a fresh server: every search window after the first runs on
 * a server the earlier windows warmed (JIT, pools, caches) or left tired (a heap full of the overload's garbage);
 * a capacity that only a warmed-up-and-then-some server reaches is not the team's capacity.
 */
public final class CapacitySearch {

    private CapacitySearch() {}

    /** What one window showed. */
    public enum Verdict {
        /** The service met the objective at the rate. */
        PASS,
        /** It did not (the step says which bound it broke). */
        FAIL,
        /** The generator could not offer the rate: its CPUs were saturated, or it fell short of the rate. */
        GENERATOR_LIMITED,
        /** The server died, or the window could not be run at all. */
        BROKEN
    }

    /**
     * One window of the search.
     *
     * @param rate the rate asked, requests/s
     * @param why what decided the verdict, in a reader's words ("p99 812 ms > 500 ms"; "met p99 ≤ 500 ms")
     * @param validation whether this is the validation window on a fresh server
     */
    public record Step(double rate, Verdict verdict, String why, boolean validation) {}

    /** Runs a window at a rate and judges it; the validation window runs on a fresh server JVM. */
    @FunctionalInterface
    public interface Window {
        Step at(double rate, boolean validation) throws IOException, InterruptedException;
    }

    /** Searches one repetition's capacity with its windows. */
    public static CapacityResult search(ServiceLoad.Capacity capacity, Window window)
            throws IOException, InterruptedException {
        List<Step> steps = new ArrayList<>();
        Optional<Double> passing = Optional.empty();
        Optional<Double> failing = Optional.empty();
        double rate = capacity.from();
        while (true) {
            Step step = run(window, rate, false, steps);
            if (step.verdict() != Verdict.PASS && step.verdict() != Verdict.FAIL) {
                return ended(step, passing, steps);
            }
            if (step.verdict() == Verdict.FAIL) {
                failing = Optional.of(rate);
                break;
            }
            passing = Optional.of(rate);
            if (rate >= capacity.to()) {
                break;
            }
            rate = Math.min(rate * 2, capacity.to());
        }
        if (passing.isEmpty()) {
            return new CapacityResult(
                    CapacityResult.Outcome.FAILED,
                    Optional.empty(),
                    failing,
                    "it did not meet the objective even at the lowest rate searched, "
                            + ServiceLoad.Open.level(capacity.from()) + ": "
                            + steps.getLast().why(),
                    steps);
        }
        while (failing.isPresent() && failing.get() - passing.get() > capacity.precision() * passing.get()) {
            double middle = middle(passing.get(), failing.get());
            if (middle <= passing.get() || middle >= failing.get()) {
                break; // the rates cannot be told apart any finer
            }
            Step step = run(window, middle, false, steps);
            switch (step.verdict()) {
                case PASS -> passing = Optional.of(middle);
                case FAIL -> failing = Optional.of(middle);
                default -> {
                    return ended(step, passing, steps);
                }
            }
        }
        double found = passing.get();
        Step validation = run(window, found, true, steps);
        return switch (validation.verdict()) {
            case PASS ->
                failing.isPresent()
                        ? new CapacityResult(
                                CapacityResult.Outcome.BRACKETED,
                                passing,
                                failing,
                                "it met the objective at " + ServiceLoad.Open.level(found) + ", again on a fresh "
                                        + "server, and not at " + ServiceLoad.Open.level(failing.get()) + " ("
                                        + failingWhy(steps, failing.get()) + ")",
                                steps)
                        : new CapacityResult(
                                CapacityResult.Outcome.LOWER_BOUND,
                                passing,
                                Optional.empty(),
                                "it met the objective at the top of the range searched, "
                                        + ServiceLoad.Open.level(found) + ": it carries at least this",
                                steps);
            case FAIL ->
                new CapacityResult(
                        CapacityResult.Outcome.INCONCLUSIVE,
                        Optional.empty(),
                        failing,
                        "it met the objective at " + ServiceLoad.Open.level(found) + " in the search but not in the "
                                + "validation window on a fresh server (" + validation.why() + "): pass and fail "
                                + "are not steady at this rate",
                        steps);
            default -> ended(validation, passing, steps);
        };
    }

    /** The search ends at a window that could not judge the service. */
    private static CapacityResult ended(Step step, Optional<Double> passing, List<Step> steps) {
        String below = passing.map(p -> "; it carried " + ServiceLoad.Open.level(p) + " before")
                .orElse("");
        return step.verdict() == Verdict.GENERATOR_LIMITED
                ? new CapacityResult(
                        CapacityResult.Outcome.GENERATOR_LIMITED,
                        Optional.empty(),
                        Optional.empty(),
                        "the generator could not offer " + ServiceLoad.Open.level(step.rate()) + " (" + step.why()
                                + "): its limit, not the service's, was reached" + below,
                        steps)
                : new CapacityResult(
                        CapacityResult.Outcome.FAILED,
                        Optional.empty(),
                        Optional.empty(),
                        "the window at " + ServiceLoad.Open.level(step.rate()) + " broke: " + step.why() + below,
                        steps);
    }

    private static Step run(Window window, double rate, boolean validation, List<Step> steps)
            throws IOException, InterruptedException {
        Step step = window.at(rate, validation);
        steps.add(step);
        return step;
    }

    private static String failingWhy(List<Step> steps, double rate) {
        return steps.stream()
                .filter(s -> s.rate() == rate && s.verdict() == Verdict.FAIL)
                .map(Step::why)
                .findFirst()
                .orElse("");
    }

    /**
     * The rate between two, rounded to a whole request a second (a tenth below 10/s): the windows' rates stay
     * readable, and the precision is far coarser than the rounding.
     */
    static double middle(double low, double high) {
        double m = (low + high) / 2;
        return m >= 10 ? Math.rint(m) : Math.rint(m * 10) / 10;
    }
}
