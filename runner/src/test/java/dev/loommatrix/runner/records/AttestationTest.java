package dev.loommatrix.runner.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.matrix.JdkEntry.Vm;
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

    static HarnessEnvironment semeruEnvironment() {
        return new HarnessEnvironment(
                2,
                null,
                java.util.Map.of("name", "Eclipse OpenJ9 VM"),
                "21.0.8",
                "21",
                java.util.List.of(),
                "-XX:+IgnoreUnrecognizedVMOptions -XX:+PortableSharedCache -Xshareclasses:name=openj9_system_scc,nonFatal",
                java.util.List.of(),
                null,
                null);
    }

    static dev.loommatrix.core.plan.Cell semeru(String extras) throws Exception {
        return dev.loommatrix.core.testing.TestMatrices.plan(
                        """
                schema: 1
                jdks: [{id: semeru-21, vm: openj9, version: 21, image: x%s}]
                workloads: [{id: sleep-bound, variants: [virtual]}]
                """
                                .formatted(extras))
                .get(0);
    }

    @Test
    void aSilentlyIgnoredXxFlagIsNotAttestedUnlessTheEntryChoseIt() throws Exception {
        var env = semeruEnvironment();
        // no -XX flags asked for: nothing to check
        assertThat(Attestation.ignoredOptionsCheck(semeru(""), env)).isEmpty();
        var hidden = Attestation.ignoredOptionsCheck(semeru(", jvmArgs: [-XX:+UseZGC]"), env);
        assertThat(hidden).hasValueSatisfying(check -> {
            assertThat(check.ok()).isFalse();
            assertThat(check.note()).hasValueSatisfying(n -> assertThat(n).contains("javaToolOptions"));
        });
        var chosen = Attestation.ignoredOptionsCheck(
                semeru(", jvmArgs: [-XX:+UseZGC], javaToolOptions: \"-XX:+IgnoreUnrecognizedVMOptions\""), env);
        assertThat(chosen).hasValueSatisfying(check -> assertThat(check.ok()).isTrue());
    }
}
