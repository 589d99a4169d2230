package dev.loommatrix.runner.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.runner.matrix.JdkEntry.Vm;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class AttestationTest {

    @Test
    void hotspotRoundsAFractionalQuotaUpAndOpenJ9Down() {
        assertThat(Attestation.processorsForQuota(Vm.HOTSPOT, new BigDecimal("1.5"), 16))
                .isEqualTo(2);
        assertThat(Attestation.processorsForQuota(Vm.HOTSPOT, new BigDecimal("2.4"), 16))
                .isEqualTo(3);
        assertThat(Attestation.processorsForQuota(Vm.OPENJ9, new BigDecimal("2.4"), 16))
                .isEqualTo(2);
        assertThat(Attestation.processorsForQuota(Vm.OPENJ9, new BigDecimal("0.5"), 16))
                .isEqualTo(1);
        assertThat(Attestation.processorsForQuota(Vm.HOTSPOT, new BigDecimal("1"), 16))
                .isEqualTo(1);
    }

    @Test
    void neverMoreThanTheHostHas() {
        assertThat(Attestation.processorsForQuota(Vm.HOTSPOT, new BigDecimal("4"), 2))
                .isEqualTo(2);
    }

    @Test
    void vmIdentityComesFromTheVmName() {
        assertThat(Attestation.vmMatches(Vm.HOTSPOT, "OpenJDK 64-Bit Server VM"))
                .isTrue();
        assertThat(Attestation.vmMatches(Vm.OPENJ9, "Eclipse OpenJ9 VM")).isTrue();
        assertThat(Attestation.vmMatches(Vm.HOTSPOT, "Eclipse OpenJ9 VM")).isFalse();
    }
}
