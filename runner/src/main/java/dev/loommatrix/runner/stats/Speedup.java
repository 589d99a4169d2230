package dev.loommatrix.runner.stats;

import dev.loommatrix.runner.result.Measurement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How many times better the {@code virtual} variant is than another variant of the same cell, on the
 * workload's metric: {@code ratio} > 1 means virtual threads win (other's time / virtual's time, or
 * virtual's throughput / other's). {@code ci95} is the bootstrap interval of that ratio.
 */
public record Speedup(String variant, String over, String metric, double ratio, List<Double> ci95) {

    public static final String VIRTUAL = "virtual";

    public Speedup {
        ci95 = List.copyOf(ci95);
    }

    public static List<Speedup> of(String cellId, String workload, List<Measurement> measurements) {
        Metric metric = Metric.of(workload);
        Optional<Measurement> virtual =
                measurements.stream().filter(m -> m.variant().equals(VIRTUAL)).findFirst();
        List<Speedup> out = new ArrayList<>();
        if (virtual.isEmpty()) {
            return out;
        }
        double[] v = virtual.get().values(metric.name());
        for (Measurement other : measurements) {
            if (other == virtual.get()) {
                continue;
            }
            double[] o = other.values(metric.name());
            if (v.length == 0 || o.length == 0) {
                continue;
            }
            long seed = (cellId + "/" + other.variant()).hashCode();
            // virtual wins when its time is lower (other / virtual) or its throughput higher (virtual / other);
            // RatioInterval gives median(y) / median(x)
            double[] x = metric.higherIsBetter() ? o : v;
            double[] y = metric.higherIsBetter() ? v : o;
            out.add(new Speedup(
                    other.variant(),
                    VIRTUAL,
                    metric.name(),
                    RatioInterval.median(y) / RatioInterval.median(x),
                    RatioInterval.of(x, y, seed)));
        }
        return out;
    }
}
