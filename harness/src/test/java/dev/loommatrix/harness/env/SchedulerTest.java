package dev.loommatrix.harness.env;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SchedulerTest {

    @Test
    void derivesTheJdkDefaults() {
        // VirtualThread.createDefaultScheduler: parallelism = processors, maxPoolSize = max(parallelism, 256),
        // minRunnable = max(parallelism / 2, 1)
        assertThat(Scheduler.derive(8, null, null, null)).isEqualTo(new Scheduler.Derived(8, 256, 4));
        assertThat(Scheduler.derive(1, null, null, null)).isEqualTo(new Scheduler.Derived(1, 256, 1));
        assertThat(Scheduler.derive(300, null, null, null)).isEqualTo(new Scheduler.Derived(300, 300, 150));
    }

    @Test
    void maxPoolSizeCapsParallelism() {
        assertThat(Scheduler.derive(8, "16", "4", null)).isEqualTo(new Scheduler.Derived(4, 4, 2));
        assertThat(Scheduler.derive(8, "2", null, "2")).isEqualTo(new Scheduler.Derived(2, 256, 2));
    }

    @Test
    void readsTheLiveSchedulerOfThisJvm() {
        Scheduler.Snapshot snapshot = Scheduler.read();
        // surefire runs without --add-opens: on 24+ the MXBean answers, on 21–23 the rule is applied
        assertThat(snapshot.parallelism()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(snapshot.source()).isIn("mxbean", "forkjoinpool", "derived");
        if (Runtime.version().feature() >= 24) {
            assertThat(snapshot.source()).isEqualTo("mxbean");
        }
    }
}
