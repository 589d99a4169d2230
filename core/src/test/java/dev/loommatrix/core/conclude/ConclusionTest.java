package dev.loommatrix.core.conclude;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ConclusionTest {

    @Test
    void anIntervalIsClassedAgainstThePracticalBand() {
        // the dashboard's pinning tile: 1.0105 [1.0048, 1.028] was coloured a win; within ±10 % it is no difference
        assertThat(Conclusion.of(1.0048, 1.028, 0.10)).isEqualTo(Conclusion.NO_DIFFERENCE);
        assertThat(Conclusion.of(1.11, 1.5, 0.10)).isEqualTo(Conclusion.PAYS_OFF);
        assertThat(Conclusion.of(0.06, 0.08, 0.10)).isEqualTo(Conclusion.HURTS);
        // compare's echo-server pool:50 [1.12, 1.33] is beyond +10 % as a whole: it pays off, not "inconclusive"
        assertThat(Conclusion.of(1.12, 1.33, 0.10)).isEqualTo(Conclusion.PAYS_OFF);
        // across an edge of the band: more evidence would decide
        assertThat(Conclusion.of(1.05, 1.3, 0.10)).isEqualTo(Conclusion.CANNOT_TELL);
        assertThat(Conclusion.of(0.85, 0.95, 0.10)).isEqualTo(Conclusion.CANNOT_TELL);
        assertThat(Conclusion.of(0.5, 3.0, 0.10)).isEqualTo(Conclusion.CANNOT_TELL);
    }

    @Test
    void theBandIsSymmetricInRatio() {
        // 1/1.1 = 0.90909…: an interval wholly above it is within the band on the losing side
        assertThat(Conclusion.of(0.91, 1.0, 0.10)).isEqualTo(Conclusion.NO_DIFFERENCE);
        assertThat(Conclusion.of(0.90, 1.0, 0.10)).isEqualTo(Conclusion.CANNOT_TELL);
        assertThat(Conclusion.of(0.80, 0.9090, 0.10)).isEqualTo(Conclusion.HURTS);
    }

    @Test
    void aBackwardIntervalIsRefused() {
        assertThatThrownBy(() -> Conclusion.of(1.2, 1.1, 0.1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Conclusion.of(Double.NaN, 1.1, 0.1)).isInstanceOf(IllegalArgumentException.class);
    }
}
