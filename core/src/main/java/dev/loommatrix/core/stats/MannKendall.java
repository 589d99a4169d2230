package dev.loommatrix.core.stats;

import java.util.HashMap;
import java.util.Map;
import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * The Mann-Kendall test for a monotonic trend in a series (Kendall's tau of the values against their run
 * order): is a fork's run of measured iterations still speeding up or slowing down, i.e. not yet in steady
 * state? Two-sided. Without ties the p-value is exact — the null distribution of the number of discordant
 * pairs (inversions) counted by dynamic programming, as scipy's {@code kendalltau(method="exact")}; with ties,
 * the normal approximation with the tie-corrected variance of S, no continuity correction (scipy's
 * asymptotic method). A constant series, or one of fewer than 3 values, has p = 1: no trend can be shown.
 */
public final class MannKendall {

    private MannKendall() {}

    public static double pValue(double[] series) {
        int n = series.length;
        if (n < 3) {
            return 1.0;
        }
        long concordant = 0;
        long discordant = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (series[j] > series[i]) {
                    concordant++;
                } else if (series[j] < series[i]) {
                    discordant++;
                }
            }
        }
        Map<Double, Integer> ties = new HashMap<>();
        for (double v : series) {
            ties.merge(v, 1, Integer::sum);
        }
        if (ties.size() == 1) {
            return 1.0;
        }
        if (ties.size() == n) {
            return exact(n, discordant);
        }
        double variance = n * (n - 1.0) * (2 * n + 5);
        for (int t : ties.values()) {
            variance -= t * (t - 1.0) * (2 * t + 5);
        }
        variance /= 18;
        double z = (concordant - discordant) / Math.sqrt(variance);
        return Math.min(1.0, 2 * NormalDistribution.of(0, 1).survivalProbability(Math.abs(z)));
    }

    /** 2 · min(P(D ≤ d), P(D ≥ d)), D the inversions of a random permutation of n (Mahonian numbers). */
    static double exact(int n, long discordant) {
        int max = n * (n - 1) / 2;
        double[] ways = new double[max + 1];
        ways[0] = 1;
        int reach = 0;
        for (int k = 2; k <= n; k++) { // inserting the k-th element adds 0 … k − 1 inversions
            double[] next = new double[max + 1];
            for (int s = 0; s <= reach; s++) {
                if (ways[s] == 0) {
                    continue;
                }
                for (int add = 0; add < k; add++) {
                    next[s + add] += ways[s];
                }
            }
            reach += k - 1;
            ways = next;
        }
        double total = 0;
        double atMost = 0;
        double atLeast = 0;
        for (int s = 0; s <= max; s++) {
            total += ways[s];
            if (s <= discordant) {
                atMost += ways[s];
            }
            if (s >= discordant) {
                atLeast += ways[s];
            }
        }
        return Math.min(1.0, 2 * Math.min(atMost, atLeast) / total);
    }
}
