package dev.loommatrix.runner.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CpuAffinityTest {

    static final Optional<Path> TASKSET = Optional.of(Path.of("/usr/bin/taskset"));

    @Test
    void linuxUsesTaskset() {
        assertThat(CpuAffinity.prefix(false, TASKSET, 1, 4)).containsExactly("/usr/bin/taskset", "-c", "0");
        assertThat(CpuAffinity.prefix(false, TASKSET, 3, 4)).containsExactly("/usr/bin/taskset", "-c", "0-2");
        assertThat(CpuAffinity.prefix(false, Optional.empty(), 1, 4)).isEmpty();
    }

    @Test
    void windowsUsesStartAffinityWithAHexMask() {
        assertThat(CpuAffinity.prefix(true, Optional.empty(), 2, 8))
                .containsExactly("cmd", "/c", "start", "\"\"", "/B", "/WAIT", "/AFFINITY", "3");
        assertThat(CpuAffinity.mask(4)).isEqualTo("F");
        assertThat(CpuAffinity.mask(6)).isEqualTo("3F");
        assertThat(CpuAffinity.mask(12)).isEqualTo("FFF");
    }

    @Test
    void noPrefixWhenTheCellMayUseEveryCpu() {
        assertThat(CpuAffinity.prefix(false, TASKSET, 4, 4)).isEmpty();
        assertThat(CpuAffinity.prefix(true, Optional.empty(), 8, 4)).isEmpty();
    }
}
