package dev.loommatrix.runner.backend;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.loommatrix.runner.plan.Cell;
import dev.loommatrix.runner.result.Json;
import dev.loommatrix.runner.result.Measurement;
import dev.loommatrix.runner.stats.Summary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns what a cell left in its raw directory — one harness record per JVM run
 * ({@code <variant>.records.jsonl}, warmup runs first) and the driver's timings
 * ({@code <variant>.hyperfine.json}) — into measurements. Works on partial output: a variant that died
 * after three repetitions still contributes three samples.
 */
public final class RawResults {

    /** Records of one variant, warmups dropped, and the process times the driver measured. */
    public record VariantData(String variant, List<Map<String, Object>> records, List<Double> processMs) {}

    private RawResults() {}

    public static VariantData read(Path rawDir, String variant, int warmup) throws IOException {
        String slug = HarnessCommand.slug(variant);
        List<Map<String, Object>> records = new ArrayList<>();
        Path recordsFile = rawDir.resolve(slug + ".records.jsonl");
        if (Files.isRegularFile(recordsFile)) {
            List<String> lines = Files.readAllLines(recordsFile).stream()
                    .filter(l -> !l.isBlank())
                    .toList();
            for (String line : lines.subList(Math.min(warmup, lines.size()), lines.size())) {
                records.add(Json.MAPPER.readValue(line, new TypeReference<Map<String, Object>>() {}));
            }
        }
        List<Double> processMs = new ArrayList<>();
        Path timings = rawDir.resolve(slug + ".hyperfine.json");
        if (Files.isRegularFile(timings)) {
            var root = Json.MAPPER.readTree(timings.toFile());
            for (var t : root.path("results").path(0).path("times")) {
                processMs.add(t.asDouble() * 1000.0);
            }
        }
        return new VariantData(variant, records, processMs);
    }

    public static Measurement measurement(Cell cell, VariantData data, Optional<String> error) {
        List<Map<String, Object>> samples = new ArrayList<>();
        Optional<Double> lowerBound = Optional.empty();
        Optional<Measurement.Ceiling> ceiling = Optional.empty();
        for (int i = 0; i < data.records().size(); i++) {
            Map<String, Object> record = data.records().get(i);
            Map<String, Object> sample = new LinkedHashMap<>();
            sample.put("wallMs", number(record.get("wallMs")));
            if (i < data.processMs().size()) {
                sample.put("processMs", data.processMs().get(i));
            }
            if (record.get("metrics") instanceof Map<?, ?> metrics) {
                metrics.forEach((k, v) -> sample.put(String.valueOf(k), v));
            }
            samples.add(sample);
            if (record.get("lowerBoundMs") != null) {
                lowerBound = Optional.of(number(record.get("lowerBoundMs")));
            }
            if (record.get("ceiling") instanceof Map<?, ?> c) {
                long threads = ((Number) c.get("threads")).longValue();
                if (ceiling.isEmpty() || threads < ceiling.get().threads()) {
                    ceiling = Optional.of(new Measurement.Ceiling(threads, String.valueOf(c.get("reason"))));
                }
            }
        }
        Optional<Summary> summary = samples.isEmpty()
                ? Optional.empty()
                : Optional.of(Summary.of(samples.stream()
                        .mapToDouble(s -> (double) s.get("wallMs"))
                        .toArray()));
        Optional<Summary> processSummary = data.processMs().isEmpty()
                ? Optional.empty()
                : Optional.of(Summary.of(data.processMs().stream()
                        .mapToDouble(Double::doubleValue)
                        .toArray()));
        Optional<Double> efficiency = lowerBound.flatMap(lb -> summary.map(s -> lb / s.median()));
        Optional<String> problem = error;
        int expected = cell.repetitions();
        if (problem.isEmpty() && samples.size() < expected) {
            problem = Optional.of("only " + samples.size() + " of " + expected + " repetitions produced a record");
        }
        return new Measurement(
                data.variant(),
                cell.workload().params(),
                samples,
                summary,
                processSummary,
                lowerBound,
                efficiency,
                ceiling,
                problem);
    }

    /** The environment block of the first record: what the JVM under test reported about itself. */
    public static Optional<Map<String, Object>> firstEnvironment(List<VariantData> variants) {
        for (VariantData data : variants) {
            for (Map<String, Object> record : data.records()) {
                if (record.get("environment") instanceof Map<?, ?> env) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> typed = (Map<String, Object>) env;
                    return Optional.of(typed);
                }
            }
        }
        return Optional.empty();
    }

    private static double number(Object value) {
        return value instanceof Number n ? n.doubleValue() : Double.NaN;
    }
}
