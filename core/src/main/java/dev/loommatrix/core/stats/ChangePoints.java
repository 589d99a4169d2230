package dev.loommatrix.core.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Change points in a series of medians (one per run) by PELT — Killick, Fearnhead and Eckley,
 * "Optimal detection of changepoints with a linear computational cost", JASA 107 (2012) — with a
 * normal mean-change cost. The noise level σ is estimated robustly from the first differences
 * (MAD / (0.6745·√2)), so a single shift does not inflate it, and the penalty per change is
 * {@code 3·ln(n)}, the modified BIC of Zhang and Siegmund (2007), the default of R's changepoint
 * package. Segments are at least {@value #MIN_SEGMENT} runs long, single odd runs are tamed first
 * (Hampel filter), and a change must move the level by at least 5 %: what is left is a change a
 * user should look at.
 */
public final class ChangePoints {

    public static final int MIN_SEGMENT = 2;
    public static final String METHOD =
            "PELT (Killick, Fearnhead & Eckley 2012), normal mean change, σ from the MAD of first differences,"
                    + " penalty 3·ln(n) (MBIC), segments ≥ " + MIN_SEGMENT + " runs, Hampel-filtered,"
                    + " level shifts ≥ 5 % confirmed by Mann-Whitney U at p < 0.01";

    private ChangePoints() {}

    /** Indices i where a new segment starts (y[i] is the first value of the new level), ascending. */
    /** A change point must move the level by at least this fraction: smaller shifts are noise to a user. */
    public static final double MIN_RELATIVE_SHIFT = 0.05;

    /** And the runs on either side must differ by a rank test (Mann-Whitney U) at this level. */
    public static final double CONFIRM_ALPHA = 0.01;

    /**
     * Change points that matter: PELT on the series with single-run outliers tamed (Hampel filter),
     * keeping only those that move the segment mean by at least {@link #MIN_RELATIVE_SHIFT} and whose
     * neighbouring segments differ by a Mann-Whitney U test at {@link #CONFIRM_ALPHA}.
     */
    public static List<Integer> detect(double[] series) {
        double[] y = hampel(series);
        List<Integer> found = pelt(y);
        List<Integer> kept = new ArrayList<>();
        for (int k = 0; k < found.size(); k++) {
            int from = k == 0 ? 0 : found.get(k - 1);
            int at = found.get(k);
            int to = k + 1 < found.size() ? found.get(k + 1) : y.length;
            double before = mean(y, from, at);
            double after = mean(y, at, to);
            double p = org.apache.commons.statistics.inference.MannWhitneyUTest.withDefaults()
                    .test(Arrays.copyOfRange(series, from, at), Arrays.copyOfRange(series, at, to))
                    .getPValue();
            if (Math.abs(after - before) >= MIN_RELATIVE_SHIFT * Math.abs(before) && p < CONFIRM_ALPHA) {
                kept.add(at);
            }
        }
        return kept;
    }

    private static double mean(double[] y, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += y[i];
        }
        return sum / (to - from);
    }

    /**
     * Hampel filter: a value more than 3 scaled MADs from the median of its 5-run window is replaced by
     * that median, so one odd run (a noisy neighbour, a GC storm) does not open a segment.
     */
    static double[] hampel(double[] y) {
        double[] out = y.clone();
        for (int i = 0; i < y.length; i++) {
            int from = Math.max(0, i - 2);
            int to = Math.min(y.length, i + 3);
            double[] window = Arrays.copyOfRange(y, from, to);
            double median = RatioInterval.median(window);
            double[] deviations =
                    Arrays.stream(window).map(v -> Math.abs(v - median)).toArray();
            double mad = 1.4826 * RatioInterval.median(deviations);
            if (window.length >= 3 && mad > 0 && Math.abs(y[i] - median) > 3 * mad) {
                out[i] = median;
            }
        }
        return out;
    }

    static List<Integer> pelt(double[] y) {
        int n = y.length;
        if (n < 2 * MIN_SEGMENT) {
            return List.of();
        }
        double sigma = noise(y);
        if (sigma == 0) {
            sigma = Math.max(1e-12, Math.abs(RatioInterval.median(y)) * 1e-9); // a flat series: any step counts
        }
        double penalty = 3 * Math.log(n);
        double[] s1 = new double[n + 1];
        double[] s2 = new double[n + 1];
        for (int i = 0; i < n; i++) {
            s1[i + 1] = s1[i] + y[i];
            s2[i + 1] = s2[i] + y[i] * y[i];
        }
        double variance = sigma * sigma;
        double[] best = new double[n + 1];
        int[] last = new int[n + 1];
        best[0] = -penalty;
        List<Integer> candidates = new ArrayList<>(List.of(0));
        for (int t = MIN_SEGMENT; t <= n; t++) {
            double min = Double.POSITIVE_INFINITY;
            int arg = 0;
            double[] costs = new double[candidates.size()];
            for (int k = 0; k < candidates.size(); k++) {
                int s = candidates.get(k);
                costs[k] = t - s >= MIN_SEGMENT
                        ? best[s] + cost(s1, s2, s, t) / variance + penalty
                        : Double.POSITIVE_INFINITY;
                if (costs[k] < min) {
                    min = costs[k];
                    arg = s;
                }
            }
            best[t] = min;
            last[t] = arg;
            // PELT pruning: a start that cannot beat t now never will
            List<Integer> kept = new ArrayList<>();
            for (int k = 0; k < candidates.size(); k++) {
                if (costs[k] == Double.POSITIVE_INFINITY || costs[k] - penalty <= min) {
                    kept.add(candidates.get(k));
                }
            }
            if (t <= n - MIN_SEGMENT) {
                kept.add(t);
            }
            candidates = kept;
        }
        List<Integer> points = new ArrayList<>();
        for (int t = n; last[t] > 0; t = last[t]) {
            points.add(0, last[t]);
        }
        return points;
    }

    /** Sum of squared deviations from the mean of y[s..t). */
    private static double cost(double[] s1, double[] s2, int s, int t) {
        double sum = s1[t] - s1[s];
        return (s2[t] - s2[s]) - sum * sum / (t - s);
    }

    /** σ of the noise from first differences: robust to level shifts (only one difference sees each). */
    static double noise(double[] y) {
        double[] diffs = new double[y.length - 1];
        for (int i = 1; i < y.length; i++) {
            diffs[i - 1] = Math.abs(y[i] - y[i - 1]);
        }
        Arrays.sort(diffs);
        double mad = RatioInterval.median(diffs);
        return mad / (0.6745 * Math.sqrt(2));
    }
}
