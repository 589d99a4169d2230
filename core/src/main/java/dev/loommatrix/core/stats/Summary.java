package dev.loommatrix.core.stats;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.statistics.descriptive.DoubleStatistics;
import org.apache.commons.statistics.descriptive.Median;
import org.apache.commons.statistics.descriptive.Statistic;
import org.apache.commons.statistics.distribution.BinomialDistribution;

/**
 * The summary of one variant's repetitions.
 *
 * <p>{@code ci95} is a distribution-free confidence interval for the median from order statistics:
 * the ranks k and n+1−k with P(Binomial(n, ½) ≤ k−1) ≤ 2.5 %. It assumes nothing about the shape of
 * the timings (they are rarely normal). With fewer than 6 samples no pair of ranks reaches 95 %; the
 * interval is then [min, max] and {@code ciLevel} says the coverage it actually has (e.g. 0.9375 for n=5).
 *
 * <p>{@code outliers} are the (0-based) repetitions whose modified Z-score |x − median| / MAD exceeds
 * 14.826 (10 standard deviations for normal data), the rule hyperfine warns with; they are flagged,
 * never dropped. {@code unstable} is set when the coefficient of variation exceeds {@link
 * #UNSTABLE_CV} (10 %): such a measurement needs more repetitions or a quieter machine before a
 * comparison can trust it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Summary(
        int n,
        double median,
        double mean,
        double stdev,
        double cv,
        List<Double> ci95,
        Double ciLevel,
        List<Integer> outliers,
        Boolean unstable) {

    public static final double OUTLIER_THRESHOLD = 1.4826 * 10;
    public static final double UNSTABLE_CV = 0.10;

    public Summary {
        outliers = outliers == null ? List.of() : List.copyOf(outliers); // files from before these fields
    }

    public static Summary of(double[] samples) {
        if (samples.length == 0) {
            throw new IllegalArgumentException("no samples");
        }
        double[] sorted = samples.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        DoubleStatistics stats =
                DoubleStatistics.of(java.util.EnumSet.of(Statistic.MEAN, Statistic.STANDARD_DEVIATION), sorted);
        double mean = stats.getAsDouble(Statistic.MEAN);
        double stdev = n > 1 ? stats.getAsDouble(Statistic.STANDARD_DEVIATION) : 0.0;
        double median = Median.withDefaults().evaluate(sorted);
        int[] ranks = medianRanks(n);
        double level = coverage(n, ranks[0]);
        double cv = mean == 0 ? 0 : stdev / mean;
        return new Summary(
                n,
                median,
                mean,
                stdev,
                cv,
                List.of(sorted[ranks[0] - 1], sorted[ranks[1] - 1]),
                level,
                outliers(samples, median),
                cv > UNSTABLE_CV);
    }

    /** Indices of samples beyond the modified Z-score threshold (median absolute deviation based). */
    static List<Integer> outliers(double[] samples, double median) {
        double[] deviations = new double[samples.length];
        for (int i = 0; i < samples.length; i++) {
            deviations[i] = Math.abs(samples[i] - median);
        }
        double mad = Math.max(Median.withDefaults().evaluate(deviations.clone()), Math.ulp(median));
        List<Integer> out = new java.util.ArrayList<>();
        for (int i = 0; i < samples.length; i++) {
            if (deviations[i] / mad > OUTLIER_THRESHOLD) {
                out.add(i);
            }
        }
        return out;
    }

    /** 1-based ranks (k, n+1−k) of the order-statistic interval for the median; (1, n) when n is too small. */
    static int[] medianRanks(int n) {
        if (n < 2) {
            return new int[] {1, 1};
        }
        BinomialDistribution half = BinomialDistribution.of(n, 0.5);
        int best = 1;
        for (int k = 1; k <= n / 2; k++) {
            if (half.cumulativeProbability(k - 1) <= 0.025) {
                best = k;
            }
        }
        return new int[] {best, n + 1 - best};
    }

    static double coverage(int n, int k) {
        if (n < 2) {
            return 0.0;
        }
        return 1 - 2 * BinomialDistribution.of(n, 0.5).cumulativeProbability(k - 1);
    }
}
