package dev.loommatrix.runner.result;

import dev.loommatrix.runner.stats.Summary;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One variant of a cell: every repetition's sample, the summary of {@code wallMs}, and the lower bound
 * where the workload has one. {@code efficiency} = lowerBoundMs / median wallMs (1.0 = as fast as
 * physics allows).
 */
public record Measurement(
        String variant,
        Map<String, Long> params,
        List<Map<String, Object>> samples,
        Optional<Summary> summary,
        Optional<Summary> processSummary,
        Optional<Double> lowerBoundMs,
        Optional<Double> efficiency,
        Optional<Ceiling> ceiling,
        Optional<String> error) {

    public Measurement {
        samples = List.copyOf(samples);
        params = Map.copyOf(params);
    }

    /** The median of a numeric sample metric, if every sample has it. */
    public Optional<Double> medianOf(String metric) {
        double[] values = values(metric);
        if (values.length == 0 || values.length < samples.size()) {
            return Optional.empty();
        }
        return Optional.of(dev.loommatrix.runner.stats.RatioInterval.median(values));
    }

    /** The numeric values of one sample metric, in repetition order (samples without it are skipped). */
    public double[] values(String metric) {
        return samples.stream()
                .map(s -> s.get(metric))
                .filter(v -> v instanceof Number)
                .mapToDouble(v -> ((Number) v).doubleValue())
                .filter(v -> !Double.isNaN(v))
                .toArray();
    }

    /** The thread count reached when a resource limit stopped thread creation. */
    public record Ceiling(long threads, String reason) {}
}
