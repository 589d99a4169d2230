package dev.loommatrix.runner.publish;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.compare.CompareReport;
import dev.loommatrix.core.compare.Comparer;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
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
            Optional<Compared> compared) {

        public Entry {
            jdks = List.copyOf(jdks);
            workloads = List.copyOf(workloads);
        }

        Entry withCompared(Optional<Compared> c) {
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
                    c);
        }

        boolean pullRequest() {
            return trigger.equals("pull_request");
        }
    }

    /**
     * The run's comparison with its baseline ({@code data/runs/<runId>/compare.json}): the newest earlier
     * run of the same profile that a pull request did not trigger — what the run would be judged against.
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
        Files.createDirectories(data(site));
        // A file lock excludes other processes; threads of this JVM share the process's lock (a second
        // FileChannel.lock would throw), so they also queue on an in-process lock for the same site.
        java.util.concurrent.locks.ReentrantLock local = LOCKS.computeIfAbsent(
                data(site).toAbsolutePath().normalize(), p -> new java.util.concurrent.locks.ReentrantLock());
        local.lock();
        try (FileChannel channel = FileChannel.open(
                        data(site).resolve(".publish.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = channel.lock()) {
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
            entries = compareWithBaselines(site, entries);
            Index index = new Index(SCHEMA_VERSION, entries);
            Json.writeCompactAtomically(indexFile(site), index);
            writeTrends(site, index);
            // Only after the index no longer lists them: a crash here leaves directories the next
            // rebuild drops again under the same retention, never an index pointing at nothing.
            for (Entry gone : dropped) {
                deleteTree(runDir(site, gone.runId()));
            }
            return new Outcome(index, note);
        } finally {
            local.unlock();
        }
    }

    private static final java.util.concurrent.ConcurrentMap<Path, java.util.concurrent.locks.ReentrantLock> LOCKS =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Compares every run with its baseline where that pairing is new (a new run, or an older run
     * published late that became a later run's baseline); unchanged pairings keep their file.
     */
    private static List<Entry> compareWithBaselines(Path site, List<Entry> entries) throws IOException {
        List<Entry> out = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            Entry entry = entries.get(i);
            Optional<Entry> baseline = baselineOf(entries, i);
            Path file = runDir(site, entry.runId()).resolve("compare.json");
            Path coldFile = runDir(site, entry.runId()).resolve(COLD_START_COMPARISON);
            if (baseline.isEmpty()) {
                Files.deleteIfExists(file);
                Files.deleteIfExists(coldFile);
                out.add(entry.withCompared(Optional.empty()));
                continue;
            }
            String baselineId = baseline.get().runId();
            if (entry.compared().map(c -> c.baseline().equals(baselineId)).orElse(false)
                    && Files.isRegularFile(file)
                    && Files.isRegularFile(coldFile)) {
                out.add(entry);
                continue;
            }
            List<CellRecord> before = readCells(site, baselineId);
            List<CellRecord> after = readCells(site, entry.runId());
            CompareReport report =
                    Comparer.compare(baselineId, before, entry.runId(), after, DEFAULT_THRESHOLD, DEFAULT_ALPHA);
            // the same pairing on the forks' first iterations: the dashboard's compare view offers both phases
            CompareReport cold = Comparer.compare(
                    baselineId,
                    before,
                    entry.runId(),
                    after,
                    DEFAULT_THRESHOLD,
                    DEFAULT_ALPHA,
                    Comparer.Phase.COLD_START);
            Json.writeCompactAtomically(coldFile, cold);
            Json.writeCompactAtomically(file, report);
            int inconclusive = (int) report.comparisons().stream()
                    .filter(c -> c.verdict() == dev.loommatrix.core.compare.Comparison.Verdict.inconclusive)
                    .count();
            out.add(entry.withCompared(
                    Optional.of(new Compared(baselineId, report.regressions(), report.improvements(), inconclusive))));
        }
        return out;
    }

    /** The run's comparison with its baseline on the cold start ({@code compare --phase cold-start}). */
    static final String COLD_START_COMPARISON = "compare-cold-start.json";

    /** The same defaults as {@code loom-matrix compare}. */
    static final double DEFAULT_THRESHOLD = 0.10;

    static final double DEFAULT_ALPHA = 0.05;

    static Optional<Entry> baselineOf(List<Entry> entries, int index) {
        Entry entry = entries.get(index);
        for (int j = index - 1; j >= 0; j--) {
            Entry candidate = entries.get(j);
            if (!candidate.pullRequest() && candidate.profile().equals(entry.profile())) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static List<CellRecord> readCells(Path site, String runId) throws IOException {
        return List.of(
                Json.MAPPER.readValue(runDir(site, runId).resolve("cells.json").toFile(), CellRecord[].class));
    }

    /**
     * {@code data/trends/<workload>.json}, one file per workload so the history view loads only what it
     * shows (a year of nightly runs of a large matrix is megabytes per workload); files of workloads no
     * longer in the history are removed.
     */
    private static void writeTrends(Path site, Index index) throws IOException {
        Trends all = trends(site, index);
        Path dir = data(site).resolve("trends");
        Files.createDirectories(dir);
        java.util.Set<String> written = new java.util.TreeSet<>();
        for (var byWorkload : all.byWorkload().entrySet()) {
            String name = byWorkload.getKey() + ".json";
            Json.writeCompactAtomically(dir.resolve(name), byWorkload.getValue());
            written.add(name);
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path stale : files.filter(
                            f -> !written.contains(f.getFileName().toString()))
                    .toList()) {
                Files.deleteIfExists(stale);
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
        JsonNode tree;
        try {
            tree = Json.MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new IOException("data/index.json is not valid JSON: " + e.getMessage(), e);
        }
        if (tree == null || tree.path("schemaVersion").asInt(-1) != SCHEMA_VERSION) {
            throw new IOException("data/index.json has no index of schema " + SCHEMA_VERSION);
        }
        return Json.MAPPER.treeToValue(tree, Index.class);
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
                Optional.empty());
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
