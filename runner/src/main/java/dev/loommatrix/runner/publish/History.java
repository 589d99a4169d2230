package dev.loommatrix.runner.publish;

import dev.loommatrix.core.conclude.ConclusionChanges;
import dev.loommatrix.core.conclude.ConclusionsDocument;
import dev.loommatrix.core.conclude.RunConclusions;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.FileTrees;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.result.RunStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The site's history: one directory per run ({@code data/runs/<runId>/run.json, cells.json, conclusions.json}) and an
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
     *
     * <p>The jobs have rooms of their own: {@link SiteLock} serializes publishers, {@link IndexEntries} reads or
     * rebuilds the index, {@link Retention} keeps what the site keeps, {@link Baselines} compares each run with its
     * baselines, {@link TrendFiles} writes the trends.
     */
    public static Outcome add(
            Path site, RunManifest manifest, List<CellRecord> cells, Optional<Integer> keep, int keepProfiles)
            throws IOException {
        return SiteLock.locked(site, () -> {
            Path dir = runDir(site, manifest.runId());
            Json.writeCompactAtomically(dir.resolve("run.json"), manifest);
            Json.writeCompactAtomically(dir.resolve("cells.json"), cells);
            IndexEntries.Current current = IndexEntries.current(site);
            List<Entry> entries = current.entries();
            entries.removeIf(e -> e.runId().equals(manifest.runId()));
            entries.add(IndexEntries.entry(manifest, cells));
            entries.sort(ORDER);
            Retention.Kept kept = Retention.newest(entries, keep);
            entries = Baselines.compareAll(site, kept.kept(), manifest.runId());
            entries = Retention.profiles(site, entries, keepProfiles);
            Index index = new Index(SCHEMA_VERSION, entries);
            Trends trends = TrendFiles.trends(site, index);
            Entry added = entries.stream()
                    .filter(e -> e.runId().equals(manifest.runId()))
                    .findFirst()
                    .orElseThrow();
            RunConclusions concluded = concluded(manifest, cells);
            // before the index names the run: a crash leaves a run directory the index does not list yet
            Json.writeCompactAtomically(
                    dir.resolve("conclusions.json"),
                    ConclusionsDocument.of(manifest.runId(), concluded)
                            .since(ConclusionHistory.since(
                                    site, added, index, trends, ConclusionChanges.findings(concluded))));
            Json.writeCompactAtomically(indexFile(site), index);
            TrendFiles.write(site, trends);
            Regressions.write(site, trends, index);
            // Only after the index no longer lists them: a crash here leaves directories the next
            // rebuild drops again under the same retention, never an index pointing at nothing.
            for (Entry gone : kept.dropped()) {
                FileTrees.delete(runDir(site, gone.runId()));
            }
            return new Outcome(index, current.note());
        });
    }

    /**
     * What the run concludes ({@code data/runs/<runId>/conclusions.json}, the document {@code report --format json}
     * prints): the dashboard's first view for a run leads with it. Cells in the plan's order, so the same run always
     * gives the same bytes.
     */
    static ConclusionsDocument conclusions(RunManifest manifest, List<CellRecord> cells) {
        return ConclusionsDocument.of(manifest.runId(), concluded(manifest, cells));
    }

    /** The run concluded once: its document and what changed since the run before both rest on these findings. */
    private static RunConclusions concluded(RunManifest manifest, List<CellRecord> cells) {
        return RunConclusions.of(RunConclusions.inPlanOrder(cells, manifest.cells()), RunConclusions.DEFAULT_THRESHOLD);
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
}
