package dev.loommatrix.core.export;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.statistics.descriptive.Quantile;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * A metric as JMH reports it: the mean of all measured values, its error as the half-width of a 99.9 %
 * Student-t interval (JMH's own rule: {@code t(0.9995, n−1) · s / √n}), that interval, the percentiles JMH
 * lists, and the raw values per fork. Checked against a result file JMH itself wrote.
 */
public record JmhScore(
        double score,
        double scoreError,
        List<Double> scoreConfidence,
        Map<String, Double> scorePercentiles,
        String scoreUnit,
        List<List<Double>> rawData) {

    /** JMH's percentile keys, in its order. */
    static final List<Double> PERCENTILES = List.of(0.0, 50.0, 90.0, 95.0, 99.0, 99.9, 99.99, 99.999, 99.9999, 100.0);

    /** @param forks the values each fork measured (here: one value per fresh JVM, so one per fork) */
    public static JmhScore of(List<List<Double>> forks, String unit) {
        double[] all = forks.stream()
                .flatMap(List::stream)
                .mapToDouble(Double::doubleValue)
                .toArray();
        int n = all.length;
        double mean = Arrays.stream(all).average().orElse(Double.NaN);
        double error = Double.NaN;
        if (n > 1) {
            double sumSq = Arrays.stream(all).map(v -> (v - mean) * (v - mean)).sum();
            double sd = Math.sqrt(sumSq / (n - 1));
            error = TDistribution.of(n - 1).inverseCumulativeProbability(1 - 0.001 / 2) * sd / Math.sqrt(n);
        }
        double[] sorted = all.clone();
        Arrays.sort(sorted);
        Map<String, Double> percentiles = new LinkedHashMap<>();
        for (double p : PERCENTILES) {
            percentiles.put(key(p), percentile(sorted, p));
        }
        return new JmhScore(
                mean,
                error,
                List.of(mean - error, mean + error),
                percentiles,
                unit,
                forks.stream().map(List::copyOf).toList());
    }

    /** JMH writes 50.0, 99.9, 99.9999: the shortest decimal that is exact. */
    private static String key(double p) {
        return java.math.BigDecimal.valueOf(p).stripTrailingZeros().scale() <= 0
                ? String.format(java.util.Locale.ROOT, "%.1f", p)
                : java.math.BigDecimal.valueOf(p).stripTrailingZeros().toPlainString();
    }

    /**
     * JMH's percentiles are commons-math3's default estimator (R6 in Hyndman and Fan's list), with the
     * ends pinned to the minimum and maximum.
     */
    private static double percentile(double[] sorted, double p) {
        if (p == 0.0) {
            return sorted[0];
        }
        if (p == 100.0) {
            return sorted[sorted.length - 1];
        }
        return Quantile.withDefaults().with(Quantile.EstimationMethod.HF6).evaluate(sorted, p / 100.0);
    }
}
