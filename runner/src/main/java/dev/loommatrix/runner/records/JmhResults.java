package dev.loommatrix.runner.records;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.result.Benchmark;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.stats.MetricDescriptor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** What a JMH result becomes: one run's JSON result (the agent collected it into its host's line) as samples. */
final class JmhResults {

    private JmhResults() {}

    /**
     * One run's JMH results: a sample per benchmark × parameters, its score and secondary metrics, the
     * iterations' raw scores kept as a fact. A requested benchmark with no score is a problem: JMH exits 0
     * with an empty result when its forks cannot start.
     */
    static void add(
            UserWorkload.Jmh jmh,
            UserWorkload.VariantSettings settings,
            JvmRun run,
            int index,
            Map<String, Object> common,
            BenchmarkSeries out) {
        JsonNode results = run.host().collected().orElse(null);
        List<String> scored = new ArrayList<>();
        if (results != null && results.isArray()) {
            int count = results.size();
            for (int k = 0; k < count; k++) {
                Map<String, Object> sample = new LinkedHashMap<>(common);
                sample.putAll(jvmUseOf(run, k, count));
                benchmark(results.get(k), settings, sample, out).ifPresent(scored::add);
            }
        }
        for (String wanted : jmh.benchmarksOf(settings)) {
            if (!scored.contains(wanted)) {
                out.problem("run " + (index + 1) + " produced no score for " + wanted
                        + (results == null
                                ? " (JMH wrote no result file)"
                                : " (JMH's result has none: its forks may have failed to start, or the benchmark"
                                        + " threw; see JMH's output in the cell log)"));
            }
        }
    }

    /** One entry of JMH's result as a sample of its benchmark; the benchmark's name when it has a score. */
    private static Optional<String> benchmark(
            JsonNode r, UserWorkload.VariantSettings settings, Map<String, Object> sample, BenchmarkSeries out) {
        String name = r.path("benchmark").asText();
        String mode = r.path("mode").asText();
        // the variant's own parameters name the variant, the rest the benchmark
        Map<String, String> shared = new TreeMap<>();
        Map<String, String> own = new TreeMap<>();
        r.path("params").properties().forEach(e -> {
            String value = e.getValue().asText();
            (settings.params().containsKey(e.getKey()) ? own : shared).put(e.getKey(), value);
        });
        JsonNode primary = r.path("primaryMetric");
        Optional<Double> score = BenchmarkSeries.number(primary.path("score"));
        if (score.isEmpty()) {
            return Optional.empty();
        }
        Map<String, String> units = new LinkedHashMap<>();
        sample.put("score", score.get());
        BenchmarkSeries.number(primary.path("scoreError")).ifPresent(e -> sample.put("scoreError", e));
        if (primary.has("rawData")) {
            sample.put("iterations", Json.MAPPER.convertValue(primary.path("rawData"), List.class));
        }
        r.path("secondaryMetrics").properties().forEach(e -> {
            String metric = e.getKey().replace("·", "");
            BenchmarkSeries.number(e.getValue().path("score")).ifPresent(v -> sample.put(metric, v));
            units.put(metric, e.getValue().path("scoreUnit").asText());
        });
        MetricDescriptor metric = new MetricDescriptor(
                "score",
                primary.path("scoreUnit").asText(),
                mode.equals("thrpt")
                        ? MetricDescriptor.Direction.HIGHER_IS_BETTER
                        : MetricDescriptor.Direction.LOWER_IS_BETTER);
        // a variant that names its method is paired with the others by the method's class
        Optional<String> method = settings.method();
        String paired = method.map(m -> UserWorkload.Jmh.classOf(name)).orElse(name);
        out.add(new Benchmark(paired, Optional.of(mode), shared, units, own, method), metric, sample);
        return Optional.of(name);
    }

    /**
     * What the JVMs that ran benchmark {@code k} of {@code count} used, as the agent saw them. Without
     * forks one JVM ran every benchmark: its numbers belong to a benchmark only when it ran just that one.
     * With forks, JMH runs each benchmark (and parameter combination) in its own forks, in the order of
     * its results: the forks split evenly into consecutive groups. Anything else is not attributed — the
     * agent's lines in the raw output keep it.
     */
    static Map<String, Object> jvmUseOf(JvmRun run, int k, int count) {
        if (run.forks().isEmpty()) {
            return count == 1 ? JvmUse.of(List.of(run.host()), false) : Map.of();
        }
        if (run.forks().size() % count != 0) {
            return Map.of();
        }
        int each = run.forks().size() / count;
        return JvmUse.of(run.forks().subList(k * each, (k + 1) * each), true);
    }
}
