package dev.loommatrix.runner.publish;

import dev.loommatrix.core.conclude.ConclusionChanges;
import dev.loommatrix.core.conclude.ConclusionsDocument;
import dev.loommatrix.core.conclude.Finding;
import dev.loommatrix.core.conclude.Findings;
import dev.loommatrix.core.conclude.RunConclusions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A run's conclusions against its baseline in the history (issue #51: "a conclusion that changed since the last
 * nightly says when and at which change point"): the conditions concluded otherwise than in the run it is compared
 * with, and beside each what else changed between the two — the JDK build, the image, the runner (the trends'
 * annotations at this run), a change point the trends found here, and the commits.
 */
final class ConclusionHistory {

    private ConclusionHistory() {}

    static Optional<ConclusionsDocument.Since> since(
            Path site, History.Entry run, History.Index index, Trends trends, List<Finding> after) throws IOException {
        Optional<History.Entry> baseline = run.compared().flatMap(c -> index.runs().stream()
                .filter(e -> e.runId().equals(c.baseline()))
                .findFirst());
        if (baseline.isEmpty()) {
            return Optional.empty();
        }
        double band = RunConclusions.DEFAULT_THRESHOLD;
        var before = Findings.of(IndexEntries.readCells(site, baseline.get().runId()), band);
        List<ConclusionChanges.Change> changes = ConclusionChanges.between(before, after);
        List<ConclusionsDocument.Changed> changed = new ArrayList<>();
        for (ConclusionChanges.Change c : changes) {
            changed.add(new ConclusionsDocument.Changed(
                    c, alongside(trends, run.runId(), c.cellId()), changePoint(trends, run.runId(), c.cellId())));
        }
        return Optional.of(new ConclusionsDocument.Since(
                baseline.get().runId(),
                baseline.get().startedAt(),
                commits(baseline.get().git(), run.git()),
                ConclusionChanges.concludedOnBoth(before, after) - changes.size(),
                changed));
    }

    /** What else changed at this run for the cell: the JDK build, the image's digest, the runner. */
    private static List<String> alongside(Trends trends, String runId, String cellId) {
        return trends.annotations().stream()
                .filter(a -> a.runId().equals(runId))
                .filter(a -> a.cellId().map(cellId::equals).orElse(true))
                .map(a -> words(a.kind()) + " " + a.from() + " → " + a.to())
                .distinct()
                .toList();
    }

    private static String words(String kind) {
        return switch (kind) {
            case "jdk build" -> "the JDK build";
            case "image" -> "the image";
            case "runner" -> "the runner";
            default -> kind;
        };
    }

    /** Whether a series of the cell starts a new level at this run. */
    private static boolean changePoint(Trends trends, String runId, String cellId) {
        return trends.series().stream().filter(s -> s.cellId().equals(cellId)).anyMatch(s -> s.changePoints()
                .contains(runId));
    }

    /** "abc1234..def5678" between two commits, when both are known and differ. */
    private static Optional<String> commits(
            dev.loommatrix.core.result.RunManifest.Git before, dev.loommatrix.core.result.RunManifest.Git after) {
        if (before == null || after == null || before.commit() == null || after.commit() == null) {
            return Optional.empty();
        }
        if (before.commit().equals(after.commit())) {
            return Optional.of("the same commit " + shortOf(after.commit()));
        }
        return Optional.of(shortOf(before.commit()) + ".." + shortOf(after.commit()));
    }

    private static String shortOf(String commit) {
        return commit.length() > 12 ? commit.substring(0, 12) : commit;
    }
}
