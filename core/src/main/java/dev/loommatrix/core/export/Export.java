package dev.loommatrix.core.export;

import dev.loommatrix.core.plan.Coordinates;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.result.Sample;
import dev.loommatrix.core.stats.MetricDescriptor;
import dev.loommatrix.core.stats.Summary;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * A run's results in the formats other tools read: JMH's JSON result format (github-action-benchmark,
 * JMH Visualizer…), the Bencher Metric Format, and a flat CSV with one row per measured value. Only
 * cells that measured something are exported; each variant of a cell is one benchmark.
 */
public final class Export {

    public enum Format {
        JMH,
        BMF,
        CSV
    }

    private Export() {}

    /**
     * A benchmark's name: the workload (a user's JMH benchmark keeps its own {@code class.method}, a
     * program's reported benchmark its name), then where it ran and which variant, as one stable string.
     */
    static String name(CellRecord cell, Measurement m) {
        return m.benchmark()
                .map(b -> b.jmhName() + " [" + cell.cellId() + " " + m.variant() + "]"
                        + (b.params().isEmpty() ? "" : " " + b.params()))
                .orElse("loom-matrix." + cell.coordinates().workload() + " [" + cell.cellId() + " " + m.variant()
                        + "]");
    }

    /**
     * The axes of the cell and the variant, as JMH parameters (strings, as JMH has them), and a user
     * benchmark's own {@code @Param} values — those every variant ran with and those its variant set.
     */
    static Map<String, String> params(Coordinates c, Measurement m) {
        Map<String, String> params = new LinkedHashMap<>(c.axisValues());
        params.put("vm", c.vm());
        params.put("version", String.valueOf(c.version()));
        params.put("variant", m.variant());
        new TreeMap<>(m.params()).forEach((k, v) -> params.put(k, String.valueOf(v)));
        m.benchmark().ifPresent(b -> {
            params.putAll(b.params());
            params.putAll(b.variantParams());
        });
        return params;
    }

    /**
     * JMH's JSON result format. Each repetition is a fresh JVM measured once, so it is one fork of one
     * iteration; the mode is single-shot time for a time and throughput for a rate, as JMH names them.
     */
    public static List<Map<String, Object>> jmh(List<CellRecord> cells) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (CellRecord cell : cells) {
            for (Measurement m : cell.measurements()) {
                double[] values = m.judged();
                if (values.length == 0) {
                    continue;
                }
                Map<String, Object> b = new LinkedHashMap<>();
                b.put("jmhVersion", "loom-matrix");
                b.put("benchmark", m.benchmark().map(x -> x.jmhName()).orElse(name(cell, m)));
                b.put(
                        "mode",
                        m.benchmark().flatMap(x -> x.mode()).orElse(m.metric().higherIsBetter() ? "thrpt" : "ss"));
                b.put("threads", 1);
                b.put("forks", values.length);
                cell.environment().ifPresent(env -> {
                    b.put("jvm", "java");
                    b.put("jvmArgs", env.inputArguments());
                    b.put("jdkVersion", env.javaVersion());
                    b.put("vmName", env.vm().getOrDefault("name", ""));
                    b.put("vmVersion", env.vm().getOrDefault("version", ""));
                });
                b.put("warmupIterations", 0);
                b.put("warmupTime", "single-shot");
                b.put("warmupBatchSize", 1);
                b.put("measurementIterations", iterationsPerFork(m));
                b.put("measurementTime", iterationsPerFork(m) > 1 ? "see the suite" : "single-shot");
                b.put("measurementBatchSize", 1);
                b.put("params", params(cell.coordinates(), m));
                b.put("primaryMetric", primary(m, values));
                Map<String, Object> secondary = new LinkedHashMap<>();
                m.benchmark().ifPresent(x -> x.units().forEach((metric, unit) -> {
                    double[] v = m.values(metric);
                    if (v.length > 0 && !metric.equals(m.metric().name()) && !metric.equals("processMs")) {
                        secondary.put(
                                metric,
                                score(
                                        v,
                                        new MetricDescriptor(
                                                metric, unit, m.metric().direction())));
                    }
                }));
                double[] process = m.values("processMs");
                if (process.length > 0 && !m.metric().name().equals("processMs")) {
                    secondary.put("processMs", score(process, MetricDescriptor.PROCESS_MS));
                }
                b.put("secondaryMetrics", secondary);
                out.add(b);
            }
        }
        return out;
    }

    /**
     * A user's JMH benchmark: each of the cell's fresh JVMs is one JMH fork with its measurement
     * iterations (the samples keep them), so the score, error and percentiles are JMH's over every
     * iteration of every fork. Anything else: one single-shot value per fresh JVM.
     */
    private static JmhScore primary(Measurement m, double[] values) {
        if (m.benchmark().flatMap(b -> b.mode()).isPresent()) {
            List<List<Double>> forks = new ArrayList<>();
            for (Sample sample : m.samples()) {
                if (sample.facts().get("iterations") instanceof List<?> perFork) {
                    for (Object fork : perFork) {
                        if (fork instanceof List<?> iterations) {
                            forks.add(iterations.stream()
                                    .filter(Number.class::isInstance)
                                    .map(v -> ((Number) v).doubleValue())
                                    .toList());
                        }
                    }
                }
            }
            if (!forks.isEmpty()) {
                return JmhScore.of(forks, m.metric().unit());
            }
        }
        return score(values, m.metric());
    }

    /**
     * A user's JMH benchmark keeps its measurement iterations per fork (the samples have them); else 1 (a
     * program's rounds are its own, and its score one value per run).
     */
    private static int iterationsPerFork(Measurement m) {
        if (m.benchmark().flatMap(b -> b.mode()).isEmpty()) {
            return 1;
        }
        return m.samples().stream()
                .map(s -> s.facts().get("iterations"))
                .filter(List.class::isInstance)
                .map(forks -> (List<?>) forks)
                .filter(forks -> !forks.isEmpty() && forks.get(0) instanceof List<?>)
                .map(forks -> ((List<?>) forks.get(0)).size())
                .findFirst()
                .orElse(1);
    }

    private static JmhScore score(double[] values, MetricDescriptor metric) {
        List<List<Double>> forks = new ArrayList<>();
        for (double v : values) {
            forks.add(List.of(v));
        }
        return JmhScore.of(forks, jmhUnit(metric));
    }

    /** JMH's unit words: "ms/op" for a time per operation, "ops/s" for a rate per second. */
    static String jmhUnit(MetricDescriptor metric) {
        if (!metric.higherIsBetter() && metric.unit().equals("ms")) {
            return "ms/op";
        }
        if (metric.higherIsBetter() && metric.unit().endsWith("/s")) {
            return "ops/s";
        }
        return metric.unit();
    }

    /**
     * Bencher Metric Format: benchmark → measure → {value, lower_value, upper_value}. The value is the
     * median, the bounds its order-statistic interval (the one the cell records: see its ciLevel), for
     * every metric each repetition recorded.
     */
    public static Map<String, Map<String, Map<String, Double>>> bmf(List<CellRecord> cells) {
        Map<String, Map<String, Map<String, Double>>> out = new LinkedHashMap<>();
        for (CellRecord cell : cells) {
            for (Measurement m : cell.measurements()) {
                Map<String, Map<String, Double>> measures = new LinkedHashMap<>();
                for (String metric : metricNames(m)) {
                    double[] values = m.values(metric);
                    if (values.length == 0) {
                        continue;
                    }
                    Summary s = Summary.of(values);
                    Map<String, Double> point = new LinkedHashMap<>();
                    point.put("value", s.median());
                    point.put("lower_value", s.ci95().get(0));
                    point.put("upper_value", s.ci95().get(1));
                    measures.put(metric, point);
                }
                if (!measures.isEmpty()) {
                    out.put(name(cell, m), measures);
                }
            }
        }
        return out;
    }

    /** The judged metric first, then the others in name order. */
    private static List<String> metricNames(Measurement m) {
        List<String> names = new ArrayList<>(List.of(m.metric().name()));
        m.samples().stream()
                .flatMap(s -> s.metrics().keySet().stream())
                .distinct()
                .sorted()
                .filter(n -> !names.contains(n))
                .forEach(names::add);
        return names;
    }

    static final List<String> CSV_COLUMNS = List.of(
            "runId",
            "cellId",
            "jdk",
            "vm",
            "version",
            "os",
            "cpus",
            "cpuset",
            "parallelism",
            "maxPoolSize",
            "minRunnable",
            "workload",
            "status",
            "attested",
            "variant",
            "repetition",
            "metric",
            "unit",
            "direction",
            "judged",
            "value",
            "benchmark");

    /**
     * One row per recorded number: run, cell coordinates, variant, repetition (1-based), metric and value;
     * unit and direction are known for the metric the variant is judged by ({@code judged = true}); a user
     * workload's rows name the benchmark (with its parameters) and the units of its other metrics.
     */
    public static String csv(RunManifest run, List<CellRecord> cells) throws IOException {
        StringWriter text = new StringWriter();
        try (CSVPrinter csv = CSVFormat.RFC4180
                .builder()
                .setHeader(CSV_COLUMNS.toArray(String[]::new))
                .setRecordSeparator("\n")
                .get()
                .print(text)) {
            for (CellRecord cell : cells) {
                Coordinates c = cell.coordinates();
                for (Measurement m : cell.measurements()) {
                    for (int rep = 0; rep < m.samples().size(); rep++) {
                        Sample sample = m.samples().get(rep);
                        for (var metric : new TreeMap<>(sample.metrics()).entrySet()) {
                            boolean judged = metric.getKey().equals(m.metric().name());
                            String unit = judged
                                    ? m.metric().unit()
                                    : m.benchmark()
                                            .map(b -> b.units().getOrDefault(metric.getKey(), ""))
                                            .orElse("");
                            csv.printRecord(
                                    run.runId(),
                                    cell.cellId(),
                                    c.jdk(),
                                    c.vm(),
                                    c.version(),
                                    c.os(),
                                    c.cpus().toPlainString(),
                                    c.cpuset(),
                                    c.parallelism(),
                                    c.maxPoolSize(),
                                    c.minRunnable(),
                                    c.workload(),
                                    cell.status().word(),
                                    cell.environment()
                                            .map(e -> e.attested())
                                            .map(String::valueOf)
                                            .orElse(""),
                                    m.variant(),
                                    rep + 1,
                                    metric.getKey(),
                                    unit,
                                    judged ? m.metric().direction().word() : "",
                                    judged,
                                    metric.getValue(),
                                    m.benchmarkLabel());
                        }
                    }
                }
            }
        }
        return text.toString();
    }

    /** Cells that measured something (skipped and failed-before-any-sample cells have nothing to export). */
    public static List<CellRecord> measured(List<CellRecord> cells) {
        return cells.stream().filter(c -> !c.measurements().isEmpty()).toList();
    }
}
