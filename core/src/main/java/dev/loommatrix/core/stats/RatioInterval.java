package dev.loommatrix.core.stats;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A 95 % percentile-bootstrap interval for the ratio of two medians (y over x): both samples are
 * resampled with replacement {@value #RESAMPLES} times. Seeded, so the same data give the same
 * interval in every report.
 */
public final class RatioInterval {

    public static final int RESAMPLES = 2000;

    private RatioInterval() {}

    public static List<Double> of(double[] x, double[] y, long seed) {
        if (x.length == 0 || y.length == 0) {
            return List.of(Double.NaN, Double.NaN);
        }
        SplittableRandom random = new SplittableRandom(seed);
        double[] ratios = new double[RESAMPLES];
        double[] rx = new double[x.length];
        double[] ry = new double[y.length];
        for (int r = 0; r < RESAMPLES; r++) {
            for (int i = 0; i < rx.length; i++) {
                rx[i] = x[random.nextInt(x.length)];
            }
            for (int i = 0; i < ry.length; i++) {
                ry[i] = y[random.nextInt(y.length)];
            }
            ratios[r] = median(ry) / median(rx);
        }
        Arrays.sort(ratios);
        return List.of(
                ratios[(int) Math.floor(0.025 * (RESAMPLES - 1))], ratios[(int) Math.ceil(0.975 * (RESAMPLES - 1))]);
    }

    public static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
