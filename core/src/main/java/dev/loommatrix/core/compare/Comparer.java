package dev.loommatrix.core.compare;

import dev.loommatrix.core.conclude.ConclusionChanges;
import dev.loommatrix.core.conclude.Finding;
import dev.loommatrix.core.conclude.Findings;
import dev.loommatrix.core.conclude.RunConclusions;
import dev.loommatrix.core.result.CellRecord;
import java.util.List;

/**
 * Pairs two runs' cells by id and variant (and a user workload's benchmark) and decides, per pair, whether the candidate regressed.
 *
 * <p>A regression must be both <em>significant</em> — a two-sided Mann-Whitney U test on the repetition
 * samples (exact permutation p for small samples, ties included: {@link dev.loommatrix.core.stats.MannWhitney}),
 * with Benjamini–Hochberg control of the false discovery rate across all comparisons at {@code alpha} — and
 * <em>large</em>: the ratio of medians beyond the threshold in the bad direction. So a noisy cell whose
 * median moved by chance is not flagged (not significant), nor is a real but small shift (within the
 * threshold). Where the sample sizes and the number of comparisons make significance impossible (3 vs 3
 * cannot go below p = 0.1; 5 vs 5 among more than 6 comparisons cannot pass BH), the verdict is
 * {@code inconclusive}, never a silent "unchanged".
 *
 * <p>The jobs have rooms of their own: {@link SeriesMatching} pairs the series, {@link BlockSamples} reads an A/B
 * run's blocks, forks and iterations, {@link PairTest} chooses each pair's test, {@link Verdicts} controls the
 * false discovery rate and gives the verdicts, {@link AaResolution} measures the run against itself, and
 * {@link Headlines} says what happened to each cell's headline.
 */
public final class Comparer {

    private Comparer() {}

    /**
     * Which state of the JVM a comparison is about. {@code STEADY}: each fork's value (the median of its measured
     * iterations, or its one run). {@code COLD_START}: each fork's first iteration — {@code coldStartMs} where the
     * forks ran more than one, else their one run, which is a cold start too; user workloads have no cold start
     * of ours (their iterations are their own) and are left out.
     */
    public enum Phase {
        STEADY,
        COLD_START
    }

    public static CompareReport compare(
            String baselineId,
            List<CellRecord> baseline,
            String candidateId,
            List<CellRecord> candidate,
            double threshold,
            double alpha) {
        return compare(baselineId, baseline, candidateId, candidate, threshold, alpha, Phase.STEADY);
    }

    public static CompareReport compare(
            String baselineId,
            List<CellRecord> baseline,
            String candidateId,
            List<CellRecord> candidate,
            double threshold,
            double alpha,
            Phase phase) {
        SeriesMatching.Matched matched = SeriesMatching.match(baseline, candidate, phase);
        List<SeriesMatching.Pairing> pairings = matched.pairings();
        // The number of comparisons is known before any is made: which test a pair gets (paired where the
        // pairing can reach significance among this many) depends on it, never on the data.
        long m = Math.max(1, pairings.size());
        List<Comparison> raw = pairings.stream()
                .map(p -> PairTest.compare(
                        p.cellId(), p.before(), p.after(), p.before().metric(), alpha / m, threshold, 1 - alpha))
                .toList();
        List<Comparison> decided = Verdicts.decide(raw, threshold, alpha);
        long tested = decided.stream().filter(c -> !Double.isNaN(c.pValue())).count();
        return CompareReport.of(
                        baselineId, candidateId, threshold, alpha, decided, Verdicts.repetitionsNeeded(alpha, tested))
                .withUncompared(matched.onlyBefore(), matched.onlyAfter(), matched.unlike())
                .withResolution(AaResolution.of(pairings, decided, alpha))
                .withHeadlines(Headlines.of(matched.before(), matched.after(), phase))
                .withDisturbed(Headlines.disturbed(matched.before(), matched.after(), pairings))
                .withConclusions(conclusions(baseline, candidate));
    }

    /**
     * What each side concludes about its workloads' subjects (virtual threads, most often), against the report's
     * practical band (not the comparison's threshold, which is about builds): how many conditions conclude alike, and
     * which changed class; null when no condition was concluded on both sides.
     */
    static CompareReport.Conclusions conclusions(List<CellRecord> baseline, List<CellRecord> candidate) {
        double band = RunConclusions.DEFAULT_THRESHOLD;
        List<Finding> before = Findings.of(baseline, band);
        List<Finding> after = Findings.of(candidate, band);
        List<ConclusionChanges.Change> changed = ConclusionChanges.between(before, after);
        int both = ConclusionChanges.concludedOnBoth(before, after);
        // nothing concluded on both sides (a cell of one variant compares no threads): nothing to say, no field
        return both == 0 ? null : new CompareReport.Conclusions(band, both - changed.size(), changed);
    }
}
