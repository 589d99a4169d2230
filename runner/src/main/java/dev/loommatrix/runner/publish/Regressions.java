package dev.loommatrix.runner.publish;

import dev.loommatrix.core.bisect.Change;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.stats.ChangePoints;
import dev.loommatrix.core.stats.RatioInterval;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code data/regressions.json}: the change points among the main line's newest runs that made a series worse —
 * what the nightly's alert (loom-matrix-alert.yml) opens or updates an issue with, and what it hands to {@code
 * bisect}. Each says the change (the new level against the one before it, with its interval), the commits between
 * the last run of the old level and the first of the new, and what else changed at that run for that cell: the JDK
 * build, the base image, the runner. Where one of those did, the step may not be the code's, and {@code cause}
 * says so. Derived from the history; the same history gives the same bytes.
 *
 * @param recentRuns a change point is listed while its run is among the main line's newest this many runs
 */
public record Regressions(int schemaVersion, int recentRuns, List<Regression> regressions) {

    public static final int SCHEMA_VERSION = 1;

    /**
     * A level needs {@link ChangePoints#MIN_SEGMENT} runs before it is one, so a step is found that many nightlies
     * late, and may move by a run as more arrive: listed for twice that and one more, never forever (an old step in
     * a newly adopted history is not news).
     */
    public static final int RECENT_RUNS = 2 * ChangePoints.MIN_SEGMENT + 1;

    /**
     * One step for the worse.
     *
     * @param key the series' identity, hashed: with {@code runId}, what tells one alert from another
     * @param series the series in words
     * @param runId the first run of the new level
     * @param previousRunId the last run of the level before it
     * @param goodCommit the commit {@code previousRunId} measured (absent where the run knew none)
     * @param badCommit the commit {@code runId} measured
     * @param change the new level against the old, oriented so that above 1 is worse
     * @param annotations what else changed at {@code runId} for this cell
     * @param cause {@code code}, or what else changed there: {@code jdk build}, {@code image}, {@code runner}
     * @param chart the dashboard's history view of the series, relative to the site
     */
    public record Regression(
            String key,
            String series,
            String cellId,
            String workload,
            String variant,
            String metric,
            Optional<String> benchmark,
            String runId,
            String startedAt,
            String previousRunId,
            Optional<String> goodCommit,
            Optional<String> badCommit,
            Change change,
            String words,
            List<Trends.Annotation> annotations,
            String cause,
            String chart) {}

    static void write(Path site, Trends trends, History.Index index) throws IOException {
        Json.writeCompactAtomically(History.data(site).resolve("regressions.json"), of(trends, index));
    }

    static Regressions of(Trends trends, History.Index index) {
        Map<String, History.Entry> runs =
                index.runs().stream().collect(Collectors.toMap(History.Entry::runId, Function.identity()));
        List<String> mainLine = index.runs().stream()
                .filter(e -> !e.trigger().equals("pull_request"))
                .map(History.Entry::runId)
                .toList();
        Set<String> recent = Set.copyOf(mainLine.subList(Math.max(0, mainLine.size() - RECENT_RUNS), mainLine.size()));
        List<Regression> found = new ArrayList<>();
        for (Trends.Series s : trends.series()) {
            // the points change points were found among: the main line's, not measured beside other work
            List<Trends.Point> levels = s.points().stream()
                    .filter(p -> runs.containsKey(p.runId())
                            && !runs.get(p.runId()).trigger().equals("pull_request")
                            && p.disturbed().isEmpty())
                    .toList();
            List<Integer> at = s.changePoints().stream()
                    .map(run -> indexOf(levels, run))
                    .filter(i -> i > 0)
                    .toList();
            for (int c = 0; c < at.size(); c++) {
                int start = at.get(c);
                if (!recent.contains(levels.get(start).runId())) {
                    continue;
                }
                int from = c == 0 ? 0 : at.get(c - 1);
                int to = c + 1 < at.size() ? at.get(c + 1) : levels.size();
                Change change = change(s, medians(levels, from, start), medians(levels, start, to));
                if (change.ratio() > 1) {
                    found.add(regression(s, levels.get(start - 1), levels.get(start), change, trends, runs));
                }
            }
        }
        return new Regressions(SCHEMA_VERSION, RECENT_RUNS, List.copyOf(found));
    }

    private static Regression regression(
            Trends.Series s,
            Trends.Point before,
            Trends.Point first,
            Change change,
            Trends trends,
            Map<String, History.Entry> runs) {
        List<Trends.Annotation> notes = trends.annotations().stream()
                .filter(a -> a.runId().equals(first.runId())
                        && a.cellId().map(s.cellId()::equals).orElse(true))
                .toList();
        String cause = notes.isEmpty()
                ? "code"
                : notes.stream().map(Trends.Annotation::kind).distinct().collect(Collectors.joining(", "));
        String series = s.workload() + " · " + s.variant() + " · " + s.metric()
                + s.benchmark().map(b -> " (" + b + ")").orElse("") + " — " + s.cellId();
        return new Regression(
                key(s),
                series,
                s.cellId(),
                s.workload(),
                s.variant(),
                s.metric(),
                s.benchmark(),
                first.runId(),
                first.startedAt(),
                before.runId(),
                commit(runs.get(before.runId())),
                commit(runs.get(first.runId())),
                change,
                change.words() + " worse from run " + first.runId() + " on",
                notes,
                cause,
                "#/history?cell=" + encode(s.cellId()) + "&variant=" + encode(s.variant()) + "&workload="
                        + encode(s.workload()));
    }

    /** The new level's median against the old's, with the shift interval of the two levels' points. */
    private static Change change(Trends.Series s, double[] before, double[] after) {
        double ratio = RatioInterval.median(after) / RatioInterval.median(before);
        List<Double> bounds = RatioInterval.of(before, after, 1).bounds();
        double low = Double.isFinite(bounds.get(0)) ? Math.min(bounds.get(0), ratio) : ratio;
        double high = Double.isFinite(bounds.get(1)) ? Math.max(bounds.get(1), ratio) : ratio;
        return s.higherIsBetter() ? new Change(1 / ratio, 1 / high, 1 / low) : new Change(ratio, low, high);
    }

    private static double[] medians(List<Trends.Point> points, int from, int to) {
        return points.subList(from, to).stream()
                .mapToDouble(Trends.Point::median)
                .toArray();
    }

    private static int indexOf(List<Trends.Point> points, String runId) {
        for (int i = 0; i < points.size(); i++) {
            if (points.get(i).runId().equals(runId)) {
                return i;
            }
        }
        return -1;
    }

    private static Optional<String> commit(History.Entry run) {
        return Optional.ofNullable(run).map(r -> r.git().commit()).filter(c -> !c.isBlank() && !c.equals("unknown"));
    }

    /** Stable across publishes and sites: the series' identity, as Trends keys it. */
    private static String key(Trends.Series s) {
        String identity = String.join(
                "\u0000",
                s.cellId(),
                s.variant(),
                s.metric(),
                s.benchmark().orElse(""),
                s.profile().orElse(""),
                s.params().orElse(""),
                s.iterations().orElse(""));
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
