package dev.loommatrix.core.stats;

import java.util.Arrays;
import org.apache.commons.numbers.combinatorics.BinomialCoefficientDouble;
import org.apache.commons.statistics.inference.MannWhitneyUTest;

/**
 * The two-sided Mann-Whitney U (Wilcoxon rank-sum) p-value, exact for small samples whether or not they
 * have ties: the permutation distribution of the rank sum, midranks for ties, is counted exactly by dynamic
 * programming over the (doubled, so integer) rank sums — the p-value scipy's
 * {@code mannwhitneyu(method=PermutationMethod())} gives when it enumerates every permutation. Larger
 * samples use the normal approximation with tie and continuity correction (commons-statistics). All-equal
 * samples have p = 1: nothing could tell them apart.
 */
public final class MannWhitney {

    /** Pooled sizes up to this are exact; the counting costs about N × n1 × N² / 2 steps. */
    static final int EXACT_MAX_N = 60;

    private MannWhitney() {}

    /** Two-sided p; NaN only when a side is empty. */
    public static double pValue(double[] x, double[] y) {
        if (x.length == 0 || y.length == 0) {
            return Double.NaN;
        }
        int n = x.length + y.length;
        if (n > EXACT_MAX_N) {
            return allEqual(x, y)
                    ? 1.0
                    : MannWhitneyUTest.withDefaults().test(x, y).getPValue();
        }
        int[] doubledRanks = doubledMidranks(x, y);
        long observed = 0;
        for (int i = 0; i < x.length; i++) {
            observed += doubledRanks[i];
        }
        double[] ways = rankSumDistribution(doubledRanks, x.length);
        double total = 0;
        double atMost = 0;
        double atLeast = 0;
        for (int s = 0; s < ways.length; s++) {
            total += ways[s];
            if (s <= observed) {
                atMost += ways[s];
            }
            if (s >= observed) {
                atLeast += ways[s];
            }
        }
        return Math.min(1.0, 2 * Math.min(atMost, atLeast) / total);
    }

    /**
     * The smallest two-sided p-value samples of these sizes can reach at all: complete separation without
     * ties, 2 / C(n1 + n2, n1).
     */
    public static double smallestP(int n1, int n2) {
        if (n1 < 1 || n2 < 1) {
            return 1.0;
        }
        return Math.min(1.0, 2 / BinomialCoefficientDouble.value(n1 + n2, n1));
    }

    /**
     * Repetitions per side with which even a complete separation could pass {@code level}: the least n
     * with 2 / C(2n, n) ≤ level.
     */
    public static int repetitionsToReach(double level) {
        int n = 1;
        while (smallestP(n, n) > level && n < 1000) {
            n++;
        }
        return n;
    }

    /** Ranks of x then y in the pooled sample, ties given their mean rank, doubled to stay integers. */
    static int[] doubledMidranks(double[] x, double[] y) {
        int n = x.length + y.length;
        double[] pooled = new double[n];
        System.arraycopy(x, 0, pooled, 0, x.length);
        System.arraycopy(y, 0, pooled, x.length, y.length);
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(pooled[a], pooled[b]));
        int[] ranks = new int[n];
        int i = 0;
        while (i < n) {
            int j = i;
            while (j + 1 < n && pooled[order[j + 1]] == pooled[order[i]]) {
                j++;
            }
            int doubledMid = (i + 1) + (j + 1); // 2 × the mean of ranks i+1 … j+1
            for (int k = i; k <= j; k++) {
                ranks[order[k]] = doubledMid;
            }
            i = j + 1;
        }
        return ranks;
    }

    /** How many size-{@code k} subsets of the ranks have each sum: index = the (doubled) rank sum. */
    static double[] rankSumDistribution(int[] ranks, int k) {
        int max = Arrays.stream(ranks).sum();
        double[][] ways = new double[k + 1][max + 1];
        ways[0][0] = 1;
        int seen = 0;
        for (int rank : ranks) {
            seen++;
            for (int take = Math.min(k, seen); take >= 1; take--) {
                double[] into = ways[take];
                double[] from = ways[take - 1];
                for (int s = max; s >= rank; s--) {
                    if (from[s - rank] != 0) {
                        into[s] += from[s - rank];
                    }
                }
            }
        }
        return ways[k];
    }

    private static boolean allEqual(double[] x, double[] y) {
        double first = x[0];
        return Arrays.stream(x).allMatch(v -> v == first) && Arrays.stream(y).allMatch(v -> v == first);
    }
}
