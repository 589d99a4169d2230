package dev.loommatrix.runner.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One measurement per machine (issue #32), within one JVM: a second run waits and says whose run it waits for, or
 * is refused with --no-wait; a lock whose holder ended without releasing it is taken over and said. Between
 * processes (a SIGKILLed run, two runs started at once on one engine): {@code RunLifecycleIT}.
 */
class MeasurementLockTest {

    static final Duration POLL = Duration.ofMillis(20);

    @Test
    void aSecondRunIsRefusedUnderNoWaitNamingWhoseRunHoldsTheLock(@TempDir Path dir) throws Exception {
        try (var first = MeasurementLock.acquire(dir, Optional.empty(), "run-a", "run", true, s -> {}, POLL)) {
            assertThatThrownBy(
                            () -> MeasurementLock.acquire(dir, Optional.empty(), "run-b", "ab", false, s -> {}, POLL))
                    .isInstanceOf(MeasurementLock.Busy.class)
                    .hasMessageContaining("this host measures one run at a time, and run run-a (pid "
                            + ProcessHandle.current().pid() + ", run, since ")
                    .hasMessageContaining(dir.resolve("host.lock").toString());
        }
        // released: the next takes it at once, and there is nothing to take over
        List<String> said = new CopyOnWriteArrayList<>();
        try (var next = MeasurementLock.acquire(dir, Optional.empty(), "run-b", "ab", false, said::add, POLL)) {
            assertThat(said).isEmpty();
        }
    }

    @Test
    void aWaitingRunSaysWhoseRunItWaitsForOnceAndStartsWhenItEnds(@TempDir Path dir) throws Exception {
        List<String> said = new CopyOnWriteArrayList<>();
        CountDownLatch acquired = new CountDownLatch(1);
        var first = MeasurementLock.acquire(dir, Optional.of("engine:1"), "run-a", "run", true, s -> {}, POLL);
        Thread second = Thread.ofPlatform().start(() -> {
            try (var lock =
                    MeasurementLock.acquire(dir, Optional.of("engine:1"), "run-b", "run", true, said::add, POLL)) {
                acquired.countDown();
            } catch (Exception e) {
                said.add("failed: " + e);
            }
        });
        // the explicit signal that run-b tried and waits: it says so once, before it polls again
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (said.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(acquired.getCount())
                .as("still waiting while run-a holds the lock")
                .isEqualTo(1);
        assertThat(said)
                .singleElement()
                .asString()
                .startsWith("waiting: this host measures one run at a time, and run" + " run-a (pid ");
        first.close();
        assertThat(acquired.await(10, TimeUnit.SECONDS)).isTrue();
        second.join();
        assertThat(said).hasSize(1);
        // the engine's lock file sits beside the host's, its id made a file name
        assertThat(dir.resolve("engine-engine_1.lock")).exists();
    }

    @Test
    void aLockWhoseHolderWasKilledIsTakenOverAndSaid(@TempDir Path dir) throws Exception {
        // what a killed run leaves: its record in the file, and no lock (the kernel released it with the process)
        Files.writeString(
                dir.resolve("host.lock"),
                "{\"runId\":\"run-killed\",\"pid\":999999,\"since\":\"2026-11-26T10:00:00Z\",\"command\":\"run\"}");
        List<String> said = new CopyOnWriteArrayList<>();
        try (var lock = MeasurementLock.acquire(dir, Optional.empty(), "run-next", "run", false, said::add, POLL)) {
            assertThat(said)
                    .singleElement()
                    .asString()
                    .contains("took over the measurement lock")
                    .contains("from run run-killed (pid 999999, run, since 2026-11-26T10:00:00Z), which ended without"
                            + " releasing it");
            assertThat(dev.loommatrix.core.result.Json.MAPPER
                            .readTree(dir.resolve("host.lock").toFile())
                            .path("runId")
                            .asText())
                    .isEqualTo("run-next");
        }
        assertThat(Files.readString(dir.resolve("host.lock"))).isEmpty(); // released cleanly: nothing to take over
    }
}
