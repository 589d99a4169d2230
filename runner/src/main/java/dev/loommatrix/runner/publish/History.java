package dev.loommatrix.runner.publish;

import dev.loommatrix.core.compare.CompareReport;
import dev.loommatrix.core.compare.Comparer;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.FileTrees;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.result.RunStatus;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The site's history: one directory per run ({@code data/runs/<runId>/run.json, cells.json}) and an
 * index of all runs ({@code data/index.json}). The per-run files are the truth; the index is derived
 * from them and can always be rebuilt whole.
 *
 * <ul>
 *   <li>Atomic: every file is written to a temporary file and renamed over the old one.
 *   <li>Idempotent: publishing the same run again writes the same bytes (nothing in the files depends
 *       on when or where publish ran).
 *   <li>Never partial: an unreadable index is rebuilt from every run directory; if a run directory is
 *       unreadable too, publish refuses and leaves the index as it was.
 *   <li>Serialized: publishers take an exclusive lock on {@code data/.publish.lock} (also across
 *       processes), so two publishing at once both land.
 * </ul>
 */
public final class History {

    public static final int SCHEMA_VERSION = 1;

    /** One run in the index: enough to list runs and pick one without reading its cells. */
    public record Entry(
            String runId,
            String startedAt,
            Optional<String> finishedAt,
            RunStatus status,
            RunManifest.Git git,
            Optional<String> profile,
            String trigger,
            List<String> jdks,
            List<String> workloads,
            int cells,
            int ok,
            int failed,
            int attested,
            Optional<Compared> compared,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                    Optional<String> matrix,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                    List<String> alternatives,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_DEFAULT)
                    boolean profiles,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_DEFAULT)
                    boolean recordings) {

        public Entry {
            jdks = List.copyOf(jdks);
            workloads = List.copyOf(workloads);
            matrix = matrix == null ? Optional.empty() : matrix;
            alternatives = alternatives == null ? List.of() : List.copyOf(alternatives);
        }

        /**
         * This entry saying whether the site keeps the run's profiles (flame graph pages) and its JFR recordings
         * (issue #20).
         */
        Entry withProfiles(boolean kept, boolean jfr) {
            return new Entry(
                    runId,
                    startedAt,
                    finishedAt,
                    status,
                    git,
                    profile,
                    trigger,
                    jdks,
                    workloads,
                    cells,
                    ok,
                    failed,
                    attested,
                    compared,
                    matrix,
                    alternatives,
                    kept,
                    jfr);
        }

        Entry withCompared(Optional<Compared> c, String matrixIdentity, List<String> others) {
            return new Entry(
                    runId,
                    startedAt,
                    finishedAt,
                    status,
                    git,
                    profile,
                    trigger,
                    jdks,
                    workloads,
                    cells,
                    ok,
                    failed,
                    attested,
                    c,
                    Optional.of(matrixIdentity),
                    others,
                    profiles,
                    recordings);
        }

        boolean pullRequest() {
            return trigger.equals("pull_request");
        }
    }

    /**
     * The run's comparison with its baseline ({@code data/runs/<runId>/compare.json}): the newest earlier run
     * of the same matrix (its declared id, else its file's hash) and profile, sharing cells with it, that a
     * pull request did not trigger — what the run would be judged against. The entry's {@code alternatives} are
     * the next eligible runs, newest first, each compared too ({@code compare-vs-<runId>.json}), so a reader can
     * pick another.
     */
    public record Compared(String baseline, int regressions, int improvements, int inconclusive) {}

    public record Index(int schemaVersion, List<Entry> runs) {
        public Index {
            runs = List.copyOf(runs);
        }
    }

    /** The index could not be written without losing history; nothing was changed. */
    public static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;

        Refused(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** What a publish did, for the user. */
    public record Outcome(Index index, Optional<String> note) {}

    private History() {}

    static Path data(Path site) {
        return site.resolve("data");
    }

    static Path runDir(Path site, String runId) {
        return data(site).resolve("runs").resolve(runId);
    }

    static Path indexFile(Path site) {
        return data(site).resolve("index.json");
    }

    /**
     * Adds (or replaces) a run and rewrites the index; with {@code keep}, only the newest {@code keep}
     * runs stay.
     */
    public static Outcome add(Path site, RunManifest manifest, List<CellRecord> cells, Optional<Integer> keep)
            throws IOException {
        return add(site, manifest, cells, keep, KEEP_PROFILES);
    }

    /** How many of the newest runs keep their profiling recordings by default ({@code publish --keep-profiles}). */
    public static final int KEEP_PROFILES = 3;

    /** A run's profiling recordings in the site: {@code data/runs/<runId>/profiles/<cellId>/<file>}. */
    static Path profilesDir(Path site, String runId) {
        return runDir(site, runId).resolve("profiles");
    }

    /**
     * Adds (or replaces) a run and rewrites the index; with {@code keep}, only the newest {@code keep} runs stay,
     * and only the newest {@code keepProfiles} keep their profiling recordings (they are large: the site must stay
     * within a static host's limits).
     */
    public static Outcome add(
            Path site, RunManifest manifest, List<CellRecord> cells, Optional<Integer> keep, int keepProfiles)
            throws IOException {
        return locked(site, () -> {
            Path dir = runDir(site, manifest.runId());
            Json.writeCompactAtomically(dir.resolve("run.json"), manifest);
            Json.writeCompactAtomically(dir.resolve("cells.json"), cells);

            Optional<String> note = Optional.empty();
            List<Entry> entries;
            if (!Files.exists(indexFile(site))) {
                entries = new ArrayList<>(
                        rebuild(site, new IOException("no index yet")).runs()); // a new site
            } else
                try {
                    entries = new ArrayList<>(readIndex(site).runs());
                } catch (IOException unreadable) {
                    entries = new ArrayList<>(rebuild(site, unreadable).runs());
                    note = Optional.of("the index was unreadable (" + unreadable.getMessage() + "); rebuilt it from "
                            + entries.size() + " run directories");
                }
            entries.removeIf(e -> e.runId().equals(manifest.runId()));
            entries.add(entry(manifest, cells));
            entries.sort(ORDER);
            List<Entry> dropped = new ArrayList<>();
            if (keep.isPresent() && entries.size() > keep.get()) {
                dropped.addAll(entries.subList(0, entries.size() - keep.get()));
                entries = new ArrayList<>(entries.subList(entries.size() - keep.get(), entries.size()));
            }
            entries = compareWithBaselines(site, entries, manifest.runId());
            entries = pruneProfiles(site, entries, keepProfiles);
            Index index = new Index(SCHEMA_VERSION, entries);
            Json.writeCompactAtomically(indexFile(site), index);
            writeTrends(site, index);
            // Only after the index no longer lists them: a crash here leaves directories the next
            // rebuild drops again under the same retention, never an index pointing at nothing.
            for (Entry gone : dropped) {
                FileTrees.delete(runDir(site, gone.runId()));
            }
            return new Outcome(index, note);
        });
    }

    /** What is done under the site's publish lock. */
    interface Locked<T> {
        T run() throws IOException;
    }

    /**
     * Runs {@code action} holding the site's publish lock: a file lock excludes other processes; threads of this
     * JVM share the process's lock (a second FileChannel.lock would throw), so they also queue on an in-process
     * lock for the same site.
     */
    static <T> T locked(Path site, Locked<T> action) throws IOException {
        Files.createDirectories(data(site));
        java.util.concurrent.locks.ReentrantLock local = LOCKS.computeIfAbsent(
                data(site).toAbsolutePath().normalize(), p -> new java.util.concurrent.locks.ReentrantLock());
        local.lock();
        try (FileChannel channel = FileChannel.open(
                        data(site).resolve(".publish.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = channel.lock()) {
            return action.run();
        } finally {
            local.unlock();
        }
    }

    private static final java.util.concurrent.ConcurrentMap<Path, java.util.concurrent.locks.ReentrantLock> LOCKS =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Compares every run with its baselines where that can have changed: the run just added and every later
     * one (a baseline is always an earlier run), a run whose baseline or alternative is no longer in the
     * history ({@code --keep}), and a run indexed before matrix identities were recorded. Others keep their
     * files.
     */
    private static List<Entry> compareWithBaselines(Path site, List<Entry> entries, String added) throws IOException {
        java.util.Set<String> present = new java.util.HashSet<>();
        entries.forEach(e -> present.add(e.runId()));
        Manifests manifests = new Manifests(site);
        List<Entry> out = new ArrayList<>();
        boolean after = false;
        for (int i = 0; i < entries.size(); i++) {
            Entry entry = entries.get(i);
            after |= entry.runId().equals(added);
            boolean stale = entry.matrix().isEmpty()
                    || entry.compared()
                            .map(c -> !present.contains(c.baseline()))
                            .orElse(false)
                    || !present.containsAll(entry.alternatives());
            if (!after && !stale && comparisonFilesExist(site, entry)) {
                out.add(entry);
                continue;
            }
            List<Entry> baselines = baselinesOf(entries, i, manifests);
            Path dir = runDir(site, entry.runId());
            deleteStaleComparisons(dir, baselines);
            if (baselines.isEmpty()) {
                Files.deleteIfExists(dir.resolve("compare.json"));
                Files.deleteIfExists(dir.resolve(COLD_START_COMPARISON));
                out.add(entry.withCompared(Optional.empty(), manifests.identity(entry), List.of()));
                continue;
            }
            List<CellRecord> cells = readCells(site, entry.runId());
            Compared compared = null;
            for (int k = 0; k < baselines.size(); k++) {
                String baselineId = baselines.get(k).runId();
                Path steady = dir.resolve(k == 0 ? "compare.json" : alternativeFile(baselineId, false));
                Path cold = dir.resolve(k == 0 ? COLD_START_COMPARISON : alternativeFile(baselineId, true));
                boolean unchanged = k == 0
                        ? entry.compared()
                                .map(c -> c.baseline().equals(baselineId))
                                .orElse(false)
                        : entry.alternatives().contains(baselineId);
                CompareReport report;
                if (unchanged && Files.isRegularFile(steady) && Files.isRegularFile(cold)) {
                    if (k > 0) {
                        continue;
                    }
                    report = Json.MAPPER.readValue(steady.toFile(), CompareReport.class);
                } else {
                    List<CellRecord> before = readCells(site, baselineId);
                    report = Comparer.compare(
                            baselineId, before, entry.runId(), cells, DEFAULT_THRESHOLD, DEFAULT_ALPHA);
                    // the same pairing on the forks' first iterations: the compare view offers both phases
                    CompareReport coldReport = Comparer.compare(
                            baselineId,
                            before,
                            entry.runId(),
                            cells,
                            DEFAULT_THRESHOLD,
                            DEFAULT_ALPHA,
                            Comparer.Phase.COLD_START);
                    Json.writeCompactAtomically(cold, coldReport);
                    Json.writeCompactAtomically(steady, report);
                }
                if (k == 0) {
                    int inconclusive = (int) report.comparisons().stream()
                            .filter(c -> c.verdict() == dev.loommatrix.core.compare.Comparison.Verdict.inconclusive)
                            .count();
                    compared = new Compared(baselineId, report.regressions(), report.improvements(), inconclusive);
                }
            }
            out.add(entry.withCompared(
                    Optional.of(compared),
                    manifests.identity(entry),
                    baselines.subList(1, baselines.size()).stream()
                            .map(Entry::runId)
                            .toList()));
        }
        return out;
    }

    /** The comparison of a run with an alternative baseline: {@code compare-vs-<baseline>.json}. */
    static String alternativeFile(String baselineId, boolean coldStart) {
        return (coldStart ? "compare-cold-start-vs-" : "compare-vs-") + baselineId + ".json";
    }

    private static boolean comparisonFilesExist(Path site, Entry entry) {
        Path dir = runDir(site, entry.runId());
        if (entry.compared().isPresent()
                && !(Files.isRegularFile(dir.resolve("compare.json"))
                        && Files.isRegularFile(dir.resolve(COLD_START_COMPARISON)))) {
            return false;
        }
        return entry.alternatives().stream()
                .allMatch(a -> Files.isRegularFile(dir.resolve(alternativeFile(a, false)))
                        && Files.isRegularFile(dir.resolve(alternativeFile(a, true))));
    }

    /** Removes comparisons with runs that are no longer among the run's baselines. */
    private static void deleteStaleComparisons(Path dir, List<Entry> baselines) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        java.util.Set<String> keep = new java.util.HashSet<>();
        for (Entry b : baselines.subList(Math.min(1, baselines.size()), baselines.size())) {
            keep.add(alternativeFile(b.runId(), false));
            keep.add(alternativeFile(b.runId(), true));
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (name.startsWith("compare-") && name.contains("-vs-") && !keep.contains(name)) {
                    Files.delete(f);
                }
            }
        }
    }

    /**
     * Removes the recordings of every profiled run but the newest {@code keepProfiles} of them, and marks each
     * entry with whether the site has its recordings. Only runs that have profiles count (issue #31: a profiled
     * run lost its flame graphs to three later runs that had none).
     */
    private static List<Entry> pruneProfiles(Path site, List<Entry> entries, int keepProfiles) throws IOException {
        Entry[] out = new Entry[entries.size()];
        int kept = 0;
        for (int i = entries.size() - 1; i >= 0; i--) { // newest first
            Entry entry = entries.get(i);
            Path dir = profilesDir(site, entry.runId());
            if (Files.isDirectory(dir)) {
                if (kept < keepProfiles) {
                    kept++;
                } else {
                    FileTrees.delete(dir);
                }
            }
            boolean recordings = false;
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.walk(dir)) {
                    recordings = files.anyMatch(f -> f.getFileName().toString().endsWith(".jfr"));
                }
            }
            out[i] = entry.withProfiles(Files.isDirectory(dir), recordings);
        }
        return List.of(out);
    }

    /** The run's comparison with its baseline on the cold start ({@code compare --phase cold-start}). */
    static final String COLD_START_COMPARISON = "compare-cold-start.json";

    /** The same defaults as {@code loom-matrix compare}. */
    static final double DEFAULT_THRESHOLD = 0.10;

    static final double DEFAULT_ALPHA = 0.05;

    /** How many earlier runs a run is compared with: its baseline and the alternatives a reader may pick. */
    static final int BASELINES = 4;

    /**
     * The runs {@code entries[index]} may be judged against, its baseline first: earlier, not triggered by a
     * pull request, of the same profile and matrix identity, and sharing at least one cell (issue #19: a run
     * was compared with one that shared no cell and reported "0 regressions").
     */
    static List<Entry> baselinesOf(List<Entry> entries, int index, Manifests manifests) throws IOException {
        Entry entry = entries.get(index);
        String identity = manifests.identity(entry);
        List<Entry> out = new ArrayList<>();
        for (int j = index - 1; j >= 0 && out.size() < BASELINES; j--) {
            Entry candidate = entries.get(j);
            if (candidate.pullRequest()
                    || !candidate.profile().equals(entry.profile())
                    || !manifests.identity(candidate).equals(identity)
                    || java.util.Collections.disjoint(manifests.cells(candidate), manifests.cells(entry))) {
                continue;
            }
            out.add(candidate);
        }
        return out;
    }

    /** Run manifests read at most once per publish: a run's matrix identity and its planned cells. */
    static final class Manifests {
        private final Path site;
        private final java.util.Map<String, RunManifest> read = new java.util.HashMap<>();
        private final java.util.Map<String, java.util.Set<String>> cellIds = new java.util.HashMap<>();

        Manifests(Path site) {
            this.site = site;
        }

        String identity(Entry entry) throws IOException {
            return entry.matrix().isPresent()
                    ? entry.matrix().get()
                    : manifest(entry).matrix().identity();
        }

        java.util.Set<String> cells(Entry entry) throws IOException {
            java.util.Set<String> ids = cellIds.get(entry.runId());
            if (ids == null) {
                ids = new java.util.HashSet<>(manifest(entry).cells());
                cellIds.put(entry.runId(), ids);
            }
            return ids;
        }

        private RunManifest manifest(Entry entry) throws IOException {
            RunManifest m = read.get(entry.runId());
            if (m == null) {
                m = Json.MAPPER.readValue(
                        runDir(site, entry.runId()).resolve("run.json").toFile(), RunManifest.class);
                read.put(entry.runId(), m);
            }
            return m;
        }
    }

    private static List<CellRecord> readCells(Path site, String runId) throws IOException {
        return List.of(
                Json.MAPPER.readValue(runDir(site, runId).resolve("cells.json").toFile(), CellRecord[].class));
    }

    /**
     * {@code data/trends/<workload>/<jdk>.json}, one file per workload and JDK, and {@code
     * data/trends/<workload>/index.json} saying which JDKs (and how many cells each) there are: the history view
     * loads only the JDKs it draws (issue #19: a year of nightly runs of a 1,000-cell matrix is 40-90 MB per
     * workload; the busiest history view took 6 s to load and draw from one file). Files of workloads or JDKs no
     * longer in the history are removed.
     */
    private static void writeTrends(Path site, Index index) throws IOException {
        Trends all = trends(site, index);
        Path dir = data(site).resolve("trends");
        Files.createDirectories(dir);
        java.util.Set<Path> written = new java.util.HashSet<>();
        for (var byWorkload : all.byWorkload().entrySet()) {
            Path workloadDir = dir.resolve(byWorkload.getKey());
            Trends trends = byWorkload.getValue();
            for (var byJdk : trends.byJdk().entrySet()) {
                Path file = workloadDir.resolve(byJdk.getKey() + ".json");
                Json.writeCompactAtomically(file, byJdk.getValue());
                written.add(file);
            }
            Path file = workloadDir.resolve("index.json");
            Json.writeCompactAtomically(file, trends.index());
            written.add(file);
        }
        // what an earlier publish wrote and this one did not: gone workloads and JDKs, and the one-file layout
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path stale : files.filter(Files::isRegularFile)
                    .filter(f -> !written.contains(f))
                    .toList()) {
                Files.deleteIfExists(stale);
            }
        }
        try (Stream<Path> dirs = Files.list(dir)) {
            for (Path d : dirs.filter(Files::isDirectory).toList()) {
                try (Stream<Path> left = Files.list(d)) {
                    if (left.findAny().isEmpty()) {
                        Files.delete(d);
                    }
                }
            }
        }
    }

    /** Trends over the runs the index lists (their directories are the truth), read one at a time. */
    static Trends trends(Path site, Index index) throws IOException {
        Trends.Builder trends = new Trends.Builder();
        for (Entry entry : index.runs()) {
            Path dir = runDir(site, entry.runId());
            trends.add(
                    Json.MAPPER.readValue(dir.resolve("run.json").toFile(), RunManifest.class),
                    readCells(site, entry.runId()));
        }
        return trends.build();
    }

    /** Oldest first: by start time, then id (ids sort by time too). */
    static final Comparator<Entry> ORDER =
            Comparator.comparing(Entry::startedAt).thenComparing(Entry::runId);

    public static Index readIndex(Path site) throws IOException {
        Path file = indexFile(site);
        if (!Files.isRegularFile(file)) {
            throw new IOException("no index yet");
        }
        return Json.readVersioned(file, "data/index.json", SCHEMA_VERSION, Index.class);
    }

    /** The index from every run directory; refuses (changing nothing) if any of them is unreadable. */
    static Index rebuild(Path site, IOException why) throws IOException {
        List<Entry> entries = new ArrayList<>();
        Path runs = data(site).resolve("runs");
        if (Files.isDirectory(runs)) {
            try (Stream<Path> dirs = Files.list(runs)) {
                for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
                    try {
                        RunManifest manifest =
                                Json.MAPPER.readValue(dir.resolve("run.json").toFile(), RunManifest.class);
                        List<CellRecord> cells = List.of(
                                Json.MAPPER.readValue(dir.resolve("cells.json").toFile(), CellRecord[].class));
                        entries.add(entry(manifest, cells));
                    } catch (IOException | RuntimeException e) {
                        throw new Refused(
                                "data/index.json is unreadable (" + why.getMessage() + ") and so is run directory "
                                        + dir.getFileName() + " (" + e.getMessage() + "); refusing to write an index"
                                        + " that would drop history. Repair or remove that directory and publish again.",
                                e);
                    }
                }
            }
        }
        entries.sort(ORDER);
        return new Index(SCHEMA_VERSION, entries);
    }

    static Entry entry(RunManifest manifest, List<CellRecord> cells) {
        int ok = (int) cells.stream().filter(c -> c.status() == CellStatus.OK).count();
        int attested = (int) cells.stream()
                .filter(c -> c.environment().map(e -> e.attested()).orElse(false))
                .count();
        return new Entry(
                manifest.runId(),
                manifest.startedAt(),
                manifest.finishedAt(),
                manifest.status(),
                manifest.git(),
                manifest.matrix().profile(),
                manifest.trigger(),
                cells.stream()
                        .map(c -> c.coordinates().jdk())
                        .distinct()
                        .sorted()
                        .toList(),
                cells.stream()
                        .map(c -> c.coordinates().workload())
                        .distinct()
                        .sorted()
                        .toList(),
                cells.size(),
                ok,
                (int) cells.stream().filter(c -> c.status().isFailure()).count(),
                attested,
                Optional.empty(),
                Optional.of(manifest.matrix().identity()),
                List.of(),
                false,
                false);
    }
}
