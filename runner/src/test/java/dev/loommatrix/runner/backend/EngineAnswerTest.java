package dev.loommatrix.runner.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.FileTrees;
import dev.loommatrix.core.result.Profile;
import dev.loommatrix.core.testing.TestMatrices;
import dev.loommatrix.runner.records.Attestation;
import dev.loommatrix.runner.records.CellOutcome;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How both engines' cells end, on the raw output of a real container cell (fixtures/raw): a clean end, a failed
 * variant, a crash and a deadline, each with what it says and what it keeps.
 */
class EngineAnswerTest {

    static final List<String> ORDER = List.of("virtual", "pool:100");

    @TempDir
    Path dir;

    Cell cell;
    Path raw;
    final Attestation.Expectation expected = new Attestation.Expectation(
            1,
            "hotspot derives processors from the quota 1 rounded up, at most the host's 2",
            Optional.of(BigDecimal.ONE),
            Optional.of(1L << 30),
            Optional.of(20_000L));

    @BeforeEach
    void rawOutput() throws Exception {
        cell = TestMatrices.plan(
                        """
                schema: 1
                jdks: [{id: debian-21, vm: hotspot, version: 21, image: "local/debian-openjdk:21"}]
                cpus: [1]
                workloads: [{id: sleep-bound, variants: [virtual, "pool:100"], params: {tasks: 1000, sleepMs: 50}}]
                repetitions: 3
                warmup: 1
                memory: 1g
                pids: 20000
                """)
                .get(0);
        raw = FileTrees.copy(
                Path.of("src/test/resources/fixtures/raw/container-hotspot21-cpus1-sleep-bound"), dir.resolve("raw"));
        Files.writeString(raw.resolve("cell.log"), "loom: variant virtual\nloom: variant pool:100\nKilled\n");
    }

    Execution answer(EngineAnswer ending, List<Profile> profiles) {
        return ending.answer(
                "container",
                "hyperfine (in container)",
                expected,
                Optional.of("local/debian-openjdk:21"),
                Optional.of("sha256:fixture"),
                () -> profiles);
    }

    @Test
    void aCellThatRanToItsEndSucceedsWithEveryVariantAndTheFactsOfHowItRan() {
        EngineAnswer ending = new EngineAnswer(cell, raw, ORDER);
        assertThat(ending.endedEarly()).isFalse();
        Execution execution = answer(ending, List.of());
        assertThat(execution.outcome()).isInstanceOfSatisfying(CellOutcome.Succeeded.class, ok -> {
            assertThat(ok.measurements()).extracting(m -> m.variant()).containsExactly("virtual", "pool:100");
            assertThat(ok.environment().image()).contains("local/debian-openjdk:21");
        });
        assertThat(execution.backend()).isEqualTo("container");
        assertThat(execution.driver()).isEqualTo("hyperfine (in container)");
        assertThat(execution.variantOrder()).isEqualTo(ORDER);
        assertThat(execution.fallbackReason()).isEmpty();
        assertThat(execution.leftBehind()).isEmpty();
    }

    @Test
    void aFailedVariantFailsTheCellAndKeepsTheOther() {
        EngineAnswer ending = new EngineAnswer(cell, raw, ORDER);
        ending.variantFailed("pool:100", "hyperfine reported a failing JVM run (see the cell log)");
        assertThat(ending.anyVariantFailed()).isTrue();
        assertThat(answer(ending, List.of()).outcome()).isInstanceOfSatisfying(CellOutcome.Failed.class, failed -> {
            assertThat(failed.reason())
                    .as("with what its JVM printed last in the cell log")
                    .isEqualTo("variant(s) failed: pool:100 (hyperfine reported a failing JVM run (see the"
                            + " cell log); the JVM said: Killed)");
            assertThat(failed.measurements()).hasSize(2);
        });
    }

    @Test
    void aCrashAndADeadlineSayWhyWithTheLogsTailAndKeepWhatWasMeasured() throws Exception {
        EngineAnswer crashed = new EngineAnswer(cell, raw, ORDER);
        crashed.crashed("container exited with code 137 (SIGKILL)");
        assertThat(crashed.endedEarly()).isTrue();
        Files.writeString(raw.resolve("cell.log"), "written after the ending\n");
        assertThat(answer(crashed, List.of()).outcome()).isInstanceOfSatisfying(CellOutcome.Failed.class, failed -> {
            assertThat(failed.reason()).isEqualTo("container exited with code 137 (SIGKILL)");
            assertThat(failed.logTail())
                    .as("the log as it was when the cell ended")
                    .isEqualTo("loom: variant virtual\nloom: variant pool:100\nKilled");
            assertThat(failed.measurements()).hasSize(2);
            assertThat(failed.environment()).isPresent();
        });
        EngineAnswer late = new EngineAnswer(cell, raw, ORDER);
        late.timedOut("timed out after 600 s; container killed");
        assertThat(answer(late, List.of()).outcome()).isInstanceOfSatisfying(CellOutcome.TimedOut.class, t -> {
            assertThat(t.reason()).isEqualTo("timed out after 600 s; container killed");
            assertThat(t.logTail()).isEqualTo("written after the ending");
            assertThat(t.measurements()).hasSize(2);
        });
    }
}
