package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Measurement;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JEP 491 made visible: N virtual threads each sleep S ms while holding their own lock, with the
 * scheduler's parallelism set to 1 through the matrix. On JDK 21 a monitor pins the one carrier, so
 * {@code synchronized} takes ≈ N·S; on JDK 25 it unmounts and takes ≈ S. A ReentrantLock never pins;
 * a class initializer pins on both. JFR's pinned events agree, counted in the harness.
 */
class PinningIT {

    static final int TASKS = 8;
    static final int SLEEP_MS = 100;

    @TempDir
    static Path work;

    static List<CellRecord> cells;

    @BeforeAll
    static void runTheMatrix() throws Exception {
        cells = ContainerRuns.run(
                        work,
                        """
                schema: 1
                jdks:
                  - {id: debian-21, vm: hotspot, version: 21, image: "local/debian-openjdk:21"}
                  - {id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
                cpus: [2]
                scheduler: {parallelism: [1]}
                workloads:
                  - id: pinning
                    variants: [synchronized, reentrant-lock, object-wait, class-init]
                    params: {tasks: %d, sleepMs: %d}
                repetitions: 2
                warmup: 0
                timeout: 5m
                memory: 1g
                pids: 4096
                """
                                .formatted(TASKS, SLEEP_MS))
                .cells();
        assertThat(cells).hasSize(2).allSatisfy(cell -> {
            assertThat(cell.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
            var env = cell.environment().orElseThrow();
            assertThat(env.attested())
                    .as(cell.cellId() + " " + env.attestation())
                    .isTrue();
            assertThat(env.scheduler().parallelism()).contains(1);
        });
    }

    static CellRecord jdk(int version) {
        return cells.stream()
                .filter(c -> c.coordinates().version() == version)
                .findFirst()
                .orElseThrow();
    }

    static Measurement variant(CellRecord cell, String name) {
        return cell.measurement(name).orElseThrow();
    }

    static double median(CellRecord cell, String name) {
        return variant(cell, name).summary().orElseThrow().median();
    }

    static long pinnedEvents(CellRecord cell, String name) {
        return variant(cell, name)
                .samples()
                .get(0)
                .metric("pinnedEvents")
                .orElseThrow()
                .longValue();
    }

    // What must hold whatever else loads the machine (issue #18: these bands failed beside a CPU hog): exact
    // pinned-event counts, no variant faster than its lower bound, and the order of the variants with wide
    // margins — serialized is TASKS times one sleep, so "at least TASKS / 4 times" survives a carrier slowed
    // more than twice. How close each comes to its bound is the fidelity benchmark's (benchmarks/fidelity).

    @Test
    void synchronizedSerializesOnJdk21AndNotOnJdk25() {
        double serialized = TASKS * SLEEP_MS;
        assertThat(pinnedEvents(jdk(21), "synchronized")).isEqualTo(TASKS);
        assertThat(pinnedEvents(jdk(25), "synchronized")).isZero();
        assertThat(median(jdk(21), "synchronized")).isGreaterThanOrEqualTo(serialized * 0.98);
        assertThat(median(jdk(25), "synchronized")).isGreaterThanOrEqualTo(SLEEP_MS * 0.98);
        // on 21 the monitor serializes the sleeps; the lock next to it does not
        assertThat(median(jdk(21), "synchronized") / median(jdk(21), "reentrant-lock"))
                .isGreaterThanOrEqualTo(TASKS / 4.0);
        // on 25 it unmounts: at least twice as fast as on 21 (TASKS times in a quiet run)
        assertThat(median(jdk(21), "synchronized") / median(jdk(25), "synchronized"))
                .isGreaterThanOrEqualTo(2.0);
    }

    @Test
    void theLowerBoundFollowsEachJdksRuleAndNothingBeatsIt() {
        assertThat(variant(jdk(21), "synchronized").lowerBoundMs()).hasValue(TASKS * (double) SLEEP_MS);
        assertThat(variant(jdk(25), "synchronized").lowerBoundMs()).hasValue((double) SLEEP_MS);
        for (CellRecord cell : cells) {
            for (Measurement m : cell.measurements()) {
                assertThat(m.efficiency().orElseThrow())
                        .as("%s %s", cell.cellId(), m.variant())
                        .isGreaterThan(0)
                        .isLessThanOrEqualTo(1.02);
            }
        }
    }

    @Test
    void aReentrantLockNeverPinsAndAClassInitializerAlwaysDoes() {
        for (int version : new int[] {21, 25}) {
            CellRecord cell = jdk(version);
            assertThat(pinnedEvents(cell, "reentrant-lock")).isZero();
            assertThat(pinnedEvents(cell, "class-init")).isEqualTo(TASKS);
            double classInit = median(cell, "class-init");
            assertThat(classInit).isGreaterThanOrEqualTo(TASKS * SLEEP_MS * 0.98);
            assertThat(median(cell, "reentrant-lock")).isGreaterThanOrEqualTo(SLEEP_MS * 0.98);
            assertThat(classInit / median(cell, "reentrant-lock")).isGreaterThanOrEqualTo(TASKS / 4.0);
            // JDK 21 pins in Object.wait but compensates with extra carriers; JDK 25 unmounts: not serialized
            assertThat(median(cell, "object-wait")).isGreaterThanOrEqualTo(SLEEP_MS * 0.98);
            assertThat(classInit / median(cell, "object-wait")).isGreaterThanOrEqualTo(TASKS / 4.0);
        }
    }
}
