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
        int repetitionsNeeded,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                Resolution resolution,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                AbRun ab,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                List<Headline> headlines,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                List<Disturbed> disturbed,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                Conclusions conclusions) {

    /**
     * What the two sides conclude about virtual threads (issue #51), where a comparison's first words belong: the
     * conditions concluded alike on both sides, and each one concluded differently (a change that moved the answer,
     * not only a number).
     *
     * @param band the practical band the conclusions are drawn against (the report's, ±10 %: a regression threshold
     *     of 3 % is the change worth finding between two builds, not the difference worth switching threads for)
     * @param alike how many conditions both sides concluded (pays off, no difference or hurts), alike
     */
    public record Conclusions(
            double band, int alike, List<dev.loommatrix.core.conclude.ConclusionChanges.Change> changed) {
        public Conclusions {
            changed = List.copyOf(changed);
        }
    }

    /** This report with what the two sides conclude. */
    public CompareReport withConclusions(Conclusions both) {
        return new CompareReport(
                schemaVersion,
                baseline,
                candidate,
                threshold,
                alpha,
                comparisons,
                regressions,
                improvements,
                onlyInBaseline,
                onlyInCandidate,
                notComparable,
                repetitionsNeeded,
                resolution,
                ab,
                headlines,
                disturbed,
                both);
    }

    /**
     * A compared cell measured beside other work (issue #32), on one side: its comparisons stand, with this caveat.
     *
     * @param side {@code baseline} or {@code candidate}
     * @param figure the cell's interference in words ("measured beside 0.97 CPUs of other work …")
     */
    public record Disturbed(String cellId, String side, String figure) {}

    /** Whether a side of this cell was measured beside other work. */
    public List<Disturbed> disturbedOf(String cellId) {
        return disturbed.stream().filter(d -> d.cellId().equals(cellId)).toList();
    }

    /**
     * A shared cell's headline contrast (issue #19) on both sides: what its workload declares the matrix shows
     * first, so a pull request's verdict says what happened to it, not only to each variant.
     *
     * @param kind {@code speedup} (the subject over the reference, > 1 = the subject wins) or {@code efficiency}
     *     (the subject's median against its own bound)
     * @param baseline the value in the baseline (absent when that side recorded none), likewise {@code candidate}
     */
    public record Headline(
            String cellId,
            String words,
            String kind,
            String subject,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                    java.util.Optional<String> reference,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                    java.util.Optional<Side> baseline,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                    java.util.Optional<Side> candidate) {}

    /** A headline's value on one side, with its interval (a speedup's) where the cell recorded one. */
    public record Side(
            double value,
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                    List<Double> ci95) {}

    /**
     * What an A/B run could resolve: the noise it saw and the changes it could have seen.
     *
     * @param aToA the baseline against itself within the run, per comparison: its odd blocks' median
     *     against its even blocks' (both halves measured the same thing, interleaved with the candidate);
     *     the median and the largest relative difference over the comparisons
     * @param detectableMedian the median of the comparisons' {@link Comparison#detectable()}, one that could detect
     *     no change at all counted as the least able (null when the median comparison, or every one, could detect
     *     nothing)
     * @param pairsNeeded block pairs per comparison with which the paired test can reach significance
     *     among this many comparisons at all (2 / 2ⁿ ≤ α / m)
     */
    public record Resolution(
            int comparisons, double aToAMedian, double aToAMax, Double detectableMedian, int pairsNeeded) {}

    /**
     * The A/B run this report is of: what the two sides were and how they were measured.
     *
     * @param differences what differs between the sides' definitions (harness, artifacts, JDK entries)
     * @param blocks block pairs per cell in the first pass
     * @param confirmBlocks block pairs added to a cell with a flagged change
     * @param pairing how each cell's block pairs were measured: back to back, or in lockstep (issue #30)
     */
    public record AbRun(
            String baselineLabel,
            String candidateLabel,
            List<String> differences,
            int blocks,
            int confirmBlocks,
            List<String> remeasuredCells,
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                    Sequential sequential,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                    java.util.Map<String, String> pairing) {
        public AbRun {
            differences = List.copyOf(differences);
            remeasuredCells = List.copyOf(remeasuredCells);
            pairing = pairing == null
                    ? java.util.Map.of()
                    : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(pairing));
        }
    }

    /**
     * How a sequential A/B spent its looks ({@link SequentialPlan}): the looks planned, the level each tested at,
     * the budget and what was spent of it, how many looks were taken, why measuring stopped, the pairs each
     * cell got, the cells the budget left out, the level of the last look taken (all the α left when the budget
     * made it the last), the comparisons measured no more because they could not be decided within the pairs left
     * ("cell series" → why), and the cells this host did not run (skipped: a JDK it lacks, another OS, a service
     * cell without its load generator; cell → why), which the budget did not count.
     */
    public record Sequential(
            String method,
            List<Integer> looks,
            double levelPerLook,
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                    Long budgetSeconds,
            long spentSeconds,
            int looksTaken,
            String ended,
            java.util.Map<String, Integer> pairs,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                    java.util.Map<String, String> notMeasured,
            @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
                    Double lastLevel,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                    java.util.Map<String, String> stopped,
            @com.fasterxml.jackson.annotation.JsonInclude(
                            com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
                    java.util.Map<String, String> notRun) {
        public Sequential {
            looks = List.copyOf(looks);
            notRun = notRun == null
                    ? java.util.Map.of()
                    : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(notRun));
            stopped = stopped == null
                    ? java.util.Map.of()
                    : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(stopped));
            pairs = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(pairs));
            notMeasured = notMeasured == null
                    ? java.util.Map.of()
                    : java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(notMeasured));
        }
    }

    /** A cell variant both sides have but measured differently: listed with why, never compared. */
    public record NotComparable(String cellId, String series, String reason) {}

    public static final int SCHEMA_VERSION = 1;

    public CompareReport {
        comparisons = List.copyOf(comparisons);
        onlyInBaseline = List.copyOf(onlyInBaseline);
        onlyInCandidate = List.copyOf(onlyInCandidate);
        notComparable = notComparable == null ? List.of() : List.copyOf(notComparable);
        headlines = headlines == null ? List.of() : List.copyOf(headlines);
        disturbed = disturbed == null ? List.of() : List.copyOf(disturbed);
    }

    /**
     * A report of these comparisons with nothing else said yet: its counts from their verdicts, no series left
     * uncompared, no resolution, headline or A/B run. The {@code with…} methods add the rest, so a field added later
     * changes this file only.
     */
    public static CompareReport of(
            String baseline,
            String candidate,
            double threshold,
            double alpha,
            List<Comparison> comparisons,
            int repetitionsNeeded) {
        return new CompareReport(
                SCHEMA_VERSION,
                baseline,
                candidate,
                threshold,
                alpha,
                comparisons,
                count(comparisons, Comparison.Verdict.regression),
                count(comparisons, Comparison.Verdict.improvement),
                List.of(),
                List.of(),
                List.of(),
                repetitionsNeeded,
                null,
                null,
                List.of(),
                List.of(),
                null);
    }

    private static int count(List<Comparison> comparisons, Comparison.Verdict verdict) {
        return (int) comparisons.stream().filter(c -> c.verdict() == verdict).count();
    }

    /** This report with the series it did not compare: on one side only, or measured differently on the two. */
    public CompareReport withUncompared(
            List<String> onlyInBaseline, List<String> onlyInCandidate, List<NotComparable> notComparable) {
        return new CompareReport(
                schemaVersion,
                baseline,
                candidate,
                threshold,
                alpha,
                comparisons,
                regressions,
                improvements,
                onlyInBaseline,
                onlyInCandidate,
                notComparable,
                repetitionsNeeded,
                resolution,
                ab,
                headlines,
                disturbed,
                conclusions);
    }

    /** This report with what its A/B run could resolve (null: not an A/B run). */
    public CompareReport withResolution(Resolution what) {
        return new CompareReport(
                schemaVersion,
                baseline,
                candidate,
                threshold,
                alpha,
                comparisons,
                regressions,
                improvements,
                onlyInBaseline,
                onlyInCandidate,
                notComparable,
                repetitionsNeeded,
                what,
                ab,
                headlines,
                disturbed,
                conclusions);
    }

    /** This report with the shared cells' headline contrasts on both sides. */
    public CompareReport withHeadlines(List<Headline> contrasts) {
        return new CompareReport(
                schemaVersion,
                baseline,
                candidate,
                threshold,
                alpha,
                comparisons,
                regressions,
                improvements,
                onlyInBaseline,
                onlyInCandidate,
                notComparable,
                repetitionsNeeded,
                resolution,
                ab,
                contrasts,
                disturbed,
                conclusions);
    }

    /** This report with the compared cells measured beside other work. */
    public CompareReport withDisturbed(List<Disturbed> cells) {
        return new CompareReport(
                schemaVersion,
                baseline,
                candidate,
                threshold,
                alpha,
                comparisons,
                regressions,
                improvements,
                onlyInBaseline,
                onlyInCandidate,
                notComparable,
                repetitionsNeeded,
                resolution,
                ab,
                headlines,
                cells,
                conclusions);
    }

    /** This report as the answer of an A/B run, its comparisons as confirmation left them. */
    public CompareReport asAbRun(AbRun run, List<Comparison> confirmed) {
        return new CompareReport(
                schemaVersion,
                baseline,
                candidate,
                threshold,
                alpha,
                confirmed,
                count(confirmed, Comparison.Verdict.regression),
                count(confirmed, Comparison.Verdict.improvement),
                onlyInBaseline,
                onlyInCandidate,
                notComparable,
                repetitionsNeeded,
                resolution,
                run,
                headlines,
                disturbed,
                conclusions);
    }
}
