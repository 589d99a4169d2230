package dev.loommatrix.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class VariantTest {

    @Test
    void parsesTheContractNames() {
        assertThat(Variant.parse("virtual")).isEqualTo(new Variant.Virtual());
        assertThat(Variant.parse("platform")).isEqualTo(new Variant.Platform());
        assertThat(Variant.parse("pool:200")).isEqualTo(new Variant.Pool(200, false));
        assertThat(Variant.parse("pool:cpus"))
                .isEqualTo(new Variant.Pool(Runtime.getRuntime().availableProcessors(), true));
        assertThat(Variant.parse("pool:cpus").name()).isEqualTo("pool:cpus");
    }

    @Test
    void rejectsWhatIsNotAVariant() {
        assertThatThrownBy(() -> Variant.parse("pool:abc")).hasMessageContaining("not a whole number");
        assertThatThrownBy(() -> Variant.parse("pool:0")).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> Variant.parse("Green!")).hasMessageContaining("unknown variant 'Green!'");
        assertThat(Variant.parse("semaphore")).isEqualTo(new Variant.Named("semaphore")); // the workload decides
    }

    @Test
    void virtualRunsTasksOnVirtualThreads() throws Exception {
        assertThat(threadKinds(new Variant.Virtual(), 20)).containsExactly(true);
    }

    @Test
    void platformAndPoolRunTasksOnPlatformThreads() throws Exception {
        assertThat(threadKinds(new Variant.Platform(), 20)).containsExactly(false);
        assertThat(threadKinds(new Variant.Pool(3, false), 20)).containsExactly(false);
    }

    @Test
    void aPoolNeverUsesMoreThreadsThanItsSize() throws Exception {
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        try (var executor = new Variant.Pool(3, false).newExecutor()) {
            for (int i = 0; i < 50; i++) {
                executor.submit(() -> threads.add(Thread.currentThread()));
            }
        }
        assertThat(threads).hasSizeLessThanOrEqualTo(3);
    }

    private static Set<Boolean> threadKinds(Variant variant, int tasks) throws InterruptedException {
        Set<Boolean> kinds = ConcurrentHashMap.newKeySet();
        CountDownLatch done = new CountDownLatch(tasks);
        try (var executor = variant.newExecutor()) {
            for (int i = 0; i < tasks; i++) {
                executor.submit(() -> {
                    kinds.add(Thread.currentThread().isVirtual());
                    done.countDown();
                });
            }
        }
        done.await();
        return kinds;
    }
}
