package dev.loommatrix.runner.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.testing.TestMatrices;
import dev.loommatrix.runner.backend.container.ContainerBackend;
import dev.loommatrix.runner.records.Attestation;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a container cell must see from inside: the quota 1, 1.5 and cpuset 0 cases, per VM. */
class ContainerExpectationTest {

    static List<Cell> cells(String vm) throws Exception {
        return TestMatrices.plan(
                """
                schema: 1
                jdks: [{id: j, vm: %s, version: 21, image: x}]
                cpus: [1, 1.5, 2.4]
                cpuset: [all, "0"]
                workloads: [{id: sleep-bound, variants: [virtual]}]
                """
                        .formatted(vm));
    }

    @Test
    void hotspotRoundsTheQuotaUpAndTheCpusetCapsIt() throws Exception {
        List<Cell> cells = cells("hotspot");
        // cpus 1 / all, 1 / "0", 1.5 / all, 1.5 / "0", 2.4 / all, 2.4 / "0" on a 4-CPU host
        assertThat(cells)
                .extracting(c -> ContainerBackend.expectation(c, 4).processors())
                .containsExactly(1, 1, 2, 1, 3, 1);
        Attestation.Expectation pinned = ContainerBackend.expectation(cells.get(3), 4);
        assertThat(pinned.affinity()).hasValue("0");
        assertThat(pinned.processorsRule()).contains("rounded up").contains("cpuset's 1");
        assertThat(ContainerBackend.expectation(cells.get(2), 4).affinity()).isEmpty();
    }

    @Test
    void openj9RoundsTheQuotaDown() throws Exception {
        assertThat(cells("openj9"))
                .extracting(c -> ContainerBackend.expectation(c, 4).processors())
                .containsExactly(1, 1, 1, 1, 2, 1);
    }
}
