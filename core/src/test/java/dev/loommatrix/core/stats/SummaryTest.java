package dev.loommatrix.core.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * Expected values are computed independently: mean/median/sample standard deviation by hand (and
 * R's {@code sd()}), the median's order-statistic ranks from binomial tables (P(B(10,½) ≤ 1) =
 * 11/1024 ≈ 0.0107; P(B(20,½) ≤ 5) ≈ 0.0207, ≤ 6 ≈ 0.0577).
 */
class SummaryTest {

    @Test
    void tenSamples() {
        Summary s = Summary.of(new double[] {7, 1, 10, 3, 5, 2, 9, 4, 8, 6});
        assertThat(s.n()).isEqualTo(10);
        assertThat(s.median()).isEqualTo(5.5);
        assertThat(s.mean()).isEqualTo(5.5);
        assertThat(s.stdev()).isCloseTo(3.0276503540974917, within(1e-12)); // R: sd(1:10)
        assertThat(s.cv()).isCloseTo(3.0276503540974917 / 5.5, within(1e-12));
        assertThat(s.ci95()).containsExactly(2.0, 9.0); // ranks 2 and 9
        assertThat(s.ciLevel()).isCloseTo(1 - 2 * 11.0 / 1024, within(1e-12));
    }

    @Test
    void twentySamplesReachNinetyFivePercent() {
        double[] x = new double[20];
        for (int i = 0; i < 20; i++) {
            x[i] = 100 + i;
        }
        Summary s = Summary.of(x);
        assertThat(s.ci95()).containsExactly(105.0, 114.0); // ranks 6 and 15
        assertThat(s.ciLevel()).isCloseTo(0.9586105346679688, within(1e-12)).isGreaterThanOrEqualTo(0.95);
    }

    @Test
    void fewSamplesSayTheirRealCoverage() {
        Summary five = Summary.of(new double[] {5, 1, 3, 2, 4});
        assertThat(five.ci95()).containsExactly(1.0, 5.0);
        assertThat(five.ciLevel()).isEqualTo(0.9375); // 1 − 2·(½)^5
        Summary one = Summary.of(new double[] {42});
        assertThat(one.median()).isEqualTo(42);
        assertThat(one.stdev()).isZero();
        assertThat(one.ci95()).containsExactly(42.0, 42.0);
    }

    @Test
    void outliersAreFlaggedByTheModifiedZScoreAndKept() {
        // median 100.75; deviations 0.25 … 29.25, their median (MAD) 1.5; 130 is 19.5 MADs out (> 14.826)
        Summary s = Summary.of(new double[] {100, 101, 99, 102, 130, 98, 103, 100.5});
        assertThat(s.outliers()).containsExactly(4);
        assertThat(s.n()).isEqualTo(8); // flagged, not dropped
        assertThat(Summary.of(new double[] {100, 101, 99, 102, 98}).outliers()).isEmpty();
    }

    @Test
    void aHighCoefficientOfVariationIsUnstable() {
        assertThat(Summary.of(new double[] {100, 101, 99, 100}).unstable()).isFalse();
        assertThat(Summary.of(new double[] {100, 150, 60, 120}).unstable()).isTrue(); // cv ≈ 0.33
    }
}
