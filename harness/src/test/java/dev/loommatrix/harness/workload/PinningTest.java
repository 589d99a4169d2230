package dev.loommatrix.harness.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import dev.loommatrix.harness.env.PinnedEvents;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PinningTest {

    private final Pinning workload = new Pinning();

    private Params params(long tasks, long sleepMs) {
        return Params.of(
                workload.defaults(), Map.of("tasks", String.valueOf(tasks), "sleepMs", String.valueOf(sleepMs)));
    }

    @Test
    void theJdkRulesDecideHowManyTasksBlockAtOnce() {
        // 16 tasks, parallelism 2, maxPoolSize 256
        assertThat(Pinning.concurrency("synchronized", 21, 2, 256, 16)).isEqualTo(2);
        assertThat(Pinning.concurrency("synchronized", 23, 2, 256, 16)).isEqualTo(2);
        assertThat(Pinning.concurrency("synchronized", 24, 2, 256, 16)).isEqualTo(16);
        assertThat(Pinning.concurrency("object-wait", 21, 2, 256, 16)).isEqualTo(16); // compensated
        assertThat(Pinning.concurrency("object-wait", 21, 2, 4, 16)).isEqualTo(4); // up to maxPoolSize
        assertThat(Pinning.concurrency("reentrant-lock", 21, 1, 1, 16)).isEqualTo(16);
        assertThat(Pinning.concurrency("class-init", 25, 2, 256, 16)).isEqualTo(2); // JEP 491 leaves it pinned
    }

    @ParameterizedTest
    @ValueSource(strings = {"synchronized", "reentrant-lock", "object-wait", "class-init"})
    void everyVariantRunsItsTasksOnVirtualThreadsAndBlocksAtLeastOnce(String variant) throws Exception {
        Outcome outcome = workload.run(new Variant.Named(variant), params(4, 30));
        assertThat(outcome.metrics()).containsEntry("allTasksVirtual", true);
        assertThat(outcome.wallMs()).isGreaterThanOrEqualTo(30.0);
        assertThat(workload.usesVirtualThreads(new Variant.Named(variant))).isTrue();
    }

    @Test
    void classInitPinsOnEveryJdkAndJfrSeesIt() throws Exception {
        // More tasks than carriers: pinned initializers take waves of `parallelism`.
        int parallelism = dev.loommatrix.harness.env.Scheduler.read().parallelism();
        int tasks = parallelism * 3;
        PinnedEvents pinned = PinnedEvents.start();
        Outcome outcome = workload.run(new Variant.Named("class-init"), params(tasks, 50));
        pinned.close();
        assertThat(outcome.wallMs()).isGreaterThanOrEqualTo(3 * 50.0 * 0.95);
        // At least one pinned park per task (this test JVM may hold other virtual threads; in the
        // harness's fresh JVM the count is exact, as PinningIT shows), and pinned for every sleep.
        Map<String, Object> events = pinned.finish();
        assertThat((long) events.get("pinnedEvents")).isGreaterThanOrEqualTo(tasks);
        assertThat((double) events.get("pinnedMs")).isGreaterThanOrEqualTo(tasks * 50 * 0.95);
        assertThat(workload.lowerBoundMs(new Variant.Named("class-init"), params(tasks, 50)))
                .hasValue(3 * 50.0);
    }

    @Test
    void theMicroCaseTimesAHandOffUnderTheHeldLock() {
        Params params = Params.of(
                workload.defaults(), Map.of("jmhWarmupIterations", "1", "jmhIterations", "2", "jmhIterationMs", "100"));
        assertThat(workload.micro(new Variant.Named("synchronized"), params))
                .containsKeys("jmhNsPerHeldRoundTrip", "jmh");
        assertThat(workload.micro(new Variant.Named("class-init"), params)).isEmpty();
        Params off = Params.of(workload.defaults(), Map.of("jmhIterations", "0"));
        assertThat(workload.micro(new Variant.Named("synchronized"), off)).isEmpty();
    }

    @Test
    void reentrantLockNeverPins() throws Exception {
        PinnedEvents pinned = PinnedEvents.start();
        Outcome outcome = workload.run(new Variant.Named("reentrant-lock"), params(50, 50));
        pinned.close();
        assertThat(pinned.finish()).containsEntry("pinnedEvents", 0L);
        assertThat(outcome.wallMs()).isLessThan(50.0 * 5);
    }
}
