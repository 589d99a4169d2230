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
     * The speedup in words, so a reader of the record need not know which field is which: "virtual is 5.00× better
     * than tomcat-20 on throughput (higher is better)", or "… 3.76× worse …" below 1.
     */
    @com.fasterxml.jackson.annotation.JsonProperty(
            value = "says",
            access = com.fasterxml.jackson.annotation.JsonProperty.Access.READ_ONLY)
    public String says() {
        boolean better = ratio >= 1;
        return String.format(
                java.util.Locale.ROOT,
                "%s is %.3g× %s than %s on %s",
                over,
                better ? ratio : 1 / ratio,
                better ? "better" : "worse",
                variant,
                metricWords(metric));
    }

    /** A judged metric as a reader names it, with which way is better: "time (lower is better)". */
    public static String metricWords(String metric) {
        return switch (metric) {
            case "wallMs" -> "time (lower is better)";
            case "coldStartMs" -> "cold-start time (lower is better)";
            case "processMs" -> "process time (lower is better)";
            case "throughputPerSecond" -> "throughput (higher is better)";
            case "latencyP99Ms" -> "p99 latency (lower is better)";
            case "capacityPerSecond" -> "capacity within the latency objective (higher is better)";
            case "rssBytesPerThread" -> "resident memory per thread (lower is better)";
            default -> metric;
        };
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
