package dev.loommatrix.core.conclude;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.loommatrix.core.plan.Coordinates;
import java.util.Optional;

/**
 * One condition of a workload (one cell; a user's benchmark, with its parameters, in it), concluded: its class, the headline contrast it rests on, the contrast with
 * the best alternative the cell measured when that is another variant, and why — what made it not valid, or what
 * would decide it when the interval cannot.
 *
 * @param benchmark the user's benchmark (JMH's, with its parameters; a service's request) the finding is about
 * @param headline the cell's headline contrast, as measured (absent when the cell is not valid or measured none)
 * @param overBest the subject against the best other variant the cell measured, when that is not the headline's
 *     reference: a win over a pool picked to lose is said beside the one over the best pool
 * @param why for {@link Conclusion#NOT_VALID}, the reason; for {@link Conclusion#CANNOT_TELL}, what would decide
 * @param causes why it came out so, from the cell's own evidence ({@link Causes})
 * @param tail a service's p99 latency, subject against the same variant (above 1: the subject's is lower), with its
 *     own class: often the reason to switch, said beside the throughput it is not
 * @param others where the subject does not pay off, the other variants the cell measured that differ from it beyond
 *     the band, each against the subject (pinning's class-init at 0.25× of synchronized on a JDK where synchronized
 *     no longer pins): a variant much worse or better than the subject is part of the answer
 * @param alternatives how many other variants the cell measured beside the subject (1: the best other is the only one)
 * @param caveats what weakens the contrast's numbers, said where it applies: a side whose forks had not settled (their
 *     iterations still trended), or whose forks spread widely (unstable)
 */
public record Finding(
        String cellId,
        Coordinates coordinates,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> benchmark,
        Conclusion conclusion,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Contrasted> headline,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Contrasted> overBest,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> why,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) java.util.List<Cause> causes,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Contrasted> tail,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) java.util.List<Contrasted> others,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) java.util.List<String> caveats,
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) int alternatives) {

    public Finding {
        causes = causes == null ? java.util.List.of() : java.util.List.copyOf(causes);
        tail = tail == null ? Optional.empty() : tail;
        others = others == null ? java.util.List.of() : java.util.List.copyOf(others);
        caveats = caveats == null ? java.util.List.of() : java.util.List.copyOf(caveats);
    }

    /** A finding before its causes, tail and other variants are known. */
    public Finding(
            String cellId,
            Coordinates coordinates,
            Optional<String> benchmark,
            Conclusion conclusion,
            Optional<Contrasted> headline,
            Optional<Contrasted> overBest,
            Optional<String> why) {
        this(cellId, coordinates, benchmark, conclusion, headline, overBest, why, null, null, null, null, 0);
    }

    /** This finding with the causes its cell measured. */
    public Finding withCauses(java.util.List<Cause> measured) {
        return new Finding(
                cellId,
                coordinates,
                benchmark,
                conclusion,
                headline,
                overBest,
                why,
                measured,
                tail,
                others,
                caveats,
                alternatives);
    }

    /** This finding with a service's tail latency against the same variant its conclusion rests on. */
    public Finding withTail(Optional<Contrasted> p99) {
        return new Finding(
                cellId,
                coordinates,
                benchmark,
                conclusion,
                headline,
                overBest,
                why,
                causes,
                p99,
                others,
                caveats,
                alternatives);
    }

    /** This finding with the other variants that differ from its subject beyond the band. */
    public Finding withOthers(java.util.List<Contrasted> differing) {
        return new Finding(
                cellId,
                coordinates,
                benchmark,
                conclusion,
                headline,
                overBest,
                why,
                causes,
                tail,
                differing,
                caveats,
                alternatives);
    }

    /** This finding with how many other variants its cell measured beside the subject. */
    public Finding withAlternatives(int measured) {
        return new Finding(
                cellId,
                coordinates,
                benchmark,
                conclusion,
                headline,
                overBest,
                why,
                causes,
                tail,
                others,
                caveats,
                measured);
    }

    /** This finding with what weakens its numbers. */
    public Finding withCaveats(java.util.List<String> weakening) {
        return new Finding(
                cellId,
                coordinates,
                benchmark,
                conclusion,
                headline,
                overBest,
                why,
                causes,
                tail,
                others,
                weakening,
                alternatives);
    }

    /**
     * A measured contrast: how many times better {@code subject} was than {@code reference} on {@code metric}
     * ({@code ratio} above 1: the subject is better), its interval and the interval's coverage.
     */
    public record Contrasted(
            String subject,
            String reference,
            String metric,
            double ratio,
            double low,
            double high,
            @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Double> level,
            Conclusion conclusion,
            @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Bound> bound) {

        public Contrasted(
                String subject,
                String reference,
                String metric,
                double ratio,
                double low,
                double high,
                Optional<Double> level,
                Conclusion conclusion) {
            this(subject, reference, metric, ratio, low, high, level, conclusion, Optional.empty());
        }

        /** This contrast with its bound, and the conclusion the bound leaves standing. */
        public Contrasted bounded(Bound b, Conclusion standing) {
            return new Contrasted(subject, reference, metric, ratio, low, high, level, standing, Optional.of(b));
        }

        /** The ratio as said: "4.00×", "at least 4.00×". */
        public String ratioWords(String ratio) {
            return bound.map(b -> b.words() + " " + ratio).orElse(ratio);
        }
    }

    /**
     * Where a ratio is only a bound (issue #52): a capacity search whose every repetition met the objective at the
     * top of the range searched measured a lower bound of the capacity, not the capacity — over a variant whose
     * capacity was found, the ratio is a floor ({@code at least}); under it, a ceiling ({@code at most}); both at
     * the top, the ratio says nothing ({@code unknown}).
     */
    public enum Bound {
        AT_LEAST("at least"),
        AT_MOST("at most"),
        UNKNOWN("unknown");

        private final String words;

        Bound(String words) {
            this.words = words;
        }

        @com.fasterxml.jackson.annotation.JsonValue
        public String words() {
            return words;
        }
    }
}
