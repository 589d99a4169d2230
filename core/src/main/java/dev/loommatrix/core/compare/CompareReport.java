package dev.loommatrix.core.compare;

import java.util.List;

/**
 * {@code compare}'s answer: every paired comparison, the counts, and cells found on one side only.
 *
 * @param repetitionsNeeded repetitions per side with which any change could be detected among this many
 *     comparisons (complete separation passing BH as a lone discovery); fewer make every verdict
 *     {@code inconclusive}
 */
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
        List<String> onlyInCandidate,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                List<NotComparable> notComparable,
        int repetitionsNeeded) {

    /** A cell variant both sides have but measured differently: listed with why, never compared. */
    public record NotComparable(String cellId, String series, String reason) {}

    public static final int SCHEMA_VERSION = 1;

    public CompareReport {
        comparisons = List.copyOf(comparisons);
        onlyInBaseline = List.copyOf(onlyInBaseline);
        onlyInCandidate = List.copyOf(onlyInCandidate);
        notComparable = notComparable == null ? List.of() : List.copyOf(notComparable);
    }
}
