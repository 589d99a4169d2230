package dev.loommatrix.core.compare;

import java.util.List;

/**
 * One cell variant, baseline against candidate (the contract's {@code compare --format json} entry). For a
 * user workload, one benchmark (with its parameters) of that variant: {@code benchmark} names it.
 *
 * @param ratio candidate median / baseline median of {@code metric}
 * @param ci95 an interval for that ratio ({@link dev.loommatrix.core.stats.RatioInterval}) at level
 *     {@code ciLevel}: 95 % where the sample sizes allow it, less where they cannot (3 against 3: 90 %)
 * @param pValue two-sided Mann-Whitney U on the samples; NaN where a side has fewer than 2 samples
 * @param pAdjusted Benjamini–Hochberg across every comparison of the report
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
                Double ciLevel) {

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
                ciLevel);
    }
}
