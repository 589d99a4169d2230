package dev.loommatrix.runner.compare;

import dev.loommatrix.runner.plan.Coordinates;
import dev.loommatrix.runner.result.CellRecord;
import dev.loommatrix.runner.result.Measurement;
import dev.loommatrix.runner.stats.Summary;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/** Cells whose samples come from known distributions: the truth a comparison must find. */
final class SyntheticRuns {

    private SyntheticRuns() {}

    /** n samples of a log-normal with the given median and coefficient of variation (approximately). */
    static double[] samples(long seed, int n, double median, double cv) {
        SplittableRandom random = new SplittableRandom(seed);
        double sigma = StrictMath.sqrt(StrictMath.log(1 + cv * cv));
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            out[i] = median * StrictMath.exp(sigma * gaussian(random));
        }
        return out;
    }

    private static double gaussian(SplittableRandom random) {
        // Box–Muller: two uniforms to one standard normal
        double u = 1 - random.nextDouble();
        double v = random.nextDouble();
        return StrictMath.sqrt(-2 * StrictMath.log(u))
                * StrictMath.cos(2 * Math.PI * v); // StrictMath: the same bytes on every JVM (golden files)
    }

    static CellRecord cell(String workload, String jdk, String variant, String metric, double[] values) {
        Coordinates coordinates = new Coordinates(
                jdk, "hotspot", 21, "linux", BigDecimal.valueOf(2), "all", "auto", "auto", "auto", workload);
        List<Map<String, Object>> samples = new ArrayList<>();
        for (double v : values) {
            Map<String, Object> sample = new java.util.LinkedHashMap<>();
            sample.put("wallMs", metric.equals("wallMs") ? v : 30_000.0); // a load test's window is fixed
            sample.put(metric, v);
            samples.add(sample);
        }
        Measurement m = new Measurement(
                variant,
                Map.of(),
                samples,
                Optional.of(Summary.of(values)),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty());
        return new CellRecord(
                1,
                coordinates.cellId(),
                coordinates,
                "ok",
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                List.of(m),
                new CellRecord.Execution(
                        "container",
                        "test",
                        "t0",
                        "t1",
                        0,
                        List.of(variant),
                        Optional.empty(),
                        Optional.empty(),
                        List.of()));
    }
}
