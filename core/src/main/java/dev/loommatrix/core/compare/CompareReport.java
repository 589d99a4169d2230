package dev.loommatrix.core.compare;

import java.util.List;

/** {@code compare}'s answer: every paired comparison, the counts, and cells found on one side only. */
public record CompareReport(
        int schemaVersion,
        String baseline,
        String candidate,
        double threshold,
        double alpha,
        List<Comparison> comparisons,
        int regressions,
        int improvements,
        List<String> onlyInBaseline,
        List<String> onlyInCandidate) {

    public static final int SCHEMA_VERSION = 1;

    public CompareReport {
        comparisons = List.copyOf(comparisons);
        onlyInBaseline = List.copyOf(onlyInBaseline);
        onlyInCandidate = List.copyOf(onlyInCandidate);
    }
}
