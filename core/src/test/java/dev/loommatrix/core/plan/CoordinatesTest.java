package dev.loommatrix.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** The one rule that turns a CPU quota into whole CPUs. */
class CoordinatesTest {

    @Test
    void aQuotaIsRoundedUpToWholeCpusAsHotSpotRoundsIt() {
        assertThat(Coordinates.wholeCpus(new BigDecimal("0.5"))).isEqualTo(1);
        assertThat(Coordinates.wholeCpus(new BigDecimal("1.5"))).isEqualTo(2);
        assertThat(Coordinates.wholeCpus(new BigDecimal("2"))).isEqualTo(2);
        assertThat(Coordinates.wholeCpus(new BigDecimal("2.00"))).isEqualTo(2);
        assertThat(Coordinates.wholeCpus(new BigDecimal("2.01"))).isEqualTo(3);
        Coordinates cell = new Coordinates(
                "t25", "hotspot", 25, "linux", new BigDecimal("1.25"), "all", "auto", "auto", "auto", "sleep-bound");
        assertThat(cell.wholeCpus()).isEqualTo(2);
    }
}
