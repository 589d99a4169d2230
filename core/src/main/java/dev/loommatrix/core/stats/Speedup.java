package dev.loommatrix.core.stats;

import java.util.List;

/**
 * How many times better the {@code virtual} variant is than another variant of the same cell, on the
 * metric the cell is judged by: {@code ratio} > 1 means virtual threads win (other's time / virtual's
 * time, or virtual's throughput / other's). {@code ci95} is the bootstrap interval of that ratio.
 */
public record Speedup(String variant, String over, String metric, double ratio, List<Double> ci95) {

    public static final String VIRTUAL = "virtual";

    public Speedup {
        ci95 = List.copyOf(ci95);
    }

    /**
     * @param virtual the virtual variant's values of {@code metric}
     * @param other the other variant's values
     * @param seed fixes the bootstrap, so the same data give the same interval in every report
     */
    public static Speedup of(
            String otherVariant, MetricDescriptor metric, double[] virtual, double[] other, long seed) {
        // virtual wins when its time is lower (other / virtual) or its throughput higher (virtual / other);
        // RatioInterval gives median(y) / median(x)
        double[] x = metric.higherIsBetter() ? other : virtual;
        double[] y = metric.higherIsBetter() ? virtual : other;
        return new Speedup(
                otherVariant,
                VIRTUAL,
                metric.name(),
                RatioInterval.median(y) / RatioInterval.median(x),
                RatioInterval.of(x, y, seed));
    }
}
