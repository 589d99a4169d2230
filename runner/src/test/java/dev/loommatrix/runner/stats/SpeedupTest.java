package dev.loommatrix.runner.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.loommatrix.runner.result.Measurement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SpeedupTest {

    static Measurement m(String variant, String metric, double... values) {
        return new Measurement(
                variant,
                Map.of(),
                Arrays.stream(values)
                        .mapToObj(v -> Map.<String, Object>of(metric, v))
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
        List<Speedup> speedups = Speedup.of(
                "c",
                "sleep-bound",
                List.of(m("virtual", "wallMs", 430, 440, 450), m("pool:200", "wallMs", 15400, 15500, 15600)));
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
    void throughputIsHigherIsBetter() {
        List<Speedup> speedups = Speedup.of(
                "c",
                "http-server",
                List.of(
                        m("virtual", "throughputPerSecond", 5200, 5217, 5230),
                        m("pool:200", "throughputPerSecond", 620, 624.5, 630)));
        assertThat(speedups.get(0).ratio()).isCloseTo(5217 / 624.5, within(1e-9));
        assertThat(Speedup.of("c", "fib-fanout", List.of(m("sequential", "wallMs", 1))))
                .isEmpty();
    }
}
