package dev.loommatrix.runner.backend.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * A service cell's own CPU in containers (issue #32): its load generator's container and each repetition's server
 * container, on cgroups scripted here. Before, the cell's CPU was read from one container that a service cell never
 * named, so a service cell in containers was never watched at all ("no interval had the cell's own CPU use").
 */
class ContainerCpuTest {

    /** The cgroups as the host has them now: a container's CPU use, nanoseconds; absent once it is gone. */
    private final Map<String, Long> cgroups = new HashMap<>();

    private final ContainerCpu cpu = new ContainerCpu(id -> new ContainerCpu.Counters(
            cgroups.containsKey(id) ? OptionalLong.of(cgroups.get(id)) : OptionalLong.empty(), OptionalLong.empty()));

    @Test
    void theGeneratorAndEveryServerCountAndARemovedServersCpuStaysCounted() {
        assertThat(cpu.nanos())
                .as("no container yet: nothing to tell the cell apart with")
                .isEmpty();

        cpu.add("generator");
        cgroups.put("generator", 0L);
        assertThat(cpu.nanos()).hasValue(0);

        cpu.add("server-1");
        cgroups.put("server-1", 2_000L);
        cgroups.put("generator", 500L);
        assertThat(cpu.nanos()).hasValue(2_500);

        // the server stops: its cgroup goes with it, what it used stays the cell's
        cgroups.put("server-1", 3_000L);
        assertThat(cpu.nanos()).hasValue(3_500);
        cgroups.remove("server-1");
        cpu.remove("server-1");
        assertThat(cpu.nanos()).hasValue(3_500);

        cpu.add("server-2");
        cgroups.put("server-2", 1_000L);
        cgroups.put("generator", 900L);
        assertThat(cpu.nanos()).hasValue(3_000 + 1_000 + 900);

        // the generator's cgroup gone before it is said to be: its last reading is kept, the sum never goes back
        cgroups.remove("generator");
        assertThat(cpu.nanos()).hasValue(4_900);
        cgroups.remove("server-2");
        assertThat(cpu.nanos()).as("no container left to read").isEmpty();
    }

    @Test
    void aPlainCellsOneContainerIsReadFromItsStartUntilItIsGone() {
        cpu.add("cell");
        assertThat(cpu.nanos()).as("created, not started: no cgroup yet").isEmpty();
        cgroups.put("cell", 7_000L);
        assertThat(cpu.nanos()).hasValue(7_000);
        cpu.remove("cell");
        cgroups.remove("cell");
        assertThat(cpu.nanos()).isEmpty();
    }
}
