package dev.loommatrix.core.bisect;

import dev.loommatrix.core.compare.Comparison;
import java.util.Locale;

/**
 * How much worse a build is than the good one in one series, as a ratio oriented so that above 1 is worse
 * (slower, or less throughput), with its interval: what a bisection step measured.
 *
 * @param ratio worse ÷ good: 1.06 is 6 % worse
 * @param low the interval's lower end, oriented the same way
 * @param high its upper end
 */
public record Change(double ratio, double low, double high) {

    /** The good build against itself. */
    public static final Change NONE = new Change(1, 1, 1);

    public Change {
        if (!(low <= ratio && ratio <= high) || !(low > 0)) {
            throw new IllegalArgumentException("not an interval around its ratio: " + low + " " + ratio + " " + high);
        }
    }

    /** An A/B comparison of the good build (baseline) against another (candidate), oriented worse-is-above-1. */
    public static Change of(Comparison c) {
        double lo = c.ci95().get(0);
        double hi = c.ci95().get(1);
        // the interval may not hold the Hodges–Lehmann estimate exactly at its ends' rounding: widen to hold it
        lo = Math.min(lo, c.ratio());
        hi = Math.max(hi, c.ratio());
        return c.higherIsBetter() ? new Change(1 / c.ratio(), 1 / hi, 1 / lo) : new Change(c.ratio(), lo, hi);
    }

    /** Whether it is a regression of at least {@code threshold} (0.03: 3 %): its whole interval above 1 and its ratio beyond. */
    public boolean regression(double threshold) {
        return low > 1 && ratio > 1 + threshold;
    }

    /** Whether its whole interval lies within ±{@code threshold} of the good build. */
    public boolean none(double threshold) {
        return high < 1 + threshold && low > 1 / (1 + threshold);
    }

    /** "+6.1 % (+4.9 % to +7.3 %)". */
    public String words() {
        return percent(ratio) + " (" + percent(low) + " to " + percent(high) + ")";
    }

    static String percent(double ratio) {
        return String.format(Locale.ROOT, "%+.1f %%", 100 * (ratio - 1));
    }
}
