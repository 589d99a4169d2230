package dev.loommatrix.core.result;

import dev.loommatrix.core.stats.MetricDescriptor;
import dev.loommatrix.core.stats.RatioInterval;
import dev.loommatrix.core.stats.Summary;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One variant of a cell: every repetition's sample, the summary of {@code wallMs}, and the lower bound
 * where the workload has one. {@code efficiency} = lowerBoundMs / median wallMs (1.0 = as fast as
 * physics allows).
 *
 * @param metric the metric this variant is judged by (speedups, compare, trends): its name, unit and
 *     direction; files written before it existed get the catalogue's (see {@link CellRecord})
 */
public record Measurement(
        String variant,
        Map<String, Long> params,
        MetricDescriptor metric,
        List<Sample> samples,
        Optional<Summary> summary,
        Optional<Summary> processSummary,
        Optional<Double> lowerBoundMs,
        Optional<Double> efficiency,
        Optional<Ceiling> ceiling,
        Optional<String> error,
        Optional<Benchmark> benchmark) {

    public Measurement {
        samples = List.copyOf(samples);
        params = Map.copyOf(params);
        benchmark = benchmark == null ? Optional.empty() : benchmark;
    }

    /** A built-in workload's measurement: one per variant, no benchmark name. */
    public Measurement(
            String variant,
            Map<String, Long> params,
            MetricDescriptor metric,
            List<Sample> samples,
            Optional<Summary> summary,
            Optional<Summary> processSummary,
            Optional<Double> lowerBoundMs,
            Optional<Double> efficiency,
            Optional<Ceiling> ceiling,
            Optional<String> error) {
        this(
                variant,
                params,
                metric,
                samples,
                summary,
                processSummary,
                lowerBoundMs,
                efficiency,
                ceiling,
                error,
                Optional.empty());
    }

    /**
     * What this measurement is within its cell: the variant, and for a user workload the benchmark with its
     * parameters. Compare, speedups and history pair measurements by it.
     */
    public String series() {
        return benchmark.map(b -> variant + " · " + b.label()).orElse(variant);
    }

    /** The benchmark part of {@link #series()} ("" for a built-in workload): the key speedups pair variants on. */
    public String benchmarkLabel() {
        return benchmark.map(Benchmark::label).orElse("");
    }

    /** The median of a numeric sample metric, if every sample has it. */
    public Optional<Double> medianOf(String metric) {
        double[] values = values(metric);
        if (values.length == 0 || values.length < samples.size()) {
            return Optional.empty();
        }
        return Optional.of(RatioInterval.median(values));
    }

    /** The numeric values of one sample metric, in repetition order (samples without it are skipped). */
    public double[] values(String metric) {
        return samples.stream()
                .flatMap(s -> s.metric(metric).stream())
                .mapToDouble(Double::doubleValue)
                .toArray();
    }

    /** The values of the metric this variant is judged by. */
    public double[] judged() {
        return values(metric.name());
    }

    /** This measurement judged by another metric (files from before the descriptor was recorded). */
    Measurement judgedBy(MetricDescriptor other) {
        return new Measurement(
                variant,
                params,
                other,
                samples,
                summary,
                processSummary,
                lowerBoundMs,
                efficiency,
                ceiling,
                error,
                benchmark);
    }

    /** The thread count reached when a resource limit stopped thread creation. */
    public record Ceiling(long threads, String reason) {}
}
