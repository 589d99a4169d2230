package dev.loommatrix.core.compare;

import java.util.List;

/**
 * One cell variant, baseline against candidate (the contract's {@code compare --format json} entry). For a
 * user workload, one benchmark (with its parameters) of that variant: {@code benchmark} names it.
 *
 * @param ratio candidate median / baseline median of {@code metric}
 * @param ci95 an interval for that ratio ({@link dev.loommatrix.core.stats.RatioInterval}) at level
 *     {@code ciLevel}: 95 % where the sample sizes allow it, less where they cannot (3 against 3: 90 %)
 * @param pValue two-sided, of {@code test}; NaN where a side has no sample
 * @param pAdjusted Benjamini–Hochberg across every comparison of the report
 * @param test {@code mann-whitney} (the two sides' samples as two groups) or {@code signed-rank} (an A/B
 *     run's blocks paired: the Wilcoxon signed-rank test on the per-pair log-ratios, whose
 *     Hodges–Lehmann estimate is then {@code ratio}); absent in files written before it was recorded
 * @param pairs how many back-to-back block pairs a {@code signed-rank} comparison rests on
 * @param detectable the smallest change this comparison could have flagged (0.12: a 12 % change), given
 *     its own noise and sample sizes, the test, the number of comparisons and the threshold: the least
 *     shift of the candidate, with the observed change taken out, that would have been significant as a
 *     lone discovery and beyond the threshold. Null where nothing could have been (inconclusive).
 * @param noise the typical relative difference between two measurements of the same thing in this
 *     comparison (a robust standard deviation, from the median absolute deviation of the log values):
 *     of paired log-ratios when paired, of both sides' samples otherwise
 * @param confirmation in an A/B run, a change flagged by the first pass and measured again
 * @param nested in an A/B run whose forks ran iterations: the forks' spread between and within them, and where
 *     the forks split into two modes (then the fork-level signed-rank test is used, and said)
 */
public record Comparison(
        String cellId,
        String variant,
        String metric,
        boolean higherIsBetter,
        Side baseline,
        Side candidate,
        double ratio,
        List<Double> ci95,
        double pValue,
        double pAdjusted,
        Verdict verdict,
        java.util.Optional<String> benchmark,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                Double ciLevel,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                String test,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                Integer pairs,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                Double detectable,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                Double noise,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                Confirmation confirmation,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                Nested nested) {

    public static final String MANN_WHITNEY = "mann-whitney";
    public static final String SIGNED_RANK = "signed-rank";
    /** The paired t-test on the pairs' differences of fork means: the nested model ({@link dev.loommatrix.core.stats.NestedPaired}). */
    public static final String NESTED_T = "nested-t";

    /**
     * What the forks' iterations said (log scale, as relative spreads): the standard deviation between forks and
     * within a fork, the iterations a fork measured; {@code modes} when the forks fell into two groups.
     */
    public record Nested(Double betweenForks, Double withinForks, Double iterationsPerFork, String modes) {}

    /**
     * A change flagged by an A/B run's first pass, measured again (only its cell) before it is called one.
     *
     * @param extraPairs block pairs added to the first pass's
     * @param firstVerdict what the first pass said
     * @param confirmed whether every pair together says the same
     */
    public record Confirmation(int extraPairs, Verdict firstVerdict, boolean confirmed) {}

    public record Side(int n, double median) {}

    public enum Verdict {
        regression,
        improvement,
        unchanged,
        /** Too few samples for the test ever to reach significance (e.g. 3 vs 3: the smallest p is 0.1). */
        inconclusive
    }

    public Comparison {
        ci95 = List.copyOf(ci95);
        benchmark = benchmark == null ? java.util.Optional.empty() : benchmark;
    }

    Comparison withAdjusted(double adjusted, Verdict verdict) {
        return new Comparison(
                cellId,
                variant,
                metric,
                higherIsBetter,
                baseline,
                candidate,
                ratio,
                ci95,
                pValue,
                adjusted,
                verdict,
                benchmark,
                ciLevel,
                test,
                pairs,
                detectable,
                noise,
                confirmation,
                nested);
    }

    /**
     * Whether this comparison could have detected no change at all: its noise was measured, but its test cannot
     * reach α / m with the pairs it had, so there is no detectable change to state. Named without a get/is prefix
     * so that Jackson and the results schema do not take it for a property.
     */
    public boolean detectsNothing() {
        return detectable == null && noise != null;
    }

    /**
     * This comparison as a sequential A/B leaves one its looks did not decide: {@code inconclusive} — its interval
     * still holds a change beyond the threshold and less than that — with what it could have detected.
     */
    public Comparison undecided() {
        return withAdjusted(pAdjusted(), Verdict.inconclusive);
    }

    /** This comparison, the second look at a change the first pass flagged. */
    public Comparison withConfirmation(Confirmation confirmation) {
        return new Comparison(
                cellId,
                variant,
                metric,
                higherIsBetter,
                baseline,
                candidate,
                ratio,
                ci95,
                pValue,
                pAdjusted,
                verdict,
                benchmark,
                ciLevel,
                test,
                pairs,
                detectable,
                noise,
                confirmation,
                nested);
    }

    /** The series this comparison is of within its cell, as {@link dev.loommatrix.core.result.Measurement#series()}. */
    public String series() {
        return benchmark.map(b -> variant + " · " + b).orElse(variant);
    }
}
