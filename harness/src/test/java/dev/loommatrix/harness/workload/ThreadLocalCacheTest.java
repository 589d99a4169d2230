package dev.loommatrix.harness.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThreadLocalCacheTest {

    private final ThreadLocalCache workload = new ThreadLocalCache();

    private Params tasks(long n) {
        return Params.of(workload.defaults(), Map.of("tasks", String.valueOf(n)));
    }

    @Test
    void aPoolBuildsOneObjectPerThreadAndVirtualThreadsOnePerTask() throws Exception {
        Outcome pool = workload.run(new Variant.Pool(3, false), tasks(500));
        assertThat((long) pool.metrics().get("objectsBuilt")).isBetween(1L, 3L);
        assertThat(pool.metrics()).containsEntry("tasksOnVirtualThreads", 0L);

        Outcome virtual = workload.run(new Variant.Virtual(), tasks(500));
        assertThat(virtual.metrics()).containsEntry("objectsBuilt", 500L).containsEntry("tasksOnVirtualThreads", 500L);
        // Same work, same answer, whatever the threads
        assertThat(virtual.metrics().get("checksum")).isEqualTo(pool.metrics().get("checksum"));
        // Each object holds a 64 KiB scratch buffer: 500 of them allocate at least 500 × 64 KiB
        assertThat((long) virtual.metrics().get("allocatedBytes"))
                .isGreaterThan(500L * ThreadLocalCache.SCRATCH_BYTES)
                .isGreaterThan(10 * (long) pool.metrics().get("allocatedBytes"));
    }
}
