package dev.loommatrix.core.compare;

import dev.loommatrix.core.stats.MannWhitney;
import dev.loommatrix.core.stats.RatioInterval;
import dev.loommatrix.core.stats.SignedRank;
import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/**
 * What a comparison could have resolved: the smallest shift its test would have found significant, on
 * its own data with the observed change taken out — so the answer is about the noise and the sample
 * sizes, not about the change that happened. Shifts are on the log scale (a shift s is a change of
 * e^s − 1).
 */
final class Resolving {

    /** 1.4826 · MAD estimates the standard deviation of normal data, robust to a stray value. */
    private static final double MAD_TO_SD = 1.4826;

    private Resolving() {}

    /** The least shift s ≥ 0 with signed-rank p(d − median(d) + s) ≤ level; NaN when none can reach it. */
    static double pairedShift(double[] logRatios, double level) {
        if (SignedRank.smallestP(logRatios.length) > level) {
            return Double.NaN;
        }
        double centre = RatioInterval.median(logRatios);
        double[] centred = Arrays.stream(logRatios).map(v -> v - centre).toArray();
        return leastShift(
                s -> SignedRank.pValue(Arrays.stream(centred).map(v -> v + s).toArray()), level);
    }

    /**
     * The least shift s ≥ 0 with Mann-Whitney p ≤ level once the candidate's samples are moved onto the
     * baseline's median and then by s; NaN when none can reach it.
     */
    static double unpairedShift(double[] baseline, double[] candidate, double level) {
        if (MannWhitney.smallestP(baseline.length, candidate.length) > level) {
            return Double.NaN;
        }
        double[] lx = Arrays.stream(baseline).map(Math::log).toArray();
        double[] ly = Arrays.stream(candidate).map(Math::log).toArray();
        double move = RatioInterval.median(lx) - RatioInterval.median(ly);
        return leastShift(
                s -> MannWhitney.pValue(
                        lx, Arrays.stream(ly).map(v -> v + move + s).toArray()),
                level);
    }

    /** A robust standard deviation of the values (1.4826 · median absolute deviation). */
    static double spread(double[] values) {
        double centre = RatioInterval.median(values);
        return MAD_TO_SD
                * RatioInterval.median(
                        Arrays.stream(values).map(v -> Math.abs(v - centre)).toArray());
    }

    /**
     * Bisection for the least s with p(s) ≤ level; a rank test's p falls as the shift grows, and every
     * test given here reaches the level once the shift separates the samples.
     */
    private static double leastShift(DoubleUnaryOperator p, double level) {
        double low = 0;
        double high = 1e-4;
        while (p.applyAsDouble(high) > level) {
            low = high;
            high *= 2;
            if (high > 50) {
                return Double.NaN;
            }
        }
        for (int i = 0; i < 40; i++) {
            double mid = (low + high) / 2;
            if (p.applyAsDouble(mid) <= level) {
                high = mid;
            } else {
                low = mid;
            }
        }
        return high;
    }
}
