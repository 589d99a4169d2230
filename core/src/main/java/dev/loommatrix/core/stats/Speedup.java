package dev.loommatrix.core.stats;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Optional;

/**
 * How many times better the variant {@code over} is than {@code variant} in the same cell, on the metric
 * the cell is judged by: {@code ratio} > 1 means {@code over} wins (variant's time / over's time, or over's
 * throughput / variant's). {@code ci95} is the interval of that ratio ({@link RatioInterval}), at the level
 * {@code ciLevel} says (95 % where the sample sizes allow it; absent in files written before it was recorded,
 * whose interval was a percentile bootstrap). For a built-in workload
 * {@code over} is {@code virtual}; for a user workload {@code variant} is the entry's baseline and
 * {@code benchmark} names the benchmark (with its parameters) both variants measured.
 */
public record Speedup(
        String variant,
        String over,
        String metric,
        double ratio,
        List<Double> ci95,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> benchmark,
        @JsonInclude(JsonInclude.Include.NON_NULL) Double ciLevel) {

    public static final String VIRTUAL = "virtual";

    public Speedup {
        ci95 = List.copyOf(ci95);
        benchmark = benchmark == null ? Optional.empty() : benchmark;
    }

    /**
     * @param subject the variant whose speedup this is, with its values of {@code metric}
     * @param reference the variant it is taken over, with its values
     * @param seed fixes the bootstrap, so the same data give the same interval in every report
     */
    public static Speedup of(
            String subject,
            String reference,
            Optional<String> benchmark,
            MetricDescriptor metric,
            double[] subjectValues,
            double[] referenceValues,
            long seed) {
        // the subject wins when its time is lower (reference / subject) or its throughput higher
        // (subject / reference); RatioInterval gives median(y) / median(x)
        double[] x = metric.higherIsBetter() ? referenceValues : subjectValues;
        double[] y = metric.higherIsBetter() ? subjectValues : referenceValues;
        RatioInterval.Result interval = RatioInterval.of(x, y, seed);
        return new Speedup(
                reference,
                subject,
                metric.name(),
                RatioInterval.median(y) / RatioInterval.median(x),
                interval.bounds(),
                benchmark,
                Double.isNaN(interval.level()) ? null : interval.level());
    }
}
