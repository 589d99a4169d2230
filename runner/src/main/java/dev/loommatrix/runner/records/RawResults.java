package dev.loommatrix.runner.records;

import dev.loommatrix.core.matrix.Iterations;
import dev.loommatrix.core.matrix.Workloads;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.result.Sample;
import dev.loommatrix.core.stats.MannKendall;
import dev.loommatrix.core.stats.Summary;
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

    /**
     * Records of one variant, warmups dropped, and the process times the driver measured.
     *
     * @param problem why some records could not be used (a wrong schema version, a missing wallMs): the
     *     variant then fails with this reason instead of carrying a number that is not one
     */
    public record VariantData(
            String variant, List<HarnessRecord> records, List<Double> processMs, Optional<String> problem) {}

    /**
     * One line of {@code <variant>.records.jsonl}: what the harness (or the agent) wrote after one JVM
     * run. Only what the runner uses is typed; the rest of the line is ignored.
     */
    @com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
    public record HarnessRecord(
            int schemaVersion,
            double wallMs,
            Optional<Double> lowerBoundMs,
            Map<String, Object> metrics,
            Optional<HarnessEnvironment> environment,
            Optional<Measurement.Ceiling> ceiling,
            Optional<Double> coldStartMs,
            Optional<Map<String, Object>> iterations,
            Optional<TurnPlacement> turns) {

        /** The harness's record format this runner reads. */
        public static final int SCHEMA_VERSION = 1;

        public HarnessRecord {
            metrics = metrics == null ? Map.of() : Map.copyOf(metrics);
        }

        /** One line, checked: the schema version this runner reads and a finite {@code wallMs}. */
        static HarnessRecord parse(String line, String where) throws IOException {
            var tree = Json.MAPPER.readTree(line);
            int version = tree.path("schemaVersion").asInt(-1);
            if (version != SCHEMA_VERSION) {
                throw new IOException(where + ": harness record schema " + (version < 0 ? "(none)" : version)
                        + ", this runner reads " + SCHEMA_VERSION
                        + " (the cell's image carries another harness than this runner's)");
            }
            if (!tree.path("wallMs").isNumber()
                    || !Double.isFinite(tree.path("wallMs").asDouble())) {
                throw new IOException(where + ": the harness record has no wallMs (a number) — "
                        + "the workload did not report its own time");
            }
            return Json.MAPPER.treeToValue(tree, HarnessRecord.class);
        }
    }

    /**
     * Where a fork in lockstep began its turns (issue #30; the harness's {@code turns}): the CPU and how many of its
     * turns began there, or why its turns could not be placed (a JVM before 22).
     */
    @com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
    public record TurnPlacement(
            int taken, Optional<Integer> cpu, Optional<Integer> beganOnCpu, Optional<String> cpuNotSet) {}

    private RawResults() {}

    /** Every fork's record in a cell's raw directory, warmup forks and all variants, file by file (by name). */
    public static List<HarnessRecord> allRecords(Path rawDir) throws IOException {
        List<HarnessRecord> records = new ArrayList<>();
        for (Path file : RecordsFile.all(rawDir)) {
            for (RecordsFile.Line line : RecordsFile.lines(file)) {
                records.add(HarnessRecord.parse(line.json(), line.where()));
            }
        }
        return records;
    }

    public static VariantData read(Path rawDir, String variant, int warmup) throws IOException {
        List<HarnessRecord> records = new ArrayList<>();
        Optional<String> problem = Optional.empty();
        List<RecordsFile.Line> lines = RecordsFile.lines(rawDir, variant);
        // one line per JVM run, the warmup runs' first
        for (RecordsFile.Line line : lines.subList(Math.min(warmup, lines.size()), lines.size())) {
            try {
                records.add(HarnessRecord.parse(line.json(), line.where()));
            } catch (IOException e) {
                problem = Optional.of(e.getMessage());
                break;
            }
        }
        return new VariantData(variant, records, processTimes(rawDir, CellFiles.slug(variant)), problem);
    }

    /**
     * What the driver timed of each measured JVM run, in ms: hyperfine's export (warmups already left out),
     * or the runner's own timer's in the same layout. Empty when the variant never got that far.
     */
    static List<Double> processTimes(Path rawDir, String slug) throws IOException {
        List<Double> processMs = new ArrayList<>();
        Path timings = rawDir.resolve(slug + ".hyperfine.json");
        if (Files.isRegularFile(timings)) {
            for (var t : Json.MAPPER
                    .readTree(timings.toFile())
                    .path("results")
                    .path(0)
                    .path("times")) {
                processMs.add(t.asDouble() * 1000.0);
            }
        }
        return processMs;
    }

    /** A fork whose measured iterations trend at this level (Mann-Kendall, two-sided) is not steady. */
    static final double STEADY_ALPHA = 0.05;

    /**
     * The Mann-Kendall p-value of a fork's measured iterations, where there are enough of them to show a trend
     * at all (5: the smallest exact p of 4 is 2 / 4! = 0.083, above {@link #STEADY_ALPHA}).
     */
    static Optional<Double> steadyState(HarnessRecord record, int warmup) {
        Object all = record.iterations().map(it -> it.get("wallMs")).orElse(null);
        if (!(all instanceof List<?> list) || list.size() - warmup < 5) {
            return Optional.empty();
        }
        double[] measured = list.subList(warmup, list.size()).stream()
                .mapToDouble(v -> ((Number) v).doubleValue())
                .toArray();
        return Optional.of(MannKendall.pValue(measured));
    }

    public static Measurement measurement(Cell cell, VariantData data, Optional<String> error) {
        List<Sample> samples = new ArrayList<>();
        Optional<Double> lowerBound = Optional.empty();
        Optional<Measurement.Ceiling> ceiling = Optional.empty();
        for (int i = 0; i < data.records().size(); i++) {
            HarnessRecord record = data.records().get(i);
            Map<String, Object> sample = new LinkedHashMap<>(record.metrics());
            sample.put("wallMs", record.wallMs());
            // iterations inside the fork: wallMs is their median; the first iteration (the cold start) is its own
            // metric, and every iteration's time is kept with the sample, warmups first (the cell says how many)
            record.coldStartMs().ifPresent(ms -> sample.put(Measurement.COLD_START, ms));
            record.iterations().map(it -> it.get("wallMs")).ifPresent(all -> sample.put("iterationsWallMs", all));
            steadyState(record, cell.iterations().warmup()).ifPresent(p -> {
                sample.put("trendP", p);
                sample.put(Measurement.STEADY, p >= STEADY_ALPHA);
            });
            if (i < data.processMs().size()) {
                sample.put("processMs", data.processMs().get(i));
            }
            samples.add(Sample.of(sample));
            if (record.lowerBoundMs().isPresent()) {
                lowerBound = record.lowerBoundMs();
            }
            if (record.ceiling().isPresent()
                    && (ceiling.isEmpty()
                            || record.ceiling().get().threads() < ceiling.get().threads())) {
                ceiling = record.ceiling();
            }
        }
        // the summary is of the metric the cell is judged by (http-server: its throughput, not its window's 1,000 ms)
        dev.loommatrix.core.stats.MetricDescriptor judged =
                Workloads.judgedBy(cell.coordinates().workload());
        double[] judgedValues = samples.stream()
                .flatMap(x -> x.metric(judged.name()).stream())
                .mapToDouble(Double::doubleValue)
                .toArray();
        Optional<Summary> summary = judgedValues.length == 0 ? Optional.empty() : Optional.of(Summary.of(judgedValues));
        Optional<Summary> wall = samples.isEmpty()
                ? Optional.empty()
                : Optional.of(Summary.of(data.records().stream()
                        .mapToDouble(HarnessRecord::wallMs)
                        .toArray()));
        Optional<Summary> processSummary = data.processMs().isEmpty()
                ? Optional.empty()
                : Optional.of(Summary.of(data.processMs().stream()
                        .mapToDouble(Double::doubleValue)
                        .toArray()));
        Optional<Double> efficiency = lowerBound.flatMap(lb -> wall.map(w -> lb / w.median()));
        Optional<String> problem = error.or(data::problem);
        int expected = cell.repetitions();
        if (problem.isEmpty() && samples.size() < expected) {
            problem = Optional.of("only " + samples.size() + " of " + expected + " repetitions produced a record");
        }
        Measurement measurement = new Measurement(
                data.variant(),
                cell.workload().params(),
                Workloads.judgedBy(cell.coordinates().workload()),
                samples,
                summary,
                processSummary,
                lowerBound,
                efficiency,
                ceiling,
                problem);
        // forks that ran the workload more than once say so, and their cold starts get their own summary
        return cell.iterations().equals(Iterations.ONCE) ? measurement : measurement.withIterations(cell.iterations());
    }

    /** The environment block of the first record: what the JVM under test reported about itself. */
    public static Optional<HarnessEnvironment> firstEnvironment(List<VariantData> variants) {
        for (VariantData data : variants) {
            for (HarnessRecord record : data.records()) {
                if (record.environment().isPresent()) {
                    return record.environment();
                }
            }
        }
        return Optional.empty();
    }
}
