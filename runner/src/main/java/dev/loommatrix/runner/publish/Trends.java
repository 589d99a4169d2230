package dev.loommatrix.runner.publish;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.stats.ChangePoints;
import dev.loommatrix.core.stats.MetricDescriptor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code data/trends/<workload>/<jdk>.json}: each cell variant's median across the runs of the history, the change
 * points in it ({@link ChangePoints}), and annotations where something other than the code changed —
 * the JDK build, the base image's digest, or the runner (host CPU model, kernel, CPU count) — so a
 * reader can tell a regression from a new machine. Derived from the run directories; deterministic.
 */
public record Trends(
        int schemaVersion,
        String method,
        List<Series> series,
        List<Annotation> annotations,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                Map<String, String> headlines,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                List<HeadlineSeries> headlineSeries) {

    /**
     * {@code headlines}: each workload's headline contrast in words, as its newest cell states it (issue #19);
     * {@code headlineSeries}: each cell's headline value across the runs (issue #54).
     */
    public Trends {
        headlines = headlines == null ? Map.of() : new TreeMap<>(headlines);
        headlineSeries = headlineSeries == null ? List.of() : List.copyOf(headlineSeries);
    }

    public Trends(int schemaVersion, String method, List<Series> series, List<Annotation> annotations) {
        this(schemaVersion, method, series, annotations, Map.of(), List.of());
    }

    public static final int SCHEMA_VERSION = 1;

    /**
     * A run's value of a series: the median, and where the cell recorded one its interval ({@code ci95}, at the
     * level its summary states) and the forks it rests on — the history view draws the band (issue #19: two
     * noisy points without intervals look like a trend).
     */
    public record Point(
            String runId,
            String startedAt,
            double median,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                    Optional<List<Double>> ci95,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                    Optional<Integer> n,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                    Optional<String> disturbed) {

        public Point {
            ci95 = ci95 == null ? Optional.empty() : ci95;
            n = n == null ? Optional.empty() : n;
            disturbed = disturbed == null ? Optional.empty() : disturbed;
        }

        public Point(String runId, String startedAt, double median) {
            this(runId, startedAt, median, Optional.empty(), Optional.empty(), Optional.empty());
        }
    }

    /**
     * {@code changePoints}: the runs where a new level starts, found among the runs that are not pull
     * requests (a pull request's runs measure unmerged code: shown, never a level) and not measured beside other
     * work (a disturbed point: drawn, flagged, never a level either). {@code benchmark}: a user
     * workload's benchmark with its parameters (a variant has one series per benchmark); {@code unit}: the
     * metric's. A series is one cell, variant and benchmark under one {@code profile} and one set of
     * workload {@code params}: a quick-profile dispatch (600 ms) is not a point of the nightly series
     * (15,000 ms). {@code iterations}: "W+M" when each fork ran the workload W warmup and M measured times — a
     * fork's steady state is not a point of the series of single cold runs; absent for those. The cold start
     * has its own series ({@code metric} {@code coldStartMs}): a fork's first iteration, or its one run, which
     * is a cold start too, so that series goes on across a change of iterations.
     */
    public record Series(
            String cellId,
            String workload,
            String variant,
            String metric,
            List<Point> points,
            List<String> changePoints,
            Optional<String> benchmark,
            Optional<String> unit,
            Optional<String> profile,
            Optional<String> params,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                    Optional<String> iterations,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                    Optional<MetricDescriptor.Direction> direction) {

        public Series {
            direction = direction == null ? Optional.empty() : direction;
        }

        /** Whether a rise of this series is better (throughput, capacity); absent in files written before it. */
        public boolean higherIsBetter() {
            return direction
                    .map(d -> d == MetricDescriptor.Direction.HIGHER_IS_BETTER)
                    .orElse(false);
        }
    }

    /** {@code cellId} is absent for a runner change, which concerns every cell of the run. */
    public record Annotation(String runId, Optional<String> cellId, String kind, String from, String to) {}

    /**
     * Trends fed one run at a time, oldest first, keeping only the medians and what the annotations
     * need: a year of nightly runs of a large matrix is gigabytes of cell records, never all in memory.
     */
    public static final class Builder {
        private final Map<String, List<Point>> points = new TreeMap<>();
        /** What each series is (its points and change points filled in by {@link #build}). */
        private final Map<String, Series> keys = new TreeMap<>();

        private final List<Annotation> annotations = new ArrayList<>();
        private final Map<String, String> headlines = new TreeMap<>();
        private final HeadlineSeries.Collector headlineSeries = new HeadlineSeries.Collector();
        private final Map<String, String> lastBuild = new LinkedHashMap<>();
        private final Map<String, String> lastImage = new LinkedHashMap<>();
        private String lastRunner;
        /** Runs triggered by a pull request: in the series, never in change-point detection. */
        private final java.util.Set<String> pullRequests = new java.util.HashSet<>();

        public Builder add(RunManifest manifest, List<CellRecord> cells) {
            String runId = manifest.runId();
            if (manifest.trigger().equals("pull_request")) {
                pullRequests.add(runId);
            }
            String profile = manifest.matrix().profile().orElse("");
            var host = manifest.host();
            String runner = host.cpuModel() + ", " + host.cpus() + " CPUs, kernel " + host.kernel();
            if (lastRunner != null && !lastRunner.equals(runner)) {
                annotations.add(new Annotation(runId, Optional.empty(), "runner", lastRunner, runner));
            }
            lastRunner = runner;
            for (CellRecord cell : cells) {
                // runs come oldest first: the newest words win
                cell.contrast().ifPresent(c -> headlines.put(cell.coordinates().workload(), c.words()));
                headlineSeries.add(manifest, cell, profile);
                cell.environment().ifPresent(env -> {
                    String build = env.vm().getOrDefault("version", env.javaVersion());
                    note(lastBuild, runId, cell.cellId(), "jdk build", build);
                    env.imageDigest().ifPresent(d -> note(lastImage, runId, cell.cellId(), "image", d));
                });
                for (Measurement m : cell.measurements()) {
                    MetricDescriptor metric = m.metric();
                    boolean summarised =
                            metric.name().equals("wallMs") || m.benchmark().isPresent();
                    Optional<Double> median = summarised ? m.summary().map(s -> s.median()) : m.medianOf(metric.name());
                    if (median.isEmpty()) {
                        continue;
                    }
                    Optional<String> design = m.iterations().map(it -> it.warmup() + "+" + it.measure());
                    Optional<dev.loommatrix.core.stats.Summary> summary = summarised ? m.summary() : Optional.empty();
                    point(manifest, cell, m, metric, profile, design, median.get(), summary);
                    if (m.benchmark().isEmpty()) {
                        // the cold start: a fork's first iteration, or its one run (a cold start as well)
                        Optional<dev.loommatrix.core.stats.Summary> coldSummary =
                                m.coldStart().isPresent() ? m.coldStart() : m.summary();
                        double cold = coldSummary.map(x -> x.median()).orElse(median.get());
                        point(
                                manifest,
                                cell,
                                m,
                                MetricDescriptor.COLD_START_MS,
                                profile,
                                Optional.empty(),
                                cold,
                                coldSummary);
                    }
                }
            }
            return this;
        }

        private void point(
                RunManifest manifest,
                CellRecord cell,
                Measurement m,
                MetricDescriptor metric,
                String profile,
                Optional<String> design,
                double median,
                Optional<dev.loommatrix.core.stats.Summary> summary) {
            String params = paramsOf(m);
            String key =
                    String.join("\u0000", cell.cellId(), m.series(), metric.name(), profile, params, design.orElse(""));
            keys.putIfAbsent(
                    key,
                    new Series(
                            cell.cellId(),
                            cell.coordinates().workload(),
                            m.variant(),
                            metric.name(),
                            List.of(),
                            List.of(),
                            Optional.of(m.benchmarkLabel()).filter(b -> !b.isEmpty()),
                            Optional.of(metric.unit()),
                            Optional.of(profile).filter(x -> !x.isEmpty()),
                            Optional.of(params).filter(x -> !x.isEmpty()),
                            design,
                            Optional.of(metric.direction())));
            points.computeIfAbsent(key, k -> new ArrayList<>())
                    .add(new Point(
                            manifest.runId(),
                            manifest.startedAt(),
                            median,
                            summary.map(x -> x.ci95()).filter(ci -> ci != null && ci.size() == 2),
                            summary.map(x -> x.n()),
                            // measured beside other work (issue #32): drawn, flagged, never a level
                            cell.execution().interference().flatMap(i -> i.disturbed())));
        }

        public Trends build() {
            List<Series> series = new ArrayList<>();
            for (var entry : points.entrySet()) {
                List<Point> p = entry.getValue();
                List<String> changes = changePoints(p, pullRequests);
                Series about = keys.get(entry.getKey());
                series.add(new Series(
                        about.cellId(),
                        about.workload(),
                        about.variant(),
                        about.metric(),
                        p,
                        changes,
                        about.benchmark(),
                        about.unit(),
                        about.profile(),
                        about.params(),
                        about.iterations(),
                        about.direction()));
            }
            return new Trends(
                    SCHEMA_VERSION,
                    ChangePoints.METHOD,
                    series,
                    List.copyOf(annotations),
                    headlines,
                    headlineSeries.build(pullRequests));
        }

        /** A built-in workload's parameters, in name order ("sleepMs=50, tasks=1000"); "" for a user's. */
        static String paramsOf(Measurement m) {
            return new TreeMap<>(m.params())
                    .entrySet().stream()
                            .map(e -> e.getKey() + "=" + e.getValue())
                            .collect(java.util.stream.Collectors.joining(", "));
        }

        private void note(Map<String, String> last, String runId, String cellId, String kind, String now) {
            String before = last.put(cellId, now);
            if (before != null && !Objects.equals(before, now)) {
                annotations.add(new Annotation(runId, Optional.of(cellId), kind, before, now));
            }
        }
    }

    /**
     * The runs of a series where a new level starts: found among its points that are neither a pull request's (unmerged
     * code: shown, never a level) nor measured beside other work (drawn, flagged, never a level either).
     */
    static List<String> changePoints(List<Point> points, java.util.Set<String> pullRequests) {
        List<Point> levels = points.stream()
                .filter(x -> !pullRequests.contains(x.runId()) && x.disturbed().isEmpty())
                .toList();
        return ChangePoints.detect(levels.stream().mapToDouble(Point::median).toArray()).stream()
                .map(i -> levels.get(i).runId())
                .toList();
    }

    /** The JDK of a series: its cell id's first part (ids are {@code jdk.os.cpus-…}). */
    static String jdkOf(Series s) {
        return jdkOf(s.cellId());
    }

    static String jdkOf(String cellId) {
        int dot = cellId.indexOf('.');
        return dot < 0 ? cellId : cellId.substring(0, dot);
    }

    /**
     * One workload's trends split by JDK ({@code data/trends/<workload>/<jdk>.json}): each part keeps its own
     * series, the annotations of its cells, every runner annotation, and the workload's headline.
     */
    public Map<String, Trends> byJdk() {
        Map<String, List<Series>> parts = new TreeMap<>();
        for (Series s : series) {
            parts.computeIfAbsent(jdkOf(s), j -> new ArrayList<>()).add(s);
        }
        Map<String, Trends> out = new TreeMap<>();
        parts.forEach((jdk, list) -> {
            java.util.Set<String> cells = new java.util.HashSet<>();
            list.forEach(s -> cells.add(s.cellId()));
            List<Annotation> mine = annotations.stream()
                    .filter(a -> a.cellId().map(cells::contains).orElse(true))
                    .toList();
            List<HeadlineSeries> heads = headlineSeries.stream()
                    .filter(s -> jdkOf(s.cellId()).equals(jdk))
                    .toList();
            out.put(jdk, new Trends(schemaVersion, method, list, mine, headlines, heads));
        });
        return out;
    }

    /**
     * What a workload's trends hold, without their points ({@code data/trends/<workload>/index.json}): the cells
     * each JDK has, and the headline — enough for the history view to choose what to load.
     */
    public record Index(int schemaVersion, String method, Map<String, Integer> jdks, Map<String, String> headlines) {}

    public Index index() {
        Map<String, java.util.Set<String>> cells = new TreeMap<>();
        for (Series s : series) {
            cells.computeIfAbsent(jdkOf(s), j -> new java.util.TreeSet<>()).add(s.cellId());
        }
        Map<String, Integer> counts = new TreeMap<>();
        cells.forEach((jdk, ids) -> counts.put(jdk, ids.size()));
        return new Index(schemaVersion, method, counts, headlines);
    }

    /**
     * The trends split by workload: each part keeps its own series, the annotations of its cells, and
     * every runner annotation (a new machine concerns every series).
     */
    public Map<String, Trends> byWorkload() {
        Map<String, List<Series>> parts = new TreeMap<>();
        for (Series s : series) {
            parts.computeIfAbsent(s.workload(), w -> new ArrayList<>()).add(s);
        }
        Map<String, Trends> out = new TreeMap<>();
        parts.forEach((workload, list) -> {
            java.util.Set<String> cells = new java.util.HashSet<>();
            list.forEach(s -> cells.add(s.cellId()));
            List<Annotation> mine = annotations.stream()
                    .filter(a -> a.cellId().map(cells::contains).orElse(true))
                    .toList();
            out.put(
                    workload,
                    new Trends(
                            schemaVersion,
                            method,
                            list,
                            mine,
                            headlines.containsKey(workload) ? Map.of(workload, headlines.get(workload)) : Map.of(),
                            headlineSeries.stream()
                                    .filter(s -> s.workload().equals(workload))
                                    .toList()));
        });
        return out;
    }
}
