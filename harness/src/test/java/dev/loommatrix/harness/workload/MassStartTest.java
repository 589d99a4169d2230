package dev.loommatrix.harness.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MassStartTest {

    private final MassStart workload = new MassStart();

    @Test
    void defaultsAreTheSeedExperiment() {
        assertThat(workload.defaults()).containsEntry("threads", 1_000_000L); // seed 000: one million threads
    }

    @Test
    void startsAndJoinsEveryThreadOfBothKinds() throws Exception {
        for (Variant variant : new Variant[] {new Variant.Virtual(), new Variant.Platform()}) {
            Outcome outcome = workload.run(variant, Params.of(workload.defaults(), Map.of("threads", "2000")));
            assertThat(outcome.metrics()).containsEntry("threadsStarted", 2000);
            assertThat(outcome.ceiling()).isEmpty();
            assertThat(outcome.wallMs()).isPositive();
        }
    }

    @Test
    void acceptsOnlyThreadKinds() {
        assertThat(workload.accepts(new Variant.Virtual())).isTrue();
        assertThat(workload.accepts(new Variant.Pool(4, false))).isFalse();
        assertThat(workload.lowerBoundMs(new Variant.Virtual(), Params.of(workload.defaults(), Map.of())))
                .isEmpty();
    }
}
