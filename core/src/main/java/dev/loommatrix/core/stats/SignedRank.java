package dev.loommatrix.core.stats;

import java.util.Arrays;
import java.util.List;
import org.apache.commons.statistics.inference.ContinuityCorrection;
import org.apache.commons.statistics.inference.PValueMethod;
import org.apache.commons.statistics.inference.WilcoxonSignedRankTest;

/**
 * The Wilcoxon signed-rank test and its interval, for paired differences — in an A/B run, the log-ratios
 * of the candidate's and the baseline's value in blocks that ran back to back. Pairing removes what the
 * two blocks of a pair share (the machine's state at that moment: a noisy neighbour, a thermal phase),
 * which on a shared CI runner is most of the noise.
 *
 * <p>The p-value is two-sided, zero differences dropped (scipy's {@code zero_method="wilcox"}), and exact
 * for small samples whether or not |differences| tie: every sign assignment's (doubled, so integer) rank
 * sum is counted by dynamic programming — what scipy's {@code wilcoxon(method=PermutationMethod())} gives
 * when it enumerates all 2ⁿ assignments. Larger samples use commons-statistics' normal approximation.
 *
 * <p>The interval is the one that goes with the test and the Hodges–Lehmann estimate (the median of the
 * Walsh averages): of the n(n+1)/2 Walsh averages, sorted, the k-th from each end, k the largest with
 * P(W⁺ ≤ k − 1) ≤ 2.5 % under the null; its level 1 − 2·P(W⁺ ≤ k − 1) is exact for symmetric continuous
 * differences, and said when the sample cannot reach 95 % (6 pairs: 96.9 %; 5 pairs: 93.8 %, the whole range).
 */
public final class SignedRank {

    /** Up to this many non-zero differences the p-value is exact. */
    static final int EXACT_MAX_N = 60;

    static final double LEVEL = 0.95;

    private SignedRank() {}

    /** Two-sided p for "the differences are symmetric about 0"; NaN when there are none, 1 when all are 0. */
    public static double pValue(double[] differences) {
        if (differences.length == 0) {
            return Double.NaN;
        }
        double[] d = Arrays.stream(differences).filter(v -> v != 0).toArray();
        if (d.length == 0) {
            return 1.0;
        }
        if (d.length > EXACT_MAX_N) {
            // commons-statistics would still count exactly without ties; past 60 pairs the normal
            // approximation (tie-corrected, no continuity correction: scipy's default) is what is meant
            return WilcoxonSignedRankTest.withDefaults()
                    .with(PValueMethod.ASYMPTOTIC)
                    .with(ContinuityCorrection.DISABLED)
                    .test(d)
                    .getPValue();
        }
        int[] ranks = doubledMidranks(d);
        long observed = 0;
        for (int i = 0; i < d.length; i++) {
            if (d[i] > 0) {
                observed += ranks[i];
            }
        }
        double[] probability = signDistribution(ranks);
        double atMost = 0;
        double atLeast = 0;
        for (int s = 0; s < probability.length; s++) {
            if (s <= observed) {
                atMost += probability[s];
            }
            if (s >= observed) {
                atLeast += probability[s];
            }
        }
        return Math.min(1.0, 2 * Math.min(atMost, atLeast));
    }

    /** The smallest two-sided p-value n pairs can reach: every difference of one sign, 2 / 2ⁿ. */
    public static double smallestP(int n) {
        return n < 1 ? 1.0 : Math.min(1.0, 2 / Math.pow(2, n));
    }

    /** The Hodges–Lehmann estimate of the differences' centre: the median of the Walsh averages. */
    public static double hodgesLehmann(double[] d) {
        return RatioInterval.median(walshAverages(d));
    }

    /**
     * The distribution-free interval for the centre of the differences, with the level it has. For an A/B
     * run's log-ratios, exponentiate the bounds for the interval of the ratio.
     */
    public static RatioInterval.Result interval(double[] d) {
        return interval(d, LEVEL);
    }

    /**
     * The same interval at another level: the k-th Walsh average from each end, k the largest with P(W⁺ ≤ k − 1)
     * ≤ (1 − level) / 2; its own level said (at least the one asked for, or the whole range when n pairs cannot
     * reach it). A sequential A/B's looks ask for 1 − α / J.
     */
    public static RatioInterval.Result interval(double[] d, double level) {
        if (d.length == 0) {
            return new RatioInterval.Result(List.of(Double.NaN, Double.NaN), Double.NaN);
        }
        double[] walsh = walshAverages(d);
        int n = d.length;
        int[] plainRanks = new int[n];
        for (int i = 0; i < n; i++) {
            plainRanks[i] = 2 * (i + 1);
        }
        double[] probability = signDistribution(plainRanks); // index: doubled W+
        double below = 0;
        double tail = probability[0];
        int k = 1;
        for (int kk = 1; kk <= walsh.length / 2; kk++) {
            below += probability[2 * (kk - 1)];
            if (below <= (1 - level) / 2) {
                k = kk;
                tail = below;
            } else {
                break;
            }
        }
        return new RatioInterval.Result(List.of(walsh[k - 1], walsh[walsh.length - k]), 1 - 2 * tail);
    }

    /** The n(n+1)/2 averages (dᵢ + dⱼ) / 2, i ≤ j, sorted. */
    static double[] walshAverages(double[] d) {
        double[] out = new double[d.length * (d.length + 1) / 2];
        int k = 0;
        for (int i = 0; i < d.length; i++) {
            for (int j = i; j < d.length; j++) {
                out[k++] = (d[i] + d[j]) / 2;
            }
        }
        Arrays.sort(out);
        return out;
    }

    /** Ranks of |d|, ties given their mean rank, doubled to stay integers. */
    static int[] doubledMidranks(double[] d) {
        double[] magnitude = Arrays.stream(d).map(Math::abs).toArray();
        return MannWhitney.doubledMidranks(magnitude, new double[0]);
    }

    /**
     * The null distribution of the (doubled) sum of the ranks that get a + sign, each sign a fair coin:
     * index = that sum, value = its probability.
     */
    static double[] signDistribution(int[] doubledRanks) {
        int max = Arrays.stream(doubledRanks).sum();
        double[] probability = new double[max + 1];
        probability[0] = 1;
        int reach = 0;
        for (int rank : doubledRanks) {
            reach += rank;
            for (int s = reach; s >= 0; s--) {
                double without = probability[s] / 2;
                double with = s >= rank ? probability[s - rank] / 2 : 0;
                probability[s] = without + with;
            }
        }
        return probability;
    }
}
