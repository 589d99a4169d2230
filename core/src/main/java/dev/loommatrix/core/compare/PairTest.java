package dev.loommatrix.core.compare;

import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.stats.MannWhitney;
import dev.loommatrix.core.stats.MetricDescriptor;
import dev.loommatrix.core.stats.NestedPaired;
import dev.loommatrix.core.stats.RatioInterval;
import dev.loommatrix.core.stats.SignedRank;
import java.util.Optional;

/**
 * One comparison, before any verdict: which test a pair of measurements gets, its p-value, the change and its
 * interval, and for an A/B run what the comparison could resolve. Measurements of an A/B run (both with
 * {@link Measurement#blocks()}) pair block k of the baseline with block k of the candidate, which ran back to back.
 */
final class PairTest {

    private PairTest() {}

    /** The sides' samples of the judged metric and, for an A/B run, what pairing them gives. */
    private record Samples(double[] x, double[] y, boolean abRun, double[] logRatios, BlockSamples.Forks forks) {}

    /**
     * The test's answer: its p-value, the change as a ratio with its interval, its name, and the pairs it took.
     *
     * @param nested the nested model's result, where it was the test
     * @param paired whether the fork-level signed-rank test was
     */
    private record Estimate(
            double p,
            double ratio,
            RatioInterval.Result ci,
            Optional<NestedPaired.Result> nested,
            boolean paired,
            int signedRankPairs) {

        String test() {
            return nested.isPresent() ? Comparison.NESTED_T : paired ? Comparison.SIGNED_RANK : Comparison.MANN_WHITNEY;
        }

        Integer pairs() {
            return nested.isPresent()
                    ? Integer.valueOf(nested.get().pairs())
                    : paired ? Integer.valueOf(signedRankPairs) : null;
        }
    }

    /** What the comparison could resolve: the smallest change it could detect and its noise (null: not said). */
    private record CouldResolve(Double detectable, Double noise) {}

    /**
     * When the nested model applies it is used; else the signed-rank test on the pairs' log-ratios where it can
     * reach {@code loneLevel} (α / m), with its interval at {@code intervalLevel}; else Mann-Whitney on the samples.
     * The verdict is provisional: {@link Verdicts#decide} knows how many comparisons there are and gives every one.
     */
    static Comparison compare(
            String cellId,
            Measurement before,
            Measurement after,
            MetricDescriptor metric,
            double loneLevel,
            double threshold,
            double intervalLevel) {
        Samples s = samples(before, after, metric.name());
        Estimate e = estimate(s, loneLevel, intervalLevel, (cellId + "/" + before.series()).hashCode());
        CouldResolve r = resolving(s, e, loneLevel, threshold);
        return new Comparison(
                cellId,
                before.variant(),
                metric.name(),
                metric.higherIsBetter(),
                new Comparison.Side(s.x().length, RatioInterval.median(s.x())),
                new Comparison.Side(s.y().length, RatioInterval.median(s.y())),
                e.ratio(),
                e.ci().bounds(),
                e.p(),
                Double.NaN,
                Comparison.Verdict.unchanged,
                before.benchmark().map(dev.loommatrix.core.result.Benchmark::label),
                Double.isNaN(e.ci().level()) ? null : e.ci().level(),
                e.test(),
                e.pairs(),
                r.detectable(),
                r.noise(),
                null,
                s.forks().description());
    }

    private static Samples samples(Measurement before, Measurement after, String metric) {
        boolean abRun = before.blocks().isPresent() && after.blocks().isPresent();
        return new Samples(
                before.values(metric),
                after.values(metric),
                abRun,
                abRun ? BlockSamples.pairedLogRatios(before, after, metric) : new double[0],
                abRun ? BlockSamples.forks(before, after, metric) : BlockSamples.Forks.NONE);
    }

    /**
     * The nested model where every fork of every pair measured iterations and no side's forks split into two modes;
     * else the fork-level signed-rank test where pairing can reach α / m; else Mann-Whitney.
     */
    private static Estimate estimate(Samples s, double loneLevel, double intervalLevel, long seed) {
        double[] d = s.logRatios();
        Optional<NestedPaired.Result> nested =
                s.forks().usable() ? NestedPaired.test(s.forks().differences(), intervalLevel) : Optional.empty();
        boolean paired = nested.isEmpty() && d.length > 0 && SignedRank.smallestP(d.length) <= loneLevel;
        if (nested.isPresent()) {
            NestedPaired.Result n = nested.get();
            return new Estimate(
                    n.pValue(),
                    Math.exp(n.meanLogRatio()),
                    new RatioInterval.Result(
                            n.interval().stream().map(Math::exp).toList(), intervalLevel),
                    nested,
                    false,
                    d.length);
        }
        if (paired) {
            // at the level of the test (95 % at α = 5 %; a sequential look's 1 − α / J)
            RatioInterval.Result logInterval = SignedRank.interval(d, intervalLevel);
            return new Estimate(
                    SignedRank.pValue(d),
                    Math.exp(SignedRank.hodgesLehmann(d)),
                    new RatioInterval.Result(
                            logInterval.bounds().stream().map(Math::exp).toList(), logInterval.level()),
                    nested,
                    true,
                    d.length);
        }
        return new Estimate(
                MannWhitney.pValue(s.x(), s.y()),
                RatioInterval.median(s.y()) / RatioInterval.median(s.x()),
                RatioInterval.of(s.x(), s.y(), seed),
                nested,
                false,
                d.length);
    }

    /** What this run could resolve, said for every comparison of an A/B run (null for any other). */
    private static CouldResolve resolving(Samples s, Estimate e, double loneLevel, double threshold) {
        double[] x = s.x();
        double[] y = s.y();
        if (e.nested().isPresent()) {
            return new CouldResolve(
                    Math.max(
                            threshold,
                            Math.expm1(NestedPaired.detectableShift(e.nested().get(), loneLevel))),
                    Math.expm1(e.nested().get().sdLogRatio()));
        }
        if (!(s.abRun() && x.length > 0 && y.length > 0 && BlockSamples.positive(x) && BlockSamples.positive(y))) {
            return new CouldResolve(null, null);
        }
        double[] d = s.logRatios();
        double shift = e.paired() ? Resolving.pairedShift(d, loneLevel) : Resolving.unpairedShift(x, y, loneLevel);
        return new CouldResolve(
                Double.isNaN(shift) ? null : Math.max(threshold, Math.expm1(shift)),
                Math.expm1(
                        e.paired()
                                ? Resolving.spread(d)
                                : Math.hypot(
                                        Resolving.spread(BlockSamples.logs(x)),
                                        Resolving.spread(BlockSamples.logs(y)))));
    }
}
