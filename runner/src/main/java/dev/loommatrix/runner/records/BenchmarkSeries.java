package dev.loommatrix.runner.records;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.result.Benchmark;
import dev.loommatrix.core.result.Sample;
import dev.loommatrix.core.stats.MetricDescriptor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A user workload's variant as its runs are read, whatever the format: one series of samples per benchmark (in the
 * order first seen), and the problems met on the way.
 */
final class BenchmarkSeries {

    /** One benchmark's samples across the variant's runs. */
    record Series(Benchmark benchmark, MetricDescriptor metric, List<Sample> samples) {}

    private final Map<String, Series> series = new LinkedHashMap<>();
    private final List<String> problems = new ArrayList<>();

    /** A run's sample of a benchmark; the benchmark's first sample fixes the metric it is judged by. */
    void add(Benchmark benchmark, MetricDescriptor metric, Map<String, Object> sample) {
        series.computeIfAbsent(benchmark.label(), k -> new Series(benchmark, metric, new ArrayList<>()))
                .samples()
                .add(Sample.of(sample));
    }

    void problem(String problem) {
        problems.add(problem);
    }

    List<String> problems() {
        return problems;
    }

    Collection<Series> all() {
        return series.values();
    }

    /** A JSON number, or JMH's "NaN" string for an error it could not compute: absent. */
    static Optional<Double> number(JsonNode node) {
        return node.isNumber() && Double.isFinite(node.asDouble()) ? Optional.of(node.asDouble()) : Optional.empty();
    }
}
