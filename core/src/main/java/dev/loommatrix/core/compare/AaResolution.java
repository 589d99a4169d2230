package dev.loommatrix.core.compare;

import dev.loommatrix.core.stats.RatioInterval;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * What an A/B run could resolve: the baseline against itself within the run (an A/A from the blocks it already
 * has) and the median change its comparisons could have detected.
 */
final class AaResolution {

    private AaResolution() {}

    /**
     * The run's own noise, for an A/B run: the baseline against itself — its odd blocks' median against its
     * even blocks' — per comparison, and the median detectable change. Null when no comparison has blocks.
     */
    static CompareReport.Resolution of(List<SeriesMatching.Pairing> pairings, List<Comparison> decided, double alpha) {
        List<Double> aToA = new ArrayList<>();
        for (SeriesMatching.Pairing p : pairings) {
            if (p.before().blocks().isPresent()) {
                baselineAgainstItself(p).ifPresent(aToA::add);
            }
        }
        if (aToA.isEmpty()) {
            return null;
        }
        // a comparison that could detect no change at all (its test cannot reach α / m: no detectable, but a noise)
        // counts as the least able, +∞; left out, it made the median look better than the run was
        double[] detectable = decided.stream()
                .filter(c -> c.detectable() != null || c.detectsNothing())
                .mapToDouble(c -> c.detectsNothing() ? Double.POSITIVE_INFINITY : c.detectable())
                .toArray();
        double detectableMedian = detectable.length == 0 ? Double.NaN : RatioInterval.median(detectable);
        int pairsNeeded = SequentialPlan.pairsNeeded(alpha, decided.size());
        return new CompareReport.Resolution(
                aToA.size(),
                RatioInterval.median(
                        aToA.stream().mapToDouble(Double::doubleValue).toArray()),
                aToA.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN),
                Double.isFinite(detectableMedian) ? detectableMedian : null,
                pairsNeeded);
    }

    /** The relative difference of the baseline's odd blocks' median and its even blocks'; empty with too few. */
    private static java.util.Optional<Double> baselineAgainstItself(SeriesMatching.Pairing p) {
        var blocks = new TreeMap<>(
                BlockSamples.byBlock(p.before(), p.before().metric().name()));
        List<Double> odd = new ArrayList<>();
        List<Double> even = new ArrayList<>();
        int k = 0;
        for (double[] values : blocks.values()) {
            (k++ % 2 == 0 ? even : odd).add(RatioInterval.median(values));
        }
        double mo = RatioInterval.median(
                odd.stream().mapToDouble(Double::doubleValue).toArray());
        double me = RatioInterval.median(
                even.stream().mapToDouble(Double::doubleValue).toArray());
        if (odd.size() >= 2 && even.size() >= 2 && mo > 0 && me > 0) {
            return java.util.Optional.of(Math.abs(Math.expm1(Math.abs(Math.log(mo / me)))));
        }
        return java.util.Optional.empty();
    }
}
