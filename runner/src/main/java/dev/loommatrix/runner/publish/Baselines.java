package dev.loommatrix.runner.publish;

import dev.loommatrix.core.compare.CompareReport;
import dev.loommatrix.core.compare.Comparer;
import dev.loommatrix.core.compare.Comparison;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Each run's comparisons with its baselines ({@code data/runs/<runId>/compare.json}, its cold-start twin, and
 * {@code compare-vs-<runId>.json} for each alternative): which earlier runs a run may be judged against, and which
 * comparisons a publish must make again.
 */
final class Baselines {

    private Baselines() {}

    /** The run's comparison with its baseline on the cold start ({@code compare --phase cold-start}). */
    static final String COLD_START_COMPARISON = "compare-cold-start.json";

    /** The same defaults as {@code loom-matrix compare}. */
    static final double DEFAULT_THRESHOLD = 0.10;

    static final double DEFAULT_ALPHA = 0.05;

    /** How many earlier runs a run is compared with: its baseline and the alternatives a reader may pick. */
    static final int BASELINES = 4;

    /**
     * Compares every run with its baselines where that can have changed: the run just added and every later
     * one (a baseline is always an earlier run), a run whose baseline or alternative is no longer in the
     * history ({@code --keep}), and a run indexed before matrix identities were recorded. Others keep their
     * files.
     */
    static List<History.Entry> compareAll(Path site, List<History.Entry> entries, String added) throws IOException {
        Set<String> present = new HashSet<>();
        entries.forEach(e -> present.add(e.runId()));
        Manifests manifests = new Manifests(site);
        List<History.Entry> out = new ArrayList<>();
        boolean after = false;
        for (int i = 0; i < entries.size(); i++) {
            History.Entry entry = entries.get(i);
            after |= entry.runId().equals(added);
            if (!after && !stale(entry, present) && comparisonFilesExist(site, entry)) {
                out.add(entry);
            } else {
                out.add(compare(site, entry, baselinesOf(entries, i, manifests), manifests));
            }
        }
        return out;
    }

    /** Indexed before matrix identities were recorded, or compared with a run the history no longer has. */
    private static boolean stale(History.Entry entry, Set<String> present) {
        return entry.matrix().isEmpty()
                || entry.compared().map(c -> !present.contains(c.baseline())).orElse(false)
                || !present.containsAll(entry.alternatives());
    }

    /** The run compared with each of its baselines (its files written), as its index entry says it. */
    private static History.Entry compare(
            Path site, History.Entry entry, List<History.Entry> baselines, Manifests manifests) throws IOException {
        Path dir = History.runDir(site, entry.runId());
        deleteStaleComparisons(dir, baselines);
        if (baselines.isEmpty()) {
            Files.deleteIfExists(dir.resolve("compare.json"));
            Files.deleteIfExists(dir.resolve(COLD_START_COMPARISON));
            return entry.withCompared(Optional.empty(), manifests.identity(entry), List.of());
        }
        List<CellRecord> cells = IndexEntries.readCells(site, entry.runId());
        History.Compared compared = null;
        for (int k = 0; k < baselines.size(); k++) {
            String baselineId = baselines.get(k).runId();
            Optional<CompareReport> report = comparison(site, entry, cells, baselineId, k);
            if (k == 0) {
                compared = summary(baselineId, report.orElseThrow());
            }
        }
        return entry.withCompared(
                Optional.of(compared),
                manifests.identity(entry),
                baselines.subList(1, baselines.size()).stream()
                        .map(History.Entry::runId)
                        .toList());
    }

    /**
     * The run's comparison with its k-th baseline (0: the baseline, else an alternative): made and written, both
     * phases, unless the baseline is unchanged and its files are there — then the baseline's is read and an
     * alternative's left as it is (empty).
     */
    private static Optional<CompareReport> comparison(
            Path site, History.Entry entry, List<CellRecord> cells, String baselineId, int k) throws IOException {
        Path dir = History.runDir(site, entry.runId());
        Path steady = dir.resolve(k == 0 ? "compare.json" : alternativeFile(baselineId, false));
        Path cold = dir.resolve(k == 0 ? COLD_START_COMPARISON : alternativeFile(baselineId, true));
        boolean unchanged = k == 0
                ? entry.compared().map(c -> c.baseline().equals(baselineId)).orElse(false)
                : entry.alternatives().contains(baselineId);
        if (unchanged && Files.isRegularFile(steady) && Files.isRegularFile(cold)) {
            return k > 0 ? Optional.empty() : Optional.of(Json.MAPPER.readValue(steady.toFile(), CompareReport.class));
        }
        List<CellRecord> before = IndexEntries.readCells(site, baselineId);
        CompareReport report =
                Comparer.compare(baselineId, before, entry.runId(), cells, DEFAULT_THRESHOLD, DEFAULT_ALPHA);
        // the same pairing on the forks' first iterations: the compare view offers both phases
        CompareReport coldReport = Comparer.compare(
                baselineId, before, entry.runId(), cells, DEFAULT_THRESHOLD, DEFAULT_ALPHA, Comparer.Phase.COLD_START);
        Json.writeCompactAtomically(cold, coldReport);
        Json.writeCompactAtomically(steady, report);
        return Optional.of(report);
    }

    private static History.Compared summary(String baselineId, CompareReport report) {
        int inconclusive = (int) report.comparisons().stream()
                .filter(c -> c.verdict() == Comparison.Verdict.inconclusive)
                .count();
        return new History.Compared(baselineId, report.regressions(), report.improvements(), inconclusive);
    }

    /** The comparison of a run with an alternative baseline: {@code compare-vs-<baseline>.json}. */
    static String alternativeFile(String baselineId, boolean coldStart) {
        return (coldStart ? "compare-cold-start-vs-" : "compare-vs-") + baselineId + ".json";
    }

    private static boolean comparisonFilesExist(Path site, History.Entry entry) {
        Path dir = History.runDir(site, entry.runId());
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
    private static void deleteStaleComparisons(Path dir, List<History.Entry> baselines) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        Set<String> keep = new HashSet<>();
        for (History.Entry b : baselines.subList(Math.min(1, baselines.size()), baselines.size())) {
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
     * The runs {@code entries[index]} may be judged against, its baseline first: earlier, not triggered by a
     * pull request, of the same profile and matrix identity, and sharing at least one cell (issue #19: a run
     * was compared with one that shared no cell and reported "0 regressions").
     */
    static List<History.Entry> baselinesOf(List<History.Entry> entries, int index, Manifests manifests)
            throws IOException {
        History.Entry entry = entries.get(index);
        String identity = manifests.identity(entry);
        List<History.Entry> out = new ArrayList<>();
        for (int j = index - 1; j >= 0 && out.size() < BASELINES; j--) {
            History.Entry candidate = entries.get(j);
            if (candidate.pullRequest()
                    || !candidate.profile().equals(entry.profile())
                    || !manifests.identity(candidate).equals(identity)
                    || Collections.disjoint(manifests.cells(candidate), manifests.cells(entry))) {
                continue;
            }
            out.add(candidate);
        }
        return out;
    }

    /** Run manifests read at most once per publish: a run's matrix identity and its planned cells. */
    static final class Manifests {
        private final Path site;
        private final Map<String, RunManifest> read = new HashMap<>();
        private final Map<String, Set<String>> cellIds = new HashMap<>();

        Manifests(Path site) {
            this.site = site;
        }

        String identity(History.Entry entry) throws IOException {
            return entry.matrix().isPresent()
                    ? entry.matrix().get()
                    : manifest(entry).matrix().identity();
        }

        Set<String> cells(History.Entry entry) throws IOException {
            Set<String> ids = cellIds.get(entry.runId());
            if (ids == null) {
                ids = new HashSet<>(manifest(entry).cells());
                cellIds.put(entry.runId(), ids);
            }
            return ids;
        }

        private RunManifest manifest(History.Entry entry) throws IOException {
            RunManifest m = read.get(entry.runId());
            if (m == null) {
                m = Json.MAPPER.readValue(
                        History.runDir(site, entry.runId()).resolve("run.json").toFile(), RunManifest.class);
                read.put(entry.runId(), m);
            }
            return m;
        }
    }
}
