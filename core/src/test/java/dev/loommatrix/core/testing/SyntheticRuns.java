package dev.loommatrix.core.testing;

import dev.loommatrix.core.matrix.Iterations;
import dev.loommatrix.core.matrix.Workloads;
import dev.loommatrix.core.plan.Coordinates;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.EnvironmentRecord;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.result.Sample;
import dev.loommatrix.core.stats.Summary;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;

/** Cells whose samples come from known distributions: the truth a comparison must find. */
public final class SyntheticRuns {

    private SyntheticRuns() {}

    /** n samples of a log-normal with the given median and coefficient of variation (approximately). */
    public static double[] samples(long seed, int n, double median, double cv) {
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

    /** What an attested 2-CPU HotSpot 21 cell reports: an ok cell always has an environment. */
    public static final EnvironmentRecord ENVIRONMENT = new EnvironmentRecord(
            2,
            new EnvironmentRecord.Scheduler(
                    Optional.of(256), Optional.of(1), Optional.of(2), Optional.empty(), Optional.of("forkjoinpool")),
            Map.of("name", "OpenJDK 64-Bit Server VM", "vendor", "Eclipse Adoptium", "version", "21.0.8+9"),
            "21.0.8",
            List.of("G1 Young Generation", "G1 Old Generation"),
            "",
            List.of(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            new EnvironmentRecord.Limits(
                    Optional.empty(),
                    Optional.of("v2"),
                    Optional.of(2.0),
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty()),
            true,
            List.of());

    public static CellRecord cell(String workload, String jdk, String variant, String metric, double[] values) {
        return cell(workload, jdk, variant, metric, values, Optional.empty());
    }

    /** A cell of an A/B run's side: sample i ran in block i. */
    public static CellRecord abCell(String workload, String jdk, String variant, String metric, double[] values) {
        List<Integer> blocks = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            blocks.add(i);
        }
        return cell(workload, jdk, variant, metric, values, Optional.of(blocks));
    }

    /**
     * A cell of an A/B run's side whose forks measured iterations (the nested t's data): block i's one fork ran
     * {@code iterations[i]}, all measured, its steady state (wallMs) their median.
     */
    public static CellRecord abIteratedCell(String workload, String jdk, String variant, double[][] iterations) {
        double[] steady = new double[iterations.length];
        for (int i = 0; i < iterations.length; i++) {
            double[] sorted = iterations[i].clone();
            java.util.Arrays.sort(sorted);
            int n = sorted.length;
            steady[i] = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        }
        CellRecord plain = abCell(workload, jdk, variant, "wallMs", steady);
        Measurement m = plain.measurements().get(0);
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < iterations.length; i++) {
            Map<String, Object> flat =
                    new java.util.LinkedHashMap<>(m.samples().get(i).flat());
            flat.put(
                    "iterationsWallMs",
                    java.util.Arrays.stream(iterations[i]).boxed().toList());
            samples.add(Sample.of(flat));
        }
        Measurement iterated = new Measurement(
                        m.variant(),
                        m.params(),
                        m.metric(),
                        samples,
                        m.summary(),
                        m.processSummary(),
                        m.lowerBoundMs(),
                        m.efficiency(),
                        m.ceiling(),
                        m.error(),
                        m.benchmark(),
                        m.blocks(),
                        Optional.empty(),
                        Optional.empty())
                .withIterations(new Iterations(0, iterations[0].length));
        return CellRecord.of(
                plain.cellId(),
                plain.coordinates(),
                plain.status(),
                plain.reason(),
                plain.logTail(),
                plain.environment(),
                List.of(iterated),
                plain.execution());
    }

    private static CellRecord cell(
            String workload,
            String jdk,
            String variant,
            String metric,
            double[] values,
            Optional<List<Integer>> blocks) {
        Coordinates coordinates = new Coordinates(
                jdk, "hotspot", 21, "linux", BigDecimal.valueOf(2), "all", "auto", "auto", "auto", workload);
        List<Sample> samples = new ArrayList<>();
        for (double v : values) {
            Map<String, Object> sample = new java.util.LinkedHashMap<>();
            sample.put("wallMs", metric.equals("wallMs") ? v : 30_000.0); // a load test's window is fixed
            sample.put(metric, v);
            samples.add(Sample.of(sample));
        }
        Measurement m = new Measurement(
                variant,
                Map.of(),
                Workloads.judgedBy(workload),
                samples,
                Optional.of(Summary.of(values)),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                blocks,
                Optional.empty(),
                Optional.empty());
        return CellRecord.of(
                coordinates.cellId(),
                coordinates,
                CellStatus.OK,
                Optional.empty(),
                Optional.empty(),
                Optional.of(ENVIRONMENT),
                List.of(m),
                CellRecord.Execution.of("container", "test", "t0", "t1", 0, List.of(variant)));
    }

    /**
     * A cell whose forks each ran the workload {@code design.warmup() + design.measure()} times: fork i's steady
     * state {@code steady[i]} (its wallMs) and its first iteration {@code cold[i]}.
     */
    public static CellRecord iteratedCell(
            String workload, String jdk, String variant, Iterations design, double[] steady, double[] cold) {
        CellRecord plain = cell(workload, jdk, variant, "wallMs", steady);
        Measurement m = plain.measurements().get(0);
        List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < steady.length; i++) {
            samples.add(m.samples().get(i).with(Measurement.COLD_START, cold[i]));
        }
        Measurement iterated = new Measurement(
                        m.variant(),
                        m.params(),
                        m.metric(),
                        samples,
                        m.summary(),
                        m.processSummary(),
                        m.lowerBoundMs(),
                        m.efficiency(),
                        m.ceiling(),
                        m.error())
                .withIterations(design);
        return CellRecord.of(
                plain.cellId(),
                plain.coordinates(),
                plain.status(),
                plain.reason(),
                plain.logTail(),
                plain.environment(),
                List.of(iterated),
                plain.execution());
    }
}
