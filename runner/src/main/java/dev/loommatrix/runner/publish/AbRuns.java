package dev.loommatrix.runner.publish;

import dev.loommatrix.core.compare.CompareReport;
import dev.loommatrix.core.compare.Comparison;
import dev.loommatrix.core.result.FileTrees;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The site's A/B runs (issue #31): each {@code loom-matrix ab} run published as what it is — its own verdict on a
 * candidate against a baseline measured in interleaved blocks on one machine — in {@code data/ab/<runId>/} (the
 * run's {@code compare.json} and its candidate side's {@code run.json}) and an index of them ({@code
 * data/ab/index.json}). They stay out of the {@link History}: an A/B run is not the newest matrix, adds no point to
 * a trend, and is never compared with a nightly run (its blocks interleave two builds, and a pull request's A/A or
 * patched harness is no measurement of the main line). As the history's: atomic, idempotent, serialized by the
 * same publish lock, and an unreadable index is rebuilt from the run directories or nothing is written.
 */
public final class AbRuns {

    public static final int SCHEMA_VERSION = 1;

    /** The newest A/B runs a site keeps unless told otherwise: one per pull-request push adds up. */
    public static final int KEEP = 50;

    /**
     * One A/B run in the index: enough to list it with its verdict without loading its comparisons.
     *
     * @param aToA both sides built from the same definitions (no differences): every flag is a false alarm
     * @param notMeasured cells the budget left unmeasured (said in the report's first line)
     * @param notRun cells this host did not run (skipped: a JDK it lacks, …), not compared
     * @param ended why measuring stopped ({@code decided}, {@code budget}, {@code looks}, …; absent before #30)
     */
    public record Entry(
            String runId,
            String startedAt,
            Optional<String> finishedAt,
            RunManifest.Git git,
            Optional<String> profile,
            String trigger,
            String baselineLabel,
            String candidateLabel,
            List<String> differences,
            boolean aToA,
            int comparisons,
            int regressions,
            int improvements,
            int inconclusive,
            int unchanged,
            int notMeasured,
            Optional<String> ended,
            int notRun) {
        public Entry {
            differences = List.copyOf(differences);
        }
    }

    public record Index(int schemaVersion, List<Entry> runs) {
        public Index {
            runs = List.copyOf(runs);
        }
    }

    /** What a publish of an A/B run did: its entry, the index after it, and anything the user should know. */
    public record Outcome(Entry entry, Index index, Optional<String> note) {}

    private AbRuns() {}

    static Path dir(Path site) {
        return History.data(site).resolve("ab");
    }

    static Path indexFile(Path site) {
        return dir(site).resolve("index.json");
    }

    /** Adds (or replaces) an A/B run; only the newest {@code keep} stay. */
    public static Outcome add(Path site, RunManifest candidate, CompareReport report, int keep) throws IOException {
        if (report.ab() == null) {
            throw new IllegalArgumentException("not an A/B run's report: " + candidate.runId());
        }
        return SiteLock.locked(site, () -> {
            Path run = dir(site).resolve(candidate.runId());
            Json.writeCompactAtomically(run.resolve("run.json"), candidate);
            Json.writeCompactAtomically(run.resolve("compare.json"), report);
            Optional<String> note = Optional.empty();
            List<Entry> entries;
            try {
                entries = new ArrayList<>(read(site).runs());
            } catch (IOException unreadable) {
                entries = new ArrayList<>(rebuild(site));
                if (Files.exists(indexFile(site))) {
                    note = Optional.of("the A/B index was unreadable (" + unreadable.getMessage()
                            + "); rebuilt it from " + entries.size() + " A/B run directories");
                }
            }
            entries.removeIf(e -> e.runId().equals(candidate.runId()));
            Entry added = entry(candidate, report);
            entries.add(added);
            entries.sort(ORDER);
            List<Entry> dropped = new ArrayList<>();
            if (entries.size() > keep) {
                dropped.addAll(entries.subList(0, entries.size() - keep));
                entries = new ArrayList<>(entries.subList(entries.size() - keep, entries.size()));
            }
            Index index = new Index(SCHEMA_VERSION, entries);
            Json.writeCompactAtomically(indexFile(site), index);
            // a site of A/B runs alone still needs the nightly index the dashboard loads first: an empty one (never
            // over run directories an index should list: the history rebuilds its index from those)
            if (!Files.exists(History.indexFile(site))
                    && !Files.exists(History.data(site).resolve("runs"))) {
                Json.writeCompactAtomically(
                        History.indexFile(site), new History.Index(History.SCHEMA_VERSION, List.of()));
            }
            // only once the index no longer lists them (as the history's)
            for (Entry gone : dropped) {
                FileTrees.delete(dir(site).resolve(gone.runId()));
            }
            return new Outcome(added, index, note);
        });
    }

    static final Comparator<Entry> ORDER =
            Comparator.comparing(Entry::startedAt).thenComparing(Entry::runId);

    /** The index; absent (a site without A/B runs) reads as none. */
    public static Index read(Path site) throws IOException {
        Path file = indexFile(site);
        if (!Files.isRegularFile(file)) {
            return new Index(SCHEMA_VERSION, List.of());
        }
        return Json.readVersioned(file, "data/ab/index.json", SCHEMA_VERSION, Index.class);
    }

    /** The entries from every A/B run directory; refuses (changing nothing) if any of them is unreadable. */
    private static List<Entry> rebuild(Path site) throws IOException {
        List<Entry> entries = new ArrayList<>();
        if (!Files.isDirectory(dir(site))) {
            return entries;
        }
        try (Stream<Path> dirs = Files.list(dir(site))) {
            for (Path d : dirs.filter(Files::isDirectory).sorted().toList()) {
                try {
                    entries.add(entry(
                            Json.MAPPER.readValue(d.resolve("run.json").toFile(), RunManifest.class),
                            Json.MAPPER.readValue(d.resolve("compare.json").toFile(), CompareReport.class)));
                } catch (IOException | RuntimeException e) {
                    throw new History.Refused(
                            "data/ab/index.json is unreadable and so is A/B run directory " + d.getFileName() + " ("
                                    + e.getMessage() + "); refusing to write an index that would drop A/B runs."
                                    + " Repair or remove that directory and publish again.",
                            e);
                }
            }
        }
        return entries;
    }

    static Entry entry(RunManifest candidate, CompareReport report) {
        var ab = report.ab();
        java.util.function.Function<Comparison.Verdict, Integer> count = v -> (int)
                report.comparisons().stream().filter(c -> c.verdict() == v).count();
        return new Entry(
                candidate.runId(),
                candidate.startedAt(),
                candidate.finishedAt(),
                candidate.git(),
                candidate.matrix().profile(),
                candidate.trigger(),
                ab.baselineLabel(),
                ab.candidateLabel(),
                ab.differences(),
                ab.differences().isEmpty(),
                report.comparisons().size(),
                count.apply(Comparison.Verdict.regression),
                count.apply(Comparison.Verdict.improvement),
                count.apply(Comparison.Verdict.inconclusive),
                count.apply(Comparison.Verdict.unchanged),
                ab.sequential() == null ? 0 : ab.sequential().notMeasured().size(),
                Optional.ofNullable(ab.sequential()).map(CompareReport.Sequential::ended),
                ab.sequential() == null ? 0 : ab.sequential().notRun().size());
    }
}
