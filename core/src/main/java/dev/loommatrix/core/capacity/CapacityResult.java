package dev.loommatrix.core.capacity;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.List;
import java.util.Optional;

/**
 * What one repetition's capacity search found, and how it is to be read.
 *
 * @param capacity the highest rate that met the objective, in the search and again on a fresh server; present only
 *     when the outcome is {@link Outcome#BRACKETED} or {@link Outcome#LOWER_BOUND}
 * @param firstFailing the lowest rate that did not meet it: the true capacity lies below it
 * @param why the outcome in a reader's words, naming the rates and the bounds broken
 * @param steps every window, in the order run
 */
public record CapacityResult(
        Outcome outcome,
        Optional<Double> capacity,
        Optional<Double> firstFailing,
        String why,
        List<CapacitySearch.Step> steps) {

    public CapacityResult {
        steps = List.copyOf(steps);
    }

    /** How a search ended. */
    public enum Outcome {
        /** A passing and a failing rate within the precision: the capacity lies between them. */
        BRACKETED("bracketed"),
        /** It passed at the top of the range: it carries at least this. */
        LOWER_BOUND("lower bound"),
        /** The generator could not offer a rate: no capacity, the measurement is invalid. */
        GENERATOR_LIMITED("generator-limited"),
        /** Pass and fail were not steady in the rate (the validation on a fresh server failed). */
        INCONCLUSIVE("inconclusive"),
        /** It met the objective at no rate searched, or the server broke. */
        FAILED("failed");

        private final String words;

        Outcome(String words) {
            this.words = words;
        }

        @JsonValue
        public String words() {
            return words;
        }

        /** Whether the outcome is a capacity a reader may use. */
        public boolean found() {
            return this == BRACKETED || this == LOWER_BOUND;
        }
    }
}
