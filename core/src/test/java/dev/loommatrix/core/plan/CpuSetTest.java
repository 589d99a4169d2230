package dev.loommatrix.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.testing.TestMatrices;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpuSetTest {

    @Test
    void linuxListsParseAndPrintAsTheKernelDoes() {
        assertThat(CpuSet.parse("0,1").toString()).isEqualTo("0-1");
        assertThat(CpuSet.parse("3,0-1").toString()).isEqualTo("0-1,3");
        assertThat(CpuSet.parse("0,2-3").size()).isEqualTo(3);
        assertThat(CpuSet.parse("0-1")).isEqualTo(CpuSet.parse("0,1"));
        assertThat(CpuSet.first(4).toString()).isEqualTo("0-3");
        assertThat(CpuSet.parse("1,3").windowsMask()).isEqualTo("A");
    }

    @Test
    void aCpusetIsAnAxisThatOnlyShowsInCellIdsWhenUsed() throws Exception {
        List<Cell> cells = TestMatrices.plan(
                """
                schema: 1
                jdks: [{id: t21, vm: hotspot, version: 21, image: x}]
                cpus: [2]
                cpuset: [all, "0", "0,1"]
                workloads: [{id: sleep-bound, variants: [virtual]}]
                exclude: [{cpuset: "0-1"}]
                include: [{cpus: 1.5, cpuset: "1", workload: sleep-bound}]
                """);
        assertThat(cells)
                .extracting(Cell::id)
                .containsExactly(
                        "t21.linux.cpus-2.par-auto.max-auto.minr-auto.sleep-bound",
                        "t21.linux.cpus-2.cpuset-0.par-auto.max-auto.minr-auto.sleep-bound",
                        "t21.linux.cpus-2.cpuset-0_1.par-auto.max-auto.minr-auto.sleep-bound",
                        "t21.linux.cpus-1.5.cpuset-1.par-auto.max-auto.minr-auto.sleep-bound");
        assertThat(cells.get(1).coordinates().cpuSet()).hasValue(CpuSet.parse("0"));
        assertThat(cells.get(0).coordinates().cpuSet()).isEmpty();
    }
}
