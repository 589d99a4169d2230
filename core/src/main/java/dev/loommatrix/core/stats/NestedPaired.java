package dev.loommatrix.core.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * An A/B run's pairs of forks with the iterations each measured (issue #30): a nested design — iterations within
 * a fork, forks in pairs that ran back to back — tested with the fork as the unit of independence.
 *
 * <p>The model, on the log scale: the i-th iteration of side s's fork in pair k is μ_s + p_k + f_{sk} + e_{ski},
 * with p_k what the pair's moment shared (the machine's state), f_{sk} ~ N(0, σ_b²) what the fork's JVM decided
 * (its JIT's compilations, its heap layout), e_{ski} ~ N(0, σ_w²) the iteration's own noise. Iterations of one fork
 * share f_{sk}: treating them as independent samples understates the noise, and a change of one JIT decision
 * would look like a certain effect. Each fork's mean of its k iterations has variance σ_b² + σ_w² / k, and the
 * pair's difference of fork means d_k = ȳ_{Bk} − ȳ_{Ak} has p_k taken out: the paired t-test on the d_k, with n − 1
 * degrees of freedom, is the exact test of μ_B − μ_A = 0 in this model (balanced: the same k every fork), and its
 * interval the exact interval. The iterations enter through the fork means (more iterations, less σ_w² / k);
 * the forks stay the unit. {@link #components} estimates σ_b and σ_w for the report (one-way ANOVA within each
 * side). Checked against scipy's {@code ttest_rel} on fork means, and by simulation with known σ_b and σ_w.
 *
 * <p>Where the forks split into modes (a JIT that compiled one way in some forks and another way in others, as
 * JMH's bimodal forks do), a mean of the two modes describes neither: {@link #modes} finds that, and the caller
 * falls back to the fork-level signed-rank test and says so.
 */
public final class NestedPaired {

    /** The pairs the model needs: fewer leave the t too few degrees of freedom to say anything. */
    public static final int MIN_PAIRS = 4;

    /** The measured iterations every fork needs for its mean to stand for the fork. */
    public static final int MIN_ITERATIONS = 3;

    /** The paired test on fork means: the log-ratio estimate, its interval, its p-value, the pairs. */
    public record Result(double meanLogRatio, double sdLogRatio, int pairs, double pValue, List<Double> interval) {}

    /** Between- and within-fork standard deviations on the log scale, and the iterations per fork. */
    public record Components(double betweenForks, double withinForks, double iterationsPerFork) {}

    /** Two groups of forks whose values lie apart: how many in each and where. */
    public record Modes(int low, double lowMedian, int high, double highMedian) {}

    private NestedPaired() {}

    /** Mean of the logs of one fork's iterations. */
    public static double forkMean(double[] iterations) {
        return Arrays.stream(iterations).map(Math::log).average().orElse(Double.NaN);
    }

    /**
     * The paired t-test on the pairs' differences of fork means (log scale), two-sided, with its interval at
     * {@code level}. Needs two pairs or more and a difference that varies.
     */
    public static Optional<Result> test(double[] differences, double level) {
        int n = differences.length;
        if (n < 2) {
            return Optional.empty();
        }
        double mean = Arrays.stream(differences).average().orElseThrow();
        double ss = 0;
        for (double d : differences) {
            ss += (d - mean) * (d - mean);
        }
        double sd = Math.sqrt(ss / (n - 1));
        if (!(sd > 0)) {
            return Optional.empty();
        }
        double se = sd / Math.sqrt(n);
        TDistribution t = TDistribution.of(n - 1);
        double statistic = mean / se;
        double p = 2 * t.survivalProbability(Math.abs(statistic));
        double half = t.inverseSurvivalProbability((1 - level) / 2) * se;
        return Optional.of(new Result(mean, sd, n, Math.min(1, p), List.of(mean - half, mean + half)));
    }

    /**
     * The least shift s ≥ 0 (log scale) that this test would find at {@code level} with this spread and these
     * pairs: t_{1 − level/2, n − 1} · sd / √n.
     */
    public static double detectableShift(Result result, double level) {
        return TDistribution.of(result.pairs() - 1).inverseSurvivalProbability(level / 2)
                * result.sdLogRatio()
                / Math.sqrt(result.pairs());
    }

    /**
     * σ_b and σ_w from the forks of one side (each fork's iterations, logs taken): σ_w² pooled within forks,
     * σ_b² the variance of the fork means less σ_w² / k (zero when the iterations explain all of it).
     */
    public static Optional<Components> components(List<double[]> forks) {
        List<double[]> usable = forks.stream().filter(f -> f.length >= 2).toList();
        if (usable.size() < 2) {
            return Optional.empty();
        }
        double within = 0;
        int df = 0;
        double[] means = new double[usable.size()];
        double k = 0;
        for (int j = 0; j < usable.size(); j++) {
            double[] logs = Arrays.stream(usable.get(j)).map(Math::log).toArray();
            double m = Arrays.stream(logs).average().orElseThrow();
            means[j] = m;
            for (double v : logs) {
                within += (v - m) * (v - m);
            }
            df += logs.length - 1;
            k += logs.length;
        }
        k /= usable.size();
        double withinVariance = within / df;
        double grand = Arrays.stream(means).average().orElseThrow();
        double meansVariance =
                Arrays.stream(means).map(m -> (m - grand) * (m - grand)).sum() / (means.length - 1);
        double between = Math.max(0, meansVariance - withinVariance / k);
        return Optional.of(new Components(Math.sqrt(between), Math.sqrt(withinVariance), k));
    }

    /**
     * Whether these fork values (one side's fork means, say) fall into two modes: split at the widest gap
     * between neighbours, both groups at least two forks and a fifth of them, and the gap at least six times
     * the groups' pooled spread (so two modes, not a long tail: normal samples of 8 are taken for two modes 0.4 %
     * of the time, of 6 2 %; a false find only costs the nested test its turn). Or one fork alone, among six or
     * more, whose gap to the others is at least ten times their spread: a JIT that compiled one way once (seen on
     * this machine: one fork of fib-fanout's sequential variant in 16 at 1.85× the others, which made a paired t's
     * interval ±25 %); normal samples of 8 are taken for that 0.05 % of the time, heavy-tailed ones (t, 3 degrees of
     * freedom) 1.9 %. Empty when they do not.
     */
    public static Optional<Modes> modes(double[] values) {
        int n = values.length;
        if (n < 4) {
            return Optional.empty();
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int minGroup = Math.max(2, (int) Math.ceil(n / 5.0));
        int split = -1;
        double widest = 0;
        for (int i = minGroup; i <= n - minGroup; i++) {
            double gap = sorted[i] - sorted[i - 1];
            if (gap > widest) {
                widest = gap;
                split = i;
            }
        }
        if (split >= 0) {
            double[] low = Arrays.copyOfRange(sorted, 0, split);
            double[] high = Arrays.copyOfRange(sorted, split, n);
            double pooled = Math.sqrt((sumOfSquares(low) + sumOfSquares(high)) / Math.max(1, n - 2));
            if (widest > 6 * pooled && widest > 0) {
                return Optional.of(
                        new Modes(low.length, RatioInterval.median(low), high.length, RatioInterval.median(high)));
            }
        }
        return n >= 6 ? loneFork(sorted) : Optional.empty();
    }

    /** The slowest or the fastest fork alone in a mode of its own (see {@link #modes}), in sorted values. */
    private static Optional<Modes> loneFork(double[] sorted) {
        int n = sorted.length;
        double[] belowSlowest = Arrays.copyOfRange(sorted, 0, n - 1);
        if (alone(sorted[n - 1] - sorted[n - 2], belowSlowest)) {
            return Optional.of(new Modes(n - 1, RatioInterval.median(belowSlowest), 1, sorted[n - 1]));
        }
        double[] aboveFastest = Arrays.copyOfRange(sorted, 1, n);
        if (alone(sorted[1] - sorted[0], aboveFastest)) {
            return Optional.of(new Modes(1, sorted[0], n - 1, RatioInterval.median(aboveFastest)));
        }
        return Optional.empty();
    }

    /** Whether a fork's gap to its nearest neighbour is at least ten times the spread (sd) of all the others. */
    private static boolean alone(double gap, double[] others) {
        return gap > 10 * Math.sqrt(sumOfSquares(others) / (others.length - 1));
    }

    private static double sumOfSquares(double[] values) {
        double mean = Arrays.stream(values).average().orElse(0);
        double ss = 0;
        for (double v : values) {
            ss += (v - mean) * (v - mean);
        }
        return ss;
    }

    /** The fork means of a list of forks (each its iterations). */
    public static double[] forkMeans(List<double[]> forks) {
        List<Double> out = new ArrayList<>();
        forks.forEach(f -> out.add(forkMean(f)));
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
