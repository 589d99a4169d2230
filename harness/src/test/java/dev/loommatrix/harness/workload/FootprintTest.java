package dev.loommatrix.harness.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FootprintTest {

    private final Footprint workload = new Footprint();

    @Test
    void parkedVirtualThreadsCostHeapAndPlatformThreadsCostResidentMemory() throws Exception {
        Params params = Params.of(workload.defaults(), Map.of("threads", "2000"));
        Outcome virtual = workload.run(new Variant.Virtual(), params);
        Outcome platform = workload.run(new Variant.Platform(), params);
        assertThat(virtual.metrics()).containsEntry("threadsParked", 2000);
        assertThat(platform.metrics()).containsEntry("threadsParked", 2000);
        assertThat(virtual.ceiling()).isEmpty();
        // A parked virtual thread is an object plus its stack chunk on the heap: hundreds of bytes at least
        assertThat((double) virtual.metrics().get("heapBytesPerThread")).isGreaterThan(200.0);
        // A platform thread has an OS stack and kernel structures; its resident cost shows outside the heap
        assertThat((double) platform.metrics().get("rssBytesPerThread"))
                .isGreaterThan((double) virtual.metrics().get("rssBytesPerThread"));
    }
}
