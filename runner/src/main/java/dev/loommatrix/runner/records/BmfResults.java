package dev.loommatrix.runner.records;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.result.Benchmark;
import dev.loommatrix.core.stats.MetricDescriptor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a program's report becomes: the numbers it wrote in Bencher Metric Format
 * ({@code {benchmark: {measure: {value, lower_value, upper_value}}}}, collected by the agent) as samples.
 */
final class BmfResults {

    private BmfResults() {}

    /** What a program's metrics file should hold, said where it did not. */
    static final String BMF_EXPECTED = "; Bencher Metric Format is a JSON object of benchmarks, each an object of"
            + " measures with a numeric value: {\"handle-requests\": {\"roundMs\": {\"value\": 12.5}}}";

    /** The key of a BMF measure under which a program lists its rounds (beside {@code value}). */
    static final String ROUNDS = "iterations";

    /** Why the agent could not collect a program's metrics file, with what the file should hold. */
    static String unreadable(String error) {
        return "the program's metrics file ($" + UserWorkload.Program.METRICS_FILE_ENV + ", " + error + ")"
                + BMF_EXPECTED;
    }

    /**
     * One run of a program: its process time, and one series per benchmark it named. A program that reports nothing
     * is one series named after the workload, judged by its process time; a declared metric missing from a run's
     * report is a problem. The judged measure may also carry its {@code iterations} (the program's own rounds, in
     * order: a key Bencher's schema leaves open): they are kept as the sample's {@code iterations} fact, one fork of
     * them, as a JMH fork's are, so an A/B's nested model uses them (issue #30).
     */
    static void add(
            String workloadId,
            UserWorkload.Program program,
            JvmRun run,
            int index,
            Map<String, Object> common,
            BenchmarkSeries out) {
        JsonNode reported = run.host().collected().orElse(null);
        Map<String, String> units = new LinkedHashMap<>();
        program.metrics().forEach((name, d) -> units.put(name, d.unit()));
        units.put("processMs", "ms");
        MetricDescriptor judged = program.judgedBy();
        if (reported == null || !reported.isObject() || reported.isEmpty()) {
            if (!program.metrics().isEmpty()) {
                out.problem("run " + (index + 1) + " reported no metrics (the program writes Bencher Metric Format "
                        + "JSON to the file named by $" + UserWorkload.Program.METRICS_FILE_ENV + ")");
                return;
            }
            Benchmark benchmark = new Benchmark(workloadId, Optional.empty(), Map.of(), units, Map.of());
            out.add(benchmark, judged, new LinkedHashMap<>(common));
            return;
        }
        reported.properties().forEach(entry -> {
            Map<String, Object> sample = new LinkedHashMap<>(common);
            entry.getValue().properties().forEach(measure -> BenchmarkSeries.number(
                            measure.getValue().path("value"))
                    .ifPresent(v -> sample.put(measure.getKey(), v)));
            rounds(entry.getKey(), entry.getValue(), judged, index, sample, out);
            for (String declared : program.metrics().keySet()) {
                if (!sample.containsKey(declared)) {
                    out.problem("run " + (index + 1) + ": benchmark " + entry.getKey() + " reported no '" + declared
                            + "' (it reported " + String.join(", ", fieldNames(entry.getValue())) + ")");
                }
            }
            out.add(new Benchmark(entry.getKey(), Optional.empty(), Map.of(), units, Map.of()), judged, sample);
        });
    }

    /** The judged measure's rounds, where the program listed them, as the sample's iterations (one fork). */
    private static void rounds(
            String benchmark,
            JsonNode measures,
            MetricDescriptor judged,
            int index,
            Map<String, Object> sample,
            BenchmarkSeries out) {
        JsonNode rounds = measures.path(judged.name()).path(ROUNDS);
        if (rounds.isMissingNode()) {
            return;
        }
        roundsOf(rounds)
                .ifPresentOrElse(
                        r -> sample.put("iterations", List.of(r)),
                        () -> out.problem("run " + (index + 1) + ": benchmark " + benchmark + ": '" + judged.name()
                                + "." + ROUNDS + "' is not an array of positive numbers (" + abbreviated(rounds)
                                + "); it holds the program's rounds in the order they ran, e.g. [12.5, 12.1, 12.3]"));
    }

    /** A measure's rounds: a non-empty array of finite positive numbers, else empty. */
    private static Optional<List<Double>> roundsOf(JsonNode node) {
        if (!node.isArray() || node.isEmpty()) {
            return Optional.empty();
        }
        List<Double> rounds = new ArrayList<>();
        for (JsonNode value : node) {
            Optional<Double> v = BenchmarkSeries.number(value).filter(x -> x > 0);
            if (v.isEmpty()) {
                return Optional.empty();
            }
            rounds.add(v.get());
        }
        return Optional.of(List.copyOf(rounds));
    }

    private static String abbreviated(JsonNode node) {
        String text = node.toString();
        return text.length() <= 60 ? text : text.substring(0, 57) + "...";
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
