package dev.loommatrix.runner.backend.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.CpuSet;
import dev.loommatrix.core.testing.TestMatrices;
import dev.loommatrix.runner.backend.service.ServicePlacement;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The local backend's CPU-limit rules: an affinity and a count where no cgroup limits the cell (Linux host). */
class LocalCpuLimitsTest {

    static final Optional<Path> TASKSET = Optional.of(Path.of("/usr/bin/taskset"));

    static List<Cell> cells() throws Exception {
        return TestMatrices.plan(
                """
                schema: 1
                jdks: [{id: t25, vm: hotspot, version: 25, image: x}]
                cpus: [1.5, 4]
                workloads: [{id: sleep-bound, variants: [virtual]}]
                include: [{cpus: 2, cpuset: "2-3", workload: sleep-bound}]
                """);
    }

    static Cell cell(String cpus, String cpuset) throws Exception {
        return cells().stream()
                .filter(c -> c.coordinates().cpus().toPlainString().equals(cpus)
                        && c.coordinates().cpuset().equals(cpuset))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aQuotaBecomesAnAffinityToThatManyCpusFromCpuZeroAndTheJvmIsToldTheCount() throws Exception {
        LocalCpuLimits limits = LocalCpuLimits.of(cell("1.5", "all"), 8, TASKSET);
        assertThat(limits.processors()).isEqualTo(2);
        assertThat(limits.pinned()).isEqualTo(CpuSet.first(2));
        assertThat(limits.prefix()).containsExactly("/usr/bin/taskset", "-c", "0-1");
        assertThat(limits.jvmArgs()).containsExactly("-XX:ActiveProcessorCount=2");
        assertThat(limits.expectation(8).processorsRule())
                .isEqualTo("-XX:ActiveProcessorCount=2, affinity to CPUs 0-1");
        assertThat(limits.expectation(8).affinity()).contains("0-1");
    }

    @Test
    void aQuotaOfTheWholeHostOrMorePinsNothingAndSaysTheHostIsSmaller() throws Exception {
        LocalCpuLimits limits = LocalCpuLimits.of(cell("4", "all"), 2, TASKSET);
        assertThat(limits.prefix()).isEmpty();
        assertThat(limits.processors()).isEqualTo(4);
        assertThat(limits.expectation(2).processorsRule())
                .isEqualTo("-XX:ActiveProcessorCount=4; the host has only 2 CPUs");
        assertThat(limits.expectation(2).affinity()).isEmpty();
    }

    @Test
    void aCpusetPinsToExactlyThoseCpusAndOneBeyondTheHostIsSaid() throws Exception {
        Cell pinned = cell("2", "2-3");
        assertThat(LocalCpuLimits.of(pinned, 8, TASKSET).prefix()).containsExactly("/usr/bin/taskset", "-c", "2-3");
        assertThat(LocalCpuLimits.unknownCpus(pinned, 8)).isEmpty();
        assertThat(LocalCpuLimits.unknownCpus(pinned, 2))
                .hasValue("cpuset 2-3 names CPUs this host does not have (it has 2)");
        assertThat(LocalCpuLimits.of(pinned, 8, Optional.empty()).expectation(8).affinity())
                .as("without taskset nothing pins it, and nothing is expected of the affinity")
                .isEmpty();
    }

    @Test
    void aServicesServerIsPinnedToItsPlacementWhereTasksetPinsIt() throws Exception {
        Cell cell = cell("1.5", "all");
        ServicePlacement placement = ServicePlacement.of(cell, 4);
        assertThat(LocalCpuLimits.forService(cell, placement, true).affinity()).contains("0-1");
        assertThat(LocalCpuLimits.forService(cell, placement, true).processorsRule())
                .isEqualTo("-XX:ActiveProcessorCount=2, affinity to CPUs 0-1");
        assertThat(LocalCpuLimits.forService(cell, placement, false).affinity()).isEmpty();
    }
}
