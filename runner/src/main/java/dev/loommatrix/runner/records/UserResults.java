package dev.loommatrix.runner.records;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.Benchmark;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.result.Sample;
import dev.loommatrix.core.stats.MetricDescriptor;
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
 * Turns what a user workload's variant left in the raw directory into measurements: the agent's lines
 * ({@code <variant>.records.jsonl}, one per JVM, a JMH fork's before its host's) with each run's own
 * result (JMH's JSON, or a program's Bencher Metric Format) collected into the host's line, and the
 * driver's process times. One measurement per benchmark — a JMH benchmark with its parameters, a
 * benchmark a program reported — whose samples are the variant's fresh JVMs, warmup runs dropped.
 */
public final class UserResults {

    /** JMH starts its forks with this main class; every other JVM carrying the agent is a run's host. */
    static final String JMH_FORK_MAIN = "org.openjdk.jmh.runner.ForkedMain";

    /** One line the agent wrote: one JVM's environment and use, and its collected result if any. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record AgentRecord(
            int schemaVersion,
            String kind,
            long pid,
            String variant,
            String command,
            Map<String, Object> metrics,
            Optional<HarnessEnvironment> environment,
            Optional<JsonNode> collected,
            Optional<String> collectedError,
            Optional<String> pinnedRecording,
            Optional<String> pinnedEventsUnavailable,
            Map<String, PropertyRead> propertyReads) {

        public AgentRecord {
            metrics = metrics == null ? Map.of() : Map.copyOf(metrics);
            propertyReads = propertyReads == null ? Map.of() : Map.copyOf(propertyReads);
            command = command == null ? "" : command;
            pinnedRecording = pinnedRecording == null ? Optional.empty() : pinnedRecording;
            pinnedEventsUnavailable = pinnedEventsUnavailable == null ? Optional.empty() : pinnedEventsUnavailable;
        }

        /** This record with more of what the JVM used (e.g. its pinned parks, read from its recording). */
        AgentRecord withMetrics(Map<String, Object> more) {
            Map<String, Object> all = new LinkedHashMap<>(metrics);
            all.putAll(more);
            return new AgentRecord(
                    schemaVersion,
                    kind,
                    pid,
                    variant,
                    command,
                    all,
                    environment,
                    collected,
                    collectedError,
                    pinnedRecording,
                    pinnedEventsUnavailable,
                    propertyReads);
        }

        boolean isFork() {
            return command.startsWith(JMH_FORK_MAIN);
        }
    }

    /**
     * What the agent saw of one of the variant's own system properties in one JVM: whether anything read it, the
     * first class of the code under test that listed all the properties, if one did (it may read any from its
     * copy), the JMH generated classes of the benchmarks it was read under, and whether it was read outside any.
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record PropertyRead(
            boolean read, Optional<String> listedBy, List<String> readDuring, boolean readElsewhere) {
        public PropertyRead {
            listedBy = listedBy == null ? Optional.empty() : listedBy;
            readDuring = readDuring == null ? List.of() : List.copyOf(readDuring);
        }

        /** Read by name (or not), as an agent that does not say under which benchmark. */
        public PropertyRead(boolean read, Optional<String> listedBy) {
            this(read, listedBy, List.of(), read);
        }
    }

    /** One fresh JVM run of a variant: the JVM the driver started and the JMH forks it started. */
    public record JvmRun(AgentRecord host, List<AgentRecord> forks) {
        public JvmRun {
            forks = List.copyOf(forks);
        }

        /** Every JVM of the run, forks first, as they ended. */
        List<AgentRecord> all() {
            List<AgentRecord> all = new ArrayList<>(forks);
            all.add(host);
            return all;
        }
    }

    /**
     * What one variant produced.
     *
     * @param runs the measured runs (warmups dropped), in order
     * @param problem why the variant's numbers are not usable as they are, if so
     */
    public record VariantRuns(
            String variant,
            List<JvmRun> runs,
            List<Double> processMs,
            Optional<String> problem,
            Map<Integer, LoadLine> loads) {

        public VariantRuns {
            loads = Map.copyOf(loads);
        }

        public VariantRuns(String variant, List<JvmRun> runs, List<Double> processMs, Optional<String> problem) {
            this(variant, runs, processMs, problem, Map.of());
        }
    }

    private UserResults() {}

    public static VariantRuns read(Path rawDir, String variant, int warmup) throws IOException {
        String slug = CellFiles.slug(variant);
        List<JvmRun> runs = new ArrayList<>();
        Optional<String> problem = Optional.empty();
        Path file = rawDir.resolve(slug + ".records.jsonl");
        if (Files.isRegularFile(file)) {
            List<String> lines = Files.readAllLines(file);
            List<AgentRecord> forks = new ArrayList<>();
            int seen = 0;
            for (int n = 0; n < lines.size(); n++) {
                if (lines.get(n).isBlank()) {
                    continue;
                }
                String where = "raw/" + file.getFileName() + ":" + (n + 1);
                JsonNode tree = Json.MAPPER.readTree(lines.get(n));
                if (tree.path("schemaVersion").asInt(-1) != RawResults.HarnessRecord.SCHEMA_VERSION
                        || !tree.path("kind").asText().equals("agent")) {
                    problem = Optional.of(where + ": not a record of this runner's attestation agent (schema "
                            + tree.path("schemaVersion").asText("none") + ", kind "
                            + tree.path("kind").asText("none") + ")");
                    break;
                }
                AgentRecord record = Json.MAPPER.treeToValue(tree, AgentRecord.class);
                if (record.pinnedRecording().isPresent()) {
                    record = record.withMetrics(
                            pinnedParks(rawDir.resolve(record.pinnedRecording().get())));
                }
                if (record.isFork()) {
                    forks.add(record);
                    continue;
                }
                if (seen++ >= warmup) {
                    runs.add(new JvmRun(record, forks));
                }
                forks = new ArrayList<>();
            }
        }
        // a service's load runs (issue #28), by the repetition they belong to
        Map<Integer, LoadLine> loads = new LinkedHashMap<>();
        Path loadFile = rawDir.resolve(LoadLine.file(variant));
        if (Files.isRegularFile(loadFile)) {
            for (String line : Files.readAllLines(loadFile)) {
                if (!line.isBlank()) {
                    LoadLine load = Json.MAPPER.readValue(line, LoadLine.class);
                    if (load.run() >= warmup) {
                        loads.put(load.run() - warmup, load);
                    }
                }
            }
        }
        return new VariantRuns(variant, runs, RawResults.processTimes(rawDir, slug), problem, loads);
    }

    /** The variant's measurements, one per benchmark; a problem (a run without a score) fails the variant. */
    public static Result measurements(Cell cell, VariantRuns data, Optional<String> error) {
        UserWorkload user = cell.workload().user().orElseThrow();
        Map<String, Series> series = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        data.problem().ifPresent(problems::add);
        for (int i = 0; i < data.runs().size(); i++) {
            JvmRun run = data.runs().get(i);
            Map<String, Object> common = new LinkedHashMap<>();
            if (i < data.processMs().size()) {
                common.put("processMs", data.processMs().get(i));
            }
            int number = i + 1;
            boolean aProgram = user.artifact() instanceof UserWorkload.Program;
            run.host()
                    .collectedError()
                    .ifPresent(e -> problems.add("run " + number + ": "
                            + (aProgram
                                    ? "the program's metrics file ($" + UserWorkload.Program.METRICS_FILE_ENV + ", " + e
                                            + ")" + BMF_EXPECTED
                                    : e)));
            switch (user.artifact()) {
                case UserWorkload.Jmh jmh ->
                    jmhRun(jmh, user.settings(data.variant()), run, i, common, series, problems);
                case UserWorkload.Program program -> {
                    common.putAll(jvmUse(List.of(run.host()), false));
                    programRun(cell.workload().id(), program, run, i, common, series, problems);
                }
                case UserWorkload.Service service -> {
                    common.putAll(jvmUse(List.of(run.host()), false));
                    serviceRun(service, data.variant(), data.loads().get(i), i, common, series, problems);
                }
            }
        }
        int expected = cell.repetitions();
        if (problems.isEmpty() && error.isEmpty() && data.runs().size() < expected) {
            problems.add("only " + data.runs().size() + " of " + expected + " repetitions produced a record");
        }
        Optional<String> problem = error.or(() -> problems.isEmpty()
                ? Optional.empty()
                : Optional.of(
                        String.join("; ", problems.stream().distinct().limit(5).toList())));
        List<Measurement> out = new ArrayList<>();
        for (Series s : series.values()) {
            double[] judged = s.samples.stream()
                    .flatMap(x -> x.metric(s.metric.name()).stream())
                    .mapToDouble(Double::doubleValue)
                    .toArray();
            double[] process = s.samples.stream()
                    .flatMap(x -> x.metric("processMs").stream())
                    .mapToDouble(Double::doubleValue)
                    .toArray();
            out.add(new Measurement(
                    data.variant(),
                    Map.of(),
                    s.metric,
                    s.samples,
                    judged.length == 0 ? Optional.empty() : Optional.of(Summary.of(judged)),
                    process.length == 0 ? Optional.empty() : Optional.of(Summary.of(process)),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    problem,
                    Optional.of(s.benchmark)));
        }
        return new Result(out, problem);
    }

    /** A variant's measurements, and what went wrong with it (also when it produced no measurement). */
    public record Result(List<Measurement> measurements, Optional<String> problem) {}

    /** One benchmark's samples across the variant's runs. */
    private static final class Series {
        final Benchmark benchmark;
        final MetricDescriptor metric;
        final List<Sample> samples = new ArrayList<>();

        Series(Benchmark benchmark, MetricDescriptor metric) {
            this.benchmark = benchmark;
            this.metric = metric;
        }
    }

    /**
     * One run's JMH results: a sample per benchmark × parameters, its score and secondary metrics, the
     * iterations' raw scores kept as a fact. A requested benchmark with no score is a problem: JMH exits 0
     * with an empty result when its forks cannot start.
     */
    private static void jmhRun(
            UserWorkload.Jmh jmh,
            UserWorkload.VariantSettings settings,
            JvmRun run,
            int index,
            Map<String, Object> common,
            Map<String, Series> series,
            List<String> problems) {
        JsonNode results = run.host().collected().orElse(null);
        List<String> scored = new ArrayList<>();
        if (results != null && results.isArray()) {
            int count = results.size();
            for (int k = 0; k < count; k++) {
                JsonNode r = results.get(k);
                String name = r.path("benchmark").asText();
                String mode = r.path("mode").asText();
                Map<String, String> shared = new java.util.TreeMap<>();
                Map<String, String> own = new java.util.TreeMap<>();
                r.path("params").properties().forEach(e -> {
                    String value = e.getValue().asText();
                    (settings.params().containsKey(e.getKey()) ? own : shared).put(e.getKey(), value);
                });
                JsonNode primary = r.path("primaryMetric");
                Optional<Double> score = number(primary.path("score"));
                if (score.isEmpty()) {
                    continue;
                }
                scored.add(name);
                Map<String, String> units = new LinkedHashMap<>();
                Map<String, Object> sample = new LinkedHashMap<>(common);
                sample.putAll(jvmUseOf(run, k, count));
                sample.put("score", score.get());
                number(primary.path("scoreError")).ifPresent(e -> sample.put("scoreError", e));
                if (primary.has("rawData")) {
                    sample.put("iterations", Json.MAPPER.convertValue(primary.path("rawData"), List.class));
                }
                r.path("secondaryMetrics").properties().forEach(e -> {
                    String metric = e.getKey().replace("·", "");
                    number(e.getValue().path("score")).ifPresent(v -> sample.put(metric, v));
                    units.put(metric, e.getValue().path("scoreUnit").asText());
                });
                Benchmark benchmark = new Benchmark(name, Optional.of(mode), shared, units, own);
                MetricDescriptor metric = new MetricDescriptor(
                        "score",
                        primary.path("scoreUnit").asText(),
                        mode.equals("thrpt")
                                ? MetricDescriptor.Direction.HIGHER_IS_BETTER
                                : MetricDescriptor.Direction.LOWER_IS_BETTER);
                series.computeIfAbsent(benchmark.label(), key -> new Series(benchmark, metric))
                        .samples
                        .add(Sample.of(sample));
            }
        }
        for (String wanted : jmh.benchmarks()) {
            if (!scored.contains(wanted)) {
                problems.add("run " + (index + 1) + " produced no score for " + wanted
                        + (results == null
                                ? " (JMH wrote no result file)"
                                : " (JMH's result has none: its forks may have failed to start, or the benchmark"
                                        + " threw; see JMH's output in the cell log)"));
            }
        }
    }

    /** What a program's metrics file should hold, said where it did not. */
    static final String BMF_EXPECTED = "; Bencher Metric Format is a JSON object of benchmarks, each an object of"
            + " measures with a numeric value: {\"handle-requests\": {\"roundMs\": {\"value\": 12.5}}}";

    /**
     * One run of a program: its process time, and the numbers it reported in Bencher Metric Format
     * ({@code {benchmark: {measure: {value, lower_value, upper_value}}}}), one series per benchmark it
     * named. A program that reports nothing is one series named after the workload, judged by its process
     * time; a declared metric missing from a run's report is a problem. The judged measure may also carry its
     * {@code iterations} (the program's own rounds, in order: a key Bencher's schema leaves open): they are kept
     * as the sample's {@code iterations} fact, one fork of them, as a JMH fork's are, so an A/B's nested model
     * uses them (issue #30).
     */
    private static void programRun(
            String workloadId,
            UserWorkload.Program program,
            JvmRun run,
            int index,
            Map<String, Object> common,
            Map<String, Series> series,
            List<String> problems) {
        JsonNode reported = run.host().collected().orElse(null);
        Map<String, String> units = new LinkedHashMap<>();
        program.metrics().forEach((name, d) -> units.put(name, d.unit()));
        units.put("processMs", "ms");
        MetricDescriptor judged = program.judgedBy();
        if (reported == null || !reported.isObject() || reported.isEmpty()) {
            if (!program.metrics().isEmpty()) {
                problems.add("run " + (index + 1) + " reported no metrics (the program writes Bencher Metric Format "
                        + "JSON to the file named by $" + UserWorkload.Program.METRICS_FILE_ENV + ")");
                return;
            }
            Benchmark benchmark = new Benchmark(workloadId, Optional.empty(), Map.of(), units, Map.of());
            series.computeIfAbsent(benchmark.label(), k -> new Series(benchmark, judged))
                    .samples
                    .add(Sample.of(new LinkedHashMap<>(common)));
            return;
        }
        reported.properties().forEach(entry -> {
            Map<String, Object> sample = new LinkedHashMap<>(common);
            entry.getValue().properties().forEach(measure -> number(
                            measure.getValue().path("value"))
                    .ifPresent(v -> sample.put(measure.getKey(), v)));
            JsonNode rounds = entry.getValue().path(judged.name()).path(ROUNDS);
            if (!rounds.isMissingNode()) {
                roundsOf(rounds)
                        .ifPresentOrElse(
                                r -> sample.put("iterations", List.of(r)),
                                () -> problems.add("run " + (index + 1) + ": benchmark " + entry.getKey() + ": '"
                                        + judged.name() + "." + ROUNDS + "' is not an array of positive numbers ("
                                        + abbreviated(rounds) + "); it holds the program's rounds in the order"
                                        + " they ran, e.g. [12.5, 12.1, 12.3]"));
            }
            for (String declared : program.metrics().keySet()) {
                if (!sample.containsKey(declared)) {
                    problems.add("run " + (index + 1) + ": benchmark " + entry.getKey() + " reported no '" + declared
                            + "' (it reported " + String.join(", ", fieldNames(entry.getValue())) + ")");
                }
            }
            Benchmark benchmark = new Benchmark(entry.getKey(), Optional.empty(), Map.of(), units, Map.of());
            series.computeIfAbsent(benchmark.label(), k -> new Series(benchmark, judged))
                    .samples
                    .add(Sample.of(sample));
        });
    }

    /**
     * One repetition of a service: a sample per load level with the generator's figures and the server JVM's own
     * use. A level the generator could not drive honestly (saturated, or short of the asked rate) makes the
     * variant invalid, never an ok number.
     */
    private static void serviceRun(
            UserWorkload.Service service,
            String variant,
            LoadLine load,
            int index,
            Map<String, Object> common,
            Map<String, Series> series,
            List<String> problems) {
        if (load == null) {
            problems.add("run " + (index + 1) + " has no load report (see the cell log)");
            return;
        }
        Map<String, String> units = new LinkedHashMap<>();
        dev.loommatrix.core.matrix.ServiceLoad.METRICS.forEach(m -> units.put(m.name(), m.unit()));
        String name = service.load().requests();
        for (LoadReport report : load.levels()) {
            report.invalid(service.load().maxShortfall()).ifPresent(problems::add);
            Map<String, Object> sample = new LinkedHashMap<>(common);
            sample.putAll(report.metrics());
            // a built-in service's bound (Little's law), named as the http-server workload names it
            Double bound = service.throughputBounds().get(variant);
            if (bound != null) {
                sample.put("throughputBoundPerSecond", bound);
                sample.put("throughputEfficiency", report.throughput() / bound);
            }
            Benchmark benchmark =
                    new Benchmark(name, Optional.empty(), Map.of("load", report.level()), units, Map.of());
            series.computeIfAbsent(
                            benchmark.label(),
                            k -> new Series(benchmark, service.load().judgedBy()))
                    .samples
                    .add(Sample.of(sample));
        }
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
            return count == 1 ? jvmUse(List.of(run.host()), false) : Map.of();
        }
        if (run.forks().size() % count != 0) {
            return Map.of();
        }
        int each = run.forks().size() / count;
        return jvmUse(run.forks().subList(k * each, (k + 1) * each), true);
    }

    /**
     * What some JVMs used: their totals (CPU, GC) and peaks (carriers, resident memory), and how many
     * forks they were.
     */
    static Map<String, Object> jvmUse(List<AgentRecord> jvms, boolean forks) {
        Map<String, Object> use = new LinkedHashMap<>();
        for (String sum : List.of("cpuMs", "gcCount", "gcMs", "pinnedEvents", "pinnedMs")) {
            double[] values = values(jvms, sum);
            if (values.length > 0) {
                use.put(sum, exact(java.util.Arrays.stream(values).sum()));
            }
        }
        for (String peak : List.of("carriers", "peakRssBytes")) {
            double[] values = values(jvms, peak);
            if (values.length > 0) {
                use.put(peak, exact(java.util.Arrays.stream(values).max().orElseThrow()));
            }
        }
        if (forks) {
            use.put("forks", jvms.size());
        }
        jvms.stream()
                .flatMap(r -> r.pinnedEventsUnavailable().stream())
                .findFirst()
                .ifPresent(why -> use.put("pinnedEventsUnavailable", why));
        return use;
    }

    /**
     * {@code pinnedEvents} and {@code pinnedMs} from the JFR recording the agent asked for
     * ({@code -Dloom.pinnedEvents=true}), which JFR wrote when the JVM exited.
     */
    static Map<String, Object> pinnedParks(Path recording) {
        if (!Files.isRegularFile(recording)) {
            return Map.of();
        }
        long count = 0;
        long nanos = 0;
        try (var file = new jdk.jfr.consumer.RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                var event = file.readEvent();
                if (event.getEventType().getName().equals("jdk.VirtualThreadPinned")) {
                    count++;
                    nanos += event.getDuration().toNanos();
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return Map.of("pinnedEvents", count, "pinnedMs", nanos / 1e6);
    }

    /** A count stays an integer in the file, as the agent wrote it. */
    private static Number exact(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? (Number) (long) value : (Number) value;
    }

    private static double[] values(List<AgentRecord> jvms, String metric) {
        return jvms.stream()
                .map(r -> r.metrics().get(metric))
                .filter(v -> v instanceof Number)
                .mapToDouble(v -> ((Number) v).doubleValue())
                .toArray();
    }

    /** The key of a BMF measure under which a program lists its rounds (beside {@code value}). */
    static final String ROUNDS = "iterations";

    /** A measure's rounds: a non-empty array of finite positive numbers, else empty. */
    private static Optional<List<Double>> roundsOf(JsonNode node) {
        if (!node.isArray() || node.isEmpty()) {
            return Optional.empty();
        }
        List<Double> rounds = new ArrayList<>();
        for (JsonNode value : node) {
            Optional<Double> v = number(value).filter(x -> x > 0);
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

    /** A JSON number, or JMH's "NaN" string for an error it could not compute: absent. */
    private static Optional<Double> number(JsonNode node) {
        return node.isNumber() && Double.isFinite(node.asDouble()) ? Optional.of(node.asDouble()) : Optional.empty();
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** Every JVM of the variant's runs, warmups excluded, forks included: each is attested. */
    public static List<HarnessEnvironment> environments(List<VariantRuns> variants) {
        List<HarnessEnvironment> out = new ArrayList<>();
        for (VariantRuns v : variants) {
            for (JvmRun run : v.runs()) {
                run.all().forEach(r -> r.environment().ifPresent(out::add));
            }
        }
        return out;
    }
}
