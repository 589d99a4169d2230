package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.matrix.JdkEntry;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.EnvironmentRecord;
import dev.loommatrix.core.testing.TestMatrices;
import dev.loommatrix.runner.backend.Execution;
import dev.loommatrix.runner.records.Attestation;
import dev.loommatrix.runner.records.CellAssembler;
import dev.loommatrix.runner.records.CellOutcome;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * No OpenJ9 binary is reachable here, so OpenJ9 cells are checked against a record fixture that
 * follows OpenJ9's documented behaviour: {@code java.vm.name} "Eclipse OpenJ9 VM", the gencon
 * collectors' MXBean names ("scavenge", "global"), the {@code JAVA_TOOL_OPTIONS} the Semeru images
 * set, a fractional quota rounded down (2.4 CPUs → 2 processors), and no {@code jdk.VirtualThreadPinned}
 * JFR event.
 */
class OpenJ9FixtureTest {

    static final Path FIXTURE = Path.of("src/test/resources/fixtures/raw/openj9-semeru21-cpus2.4-pinning");

    static Cell cell(String vm) throws Exception {
        return TestMatrices.plan(
                        """
                schema: 1
                jdks: [{id: semeru-21, vm: %s, version: 21, image: "ibm-semeru-runtimes:open-21-jdk"}]
                cpus: [2.4]
                workloads: [{id: pinning, variants: [synchronized], params: {tasks: 16, sleepMs: 100}}]
                repetitions: 2
                warmup: 1
                memory: 1g
                pids: 20000
                """
                                .formatted(vm))
                .get(0);
    }

    static CellRecord record(Cell cell) {
        int processors = Attestation.processorsForQuota(cell.jdk().vm(), new BigDecimal("2.4"), 4);
        Attestation.Expectation expected = new Attestation.Expectation(
                processors,
                "quota 2.4 on a 4-CPU host",
                Optional.of(new BigDecimal("2.4")),
                Optional.of(1L << 30),
                Optional.of(20_000L));
        CellOutcome outcome = CellAssembler.assemble(
                cell,
                FIXTURE,
                List.of("synchronized"),
                Map.of(),
                expected,
                Optional.of("ibm-semeru-runtimes:open-21-jdk"),
                Optional.of("sha256:fixture"),
                new CellAssembler.Ending.Completed());
        return MatrixRun.toRecord(
                cell,
                new Execution(
                        outcome, "container", "hyperfine (in container)", List.of("synchronized"), Optional.empty()),
                Instant.parse("2026-11-21T10:00:00Z"),
                Instant.parse("2026-11-21T10:00:05Z"));
    }

    @Test
    void anOpenJ9CellWithAFractionalQuotaIsAttestedWithTwoProcessors() throws Exception {
        Cell cell = cell("openj9");
        assertThat(cell.jdk().vm()).isEqualTo(JdkEntry.Vm.OPENJ9);
        CellRecord record = record(cell);
        assertThat(record.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
        EnvironmentRecord env = record.environment().orElseThrow();
        assertThat(env.attestation())
                .allSatisfy(check -> assertThat(check.ok()).as(check.toString()).isTrue());
        assertThat(env.attested()).isTrue();
        assertThat(env.availableProcessors()).isEqualTo(2);
        assertThat(env.gc()).containsExactly("scavenge", "global");
        // Semeru's JAVA_TOOL_OPTIONS (with -XX:+IgnoreUnrecognizedVMOptions) is kept, not hidden
        assertThat(env.javaToolOptions()).contains("-XX:+IgnoreUnrecognizedVMOptions", "-Xshareclasses");
    }

    @Test
    void theSameRecordClaimedAsHotSpotIsNotAttested() throws Exception {
        // HotSpot would have rounded 2.4 up to 3 processors, and the VM name does not match
        CellRecord record = record(cell("hotspot"));
        EnvironmentRecord env = record.environment().orElseThrow();
        assertThat(env.attested()).isFalse();
        assertThat(env.attestation())
                .filteredOn(c -> !c.ok())
                .extracting(EnvironmentRecord.Check::setting)
                .contains("availableProcessors", "vm");
    }

    @Test
    void missingPinnedEventsAreSaidNotCountedAsZero() throws Exception {
        CellRecord record = record(cell("openj9"));
        assertThat(record.measurements().get(0).samples()).allSatisfy(sample -> {
            assertThat(sample.flat()).doesNotContainKey("pinnedEvents");
            assertThat(String.valueOf(sample.flat().get("pinnedEventsUnavailable")))
                    .contains("OpenJ9");
        });
    }
}
