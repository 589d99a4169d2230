package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.runner.host.HostFacts;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #32: the machine's CPU settings on the record. The files are laid out as Linux's sysfs documents them
 * (Documentation/admin-guide/pm/cpufreq.rst, intel_pstate.rst; ABI/testing/sysfs-devices-system-cpu: smt/active);
 * this machine (a VM) exposes no cpufreq, which the last test reads for real.
 */
class HostTuningTest {

    static Path write(Path root, String file, String text) throws Exception {
        Path path = root.resolve(file);
        Files.createDirectories(path.getParent());
        return Files.writeString(path, text);
    }

    @Test
    void aLaptopsDefaultsAreWarnedOf(@TempDir Path dir) throws Exception {
        Path cpu = dir.resolve("cpu");
        write(cpu, "cpu0/cpufreq/scaling_governor", "powersave\n");
        write(cpu, "intel_pstate/no_turbo", "0\n");
        write(cpu, "smt/active", "1\n");
        Path cpuinfo =
                write(dir, "cpuinfo", "processor\t: 0\ncpu MHz\t\t: 2400.000\nprocessor\t: 1\ncpu MHz\t\t: 3600.000\n");
        var t = HostFacts.tuning(cpu, cpuinfo);
        assertThat(t.governor()).hasValue("powersave");
        assertThat(t.boost()).hasValue(true);
        assertThat(t.smt()).hasValue(true);
        assertThat(t.mhz()).hasValue(3000.0);
        assertThat(t.notExposed()).isEmpty();
        assertThat(t.warnings())
                .containsExactly(
                        "CPU frequency governor 'powersave', not 'performance': the clock moves with load, and so do"
                                + " short measurements",
                        "turbo/boost on: the clock depends on temperature and on how many cores are busy",
                        "SMT on: a cell's CPUs may share cores with other work's");
    }

    @Test
    void aTunedBenchmarkMachineHasNothingToWarnOf(@TempDir Path dir) throws Exception {
        Path cpu = dir.resolve("cpu");
        write(cpu, "cpu0/cpufreq/scaling_governor", "performance\n");
        write(cpu, "cpufreq/boost", "0\n");
        write(cpu, "smt/active", "0\n");
        var t = HostFacts.tuning(cpu, write(dir, "cpuinfo", "cpu MHz\t\t: 2000.000\n"));
        assertThat(t.boost()).hasValue(false);
        assertThat(t.warnings()).isEmpty();
    }

    @Test
    void whatAHostDoesNotExposeIsSaidNotGuessed() {
        // this machine: a VM without cpufreq (its host decides the clock)
        var t = HostFacts.tuning(Path.of("/sys/devices/system/cpu"), Path.of("/proc/cpuinfo"));
        if (!Files.isDirectory(Path.of("/sys/devices/system/cpu/cpu0/cpufreq"))) {
            assertThat(t.governor()).isEmpty();
            assertThat(t.notExposed()).anyMatch(s -> s.startsWith("frequency governor"));
        } else {
            assertThat(t.governor()).isPresent();
        }
    }
}
