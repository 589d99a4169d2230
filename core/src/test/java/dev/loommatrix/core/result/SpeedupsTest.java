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
}
