package dev.loommatrix.core.result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.loommatrix.core.stats.MetricDescriptor;
import dev.loommatrix.core.stats.Speedup;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SpeedupsTest {

    static Measurement m(String variant, MetricDescriptor metric, double... values) {
        return new Measurement(
                variant,
                Map.of(),
                metric,
                Arrays.stream(values)
                        .mapToObj(v -> Sample.of(Map.of(metric.name(), v)))
                        .toList(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty());
    }

    @Test
    void virtualAgainstEachOtherVariantWithAnInterval() {
        // seed 002's shape: a pool 35 times slower than one virtual thread per task
        List<Speedup> speedups = Speedups.of(
                "c",
                List.of(
                        m("virtual", MetricDescriptor.WALL_MS, 430, 440, 450),
                        m("pool:200", MetricDescriptor.WALL_MS, 15400, 15500, 15600)));
        assertThat(speedups).singleElement().satisfies(s -> {
            assertThat(s.variant()).isEqualTo("pool:200");
            assertThat(s.over()).isEqualTo("virtual");
            assertThat(s.ratio()).isCloseTo(15500.0 / 440, within(1e-9));
            assertThat(s.ci95().get(0)).isLessThanOrEqualTo(s.ratio());
            assertThat(s.ci95().get(1)).isGreaterThanOrEqualTo(s.ratio());
            assertThat(s.ci95().get(0)).isGreaterThanOrEqualTo(15400.0 / 450);
        });
    }

    @Test
    void theDirectionComesFromTheRecordedMetricNotTheWorkloadName() {
        List<Speedup> speedups = Speedups.of(
                "c",
                List.of(
                        m("virtual", MetricDescriptor.THROUGHPUT, 5200, 5217, 5230),
                        m("pool:200", MetricDescriptor.THROUGHPUT, 620, 624.5, 630)));
        assertThat(speedups.get(0).ratio()).isCloseTo(5217 / 624.5, within(1e-9));
        assertThat(speedups.get(0).metric()).isEqualTo("throughputPerSecond");
        assertThat(Speedups.of("c", List.of(m("sequential", MetricDescriptor.WALL_MS, 1))))
                .isEmpty();
    }

    /**
     * Issue #18: forks that iterated get speedups twice — the steady state first (what the matrix has always
     * shown) and the cold start after — and each summary says what it rests on.
     */
    @Test
    void iteratedForksGetASteadyAndAColdStartSpeedup() {
        var design = new dev.loommatrix.core.matrix.Iterations(2, 5);
        Measurement virtual = iterated("virtual", design, new double[] {100, 101, 102}, new double[] {240, 236, 242});
        Measurement pool =
                iterated("pool:200", design, new double[] {1010, 1012, 1011}, new double[] {1161, 1171, 1165});
        List<Speedup> speedups = Speedups.of("c", List.of(virtual, pool));
        assertThat(speedups).hasSize(2);
        assertThat(speedups.get(0).metric()).isEqualTo("wallMs");
        assertThat(speedups.get(0).ratio()).isCloseTo(1011.0 / 101, within(1e-9));
        assertThat(speedups.get(1).metric()).isEqualTo("coldStartMs");
        assertThat(speedups.get(1).ratio()).isCloseTo(1165.0 / 240, within(1e-9));

        assertThat(virtual.coldStart())
                .hasValueSatisfying(s -> assertThat(s.median()).isEqualTo(240));
        assertThat(virtual.basis()).isEqualTo("3 forks × 5 iterations (+2 warmup)");
        assertThat(m("virtual", MetricDescriptor.WALL_MS, 1, 2).basis()).isEqualTo("2 forks");
        // a cold run's own value is its cold start; an iterated one is judged by its first iterations
        assertThat(virtual.coldStartView().metric()).isEqualTo(MetricDescriptor.COLD_START_MS);
        assertThat(m("virtual", MetricDescriptor.WALL_MS, 7, 9).coldStartView().values(Measurement.COLD_START))
                .containsExactly(7, 9);
        // no cold-start speedup when one side ran once: its single value is not a fork's first of many
        assertThat(Speedups.of("c", List.of(virtual, m("pool:200", MetricDescriptor.WALL_MS, 1100, 1200))))
                .extracting(Speedup::metric)
                .containsExactly("wallMs");
    }

    @Test
    void aForkStillTrendingIsCounted() {
        Measurement m = new Measurement(
                "virtual",
                Map.of(),
                MetricDescriptor.WALL_MS,
                List.of(
                        Sample.of(Map.of("wallMs", 100.0, Measurement.STEADY, true)),
                        Sample.of(Map.of("wallMs", 130.0, Measurement.STEADY, false)),
                        Sample.of(Map.of("wallMs", 101.0))),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty());
        assertThat(m.notSteadyForks()).isEqualTo(1);
    }

    private static Measurement iterated(
            String variant, dev.loommatrix.core.matrix.Iterations design, double[] steady, double[] cold) {
        List<Sample> samples = new java.util.ArrayList<>();
        for (int i = 0; i < steady.length; i++) {
            samples.add(Sample.of(Map.of("wallMs", steady[i], Measurement.COLD_START, cold[i])));
        }
        return new Measurement(
                        variant,
                        Map.of(),
                        MetricDescriptor.WALL_MS,
                        samples,
                        Optional.of(dev.loommatrix.core.stats.Summary.of(steady)),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty())
                .withIterations(design);
    }
}
