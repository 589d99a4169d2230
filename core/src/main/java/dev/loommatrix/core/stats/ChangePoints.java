package dev.loommatrix.core.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Change points in a series of medians (one per run) by PELT — Killick, Fearnhead and Eckley,
 * "Optimal detection of changepoints with a linear computational cost", JASA 107 (2012) — with a
 * normal mean-change cost. The noise level σ is estimated from the raw series' first differences
 * (median |Δ| / (0.6745·√2)): a level shift moves one difference only, and no filter runs before it, so
 * nothing shrinks it (a Hampel filter ahead of it once did, to 0.8× and less, which lowered the penalty and
 * let PELT add spurious short segments). The penalty per change is {@code 3·ln(n)·σ²}, the modified BIC of
 * Zhang and Siegmund (2007), the default of R's changepoint package; segments are at least
 * {@value #MIN_SEGMENT} runs long. PELT runs on the series with single odd runs tamed (Hampel filter).
 * Then each change is confirmed against the segments that matter: the runs since the previous confirmed
 * change and up to the next, by an exact Mann-Whitney U test at {@value #CONFIRM_ALPHA} and a level shift of
 * at least 5 %; the weakest change that fails is dropped and its neighbours merged, until all pass.
 *
 * <p>What it detects is measured in ChangePointsTest on seeded synthetic series and stated in docs/statistics.md. It
 * models steps: a slow drift is flagged once the level has moved by the minimum shift, as a step somewhere
 * along it (the series shows which it is).
 */
public final class ChangePoints {

    public static final int MIN_SEGMENT = 3;
    public static final String METHOD =
            "PELT (Killick, Fearnhead & Eckley 2012), normal mean change, σ from the median first difference of"
                    + " the raw series, penalty 3·ln(n)·σ² (MBIC), segments ≥ " + MIN_SEGMENT
                    + " runs, Hampel-filtered;"
                    + " each change confirmed against the runs back to the previous change and on to the next"
                    + " (exact Mann-Whitney U at p < 0.01, level shift ≥ 5 %)";

    private ChangePoints() {}

    /** A change point must move the level by at least this fraction: smaller shifts are noise to a user. */
    public static final double MIN_RELATIVE_SHIFT = 0.05;

    /** And the runs on either side must differ by a rank test (Mann-Whitney U) at this level. */
    public static final double CONFIRM_ALPHA = 0.01;

    /** Indices i where a new segment starts (y[i] is the first value of the new level), ascending. */
    public static List<Integer> detect(double[] series) {
        if (series.length < 2 * MIN_SEGMENT) {
            return List.of();
        }
        double[] y = hampel(series);
        List<Integer> points = new ArrayList<>(pelt(y, noise(series)));
        while (!points.isEmpty()) {
            int weakest = -1;
            double weakestP = -1;
            for (int k = 0; k < points.size(); k++) {
                int from = k == 0 ? 0 : points.get(k - 1);
                int at = points.get(k);
                int to = k + 1 < points.size() ? points.get(k + 1) : y.length;
                double before = mean(y, from, at);
                double after = mean(y, at, to);
                double p = MannWhitney.pValue(Arrays.copyOfRange(series, from, at), Arrays.copyOfRange(series, at, to));
                boolean holds = Math.abs(after - before) >= MIN_RELATIVE_SHIFT * Math.abs(before) && p < CONFIRM_ALPHA;
                double strength = holds ? -1 : (Double.isNaN(p) ? 2 : p); // the failing one with the largest p
                if (strength > weakestP) {
                    weakestP = strength;
                    weakest = k;
                }
            }
            if (weakestP < 0) {
                break; // every change holds against its neighbours
            }
            points.remove(weakest);
        }
        return points;
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

    static List<Integer> pelt(double[] y, double noise) {
        int n = y.length;
        if (n < 2 * MIN_SEGMENT) {
            return List.of();
        }
        double sigma = noise;
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
