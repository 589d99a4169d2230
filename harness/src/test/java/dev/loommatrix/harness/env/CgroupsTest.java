package dev.loommatrix.harness.env;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** File contents follow the kernel's cgroup v1 and v2 documentation (and what Docker writes there). */
class CgroupsTest {

    @Test
    void readsCgroupV2Limits(@TempDir Path root) throws IOException {
        write(root, "cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n");
        write(root, "cpu.max", "150000 100000\n");
        write(root, "memory.max", "1073741824\n");
        write(root, "pids.max", "20000\n");
        write(root, "cpuset.cpus.effective", "0-1\n");
        write(
                root,
                "cpu.stat",
                "usage_usec 8123\nuser_usec 6000\nsystem_usec 2123\nnr_periods 50\nnr_throttled 7\nthrottled_usec 12345\n");
        Cgroups cgroups = new Cgroups(root);
        assertThat(cgroups.version()).isEqualTo(Cgroups.Version.V2);
        assertThat(cgroups.cpuQuota()).hasValue(1.5);
        assertThat(cgroups.memoryLimitBytes()).hasValue(1_073_741_824L);
        assertThat(cgroups.pidsLimit()).hasValue(20_000L);
        assertThat(cgroups.cpuset()).hasValue("0-1");
        assertThat(cgroups.cpuStat())
                .isEqualTo(Map.of("periods", 50L, "throttledPeriods", 7L, "throttledMicros", 12_345L));
    }

    @Test
    void cgroupV2UnlimitedIsEmpty(@TempDir Path root) throws IOException {
        write(root, "cgroup.controllers", "cpu memory pids\n");
        write(root, "cpu.max", "max 100000\n");
        write(root, "memory.max", "max\n");
        write(root, "pids.max", "max\n");
        Cgroups cgroups = new Cgroups(root);
        assertThat(cgroups.cpuQuota()).isEmpty();
        assertThat(cgroups.memoryLimitBytes()).isEmpty();
        assertThat(cgroups.pidsLimit()).isEmpty();
    }

    @Test
    void readsCgroupV1Limits(@TempDir Path root) throws IOException {
        write(root, "cpu/cpu.cfs_quota_us", "200000\n");
        write(root, "cpu/cpu.cfs_period_us", "100000\n");
        write(root, "cpu/cpu.stat", "nr_periods 12\nnr_throttled 3\nthrottled_time 45000000\n");
        write(root, "memory/memory.limit_in_bytes", "536870912\n");
        write(root, "pids/pids.max", "1000\n");
        write(root, "cpuset/cpuset.cpus", "0\n");
        Cgroups cgroups = new Cgroups(root);
        assertThat(cgroups.version()).isEqualTo(Cgroups.Version.V1);
        assertThat(cgroups.cpuQuota()).hasValue(2.0);
        assertThat(cgroups.memoryLimitBytes()).hasValue(536_870_912L);
        assertThat(cgroups.pidsLimit()).hasValue(1000L);
        assertThat(cgroups.cpuset()).hasValue("0");
        // v1 reports throttled time in nanoseconds
        assertThat(cgroups.cpuStat()).containsEntry("throttledMicros", 45_000L).containsEntry("throttledPeriods", 3L);
    }

    @Test
    void cgroupV1UnlimitedIsEmpty(@TempDir Path root) throws IOException {
        write(root, "cpu/cpu.cfs_quota_us", "-1\n");
        write(root, "cpu/cpu.cfs_period_us", "100000\n");
        write(root, "memory/memory.limit_in_bytes", "9223372036854771712\n");
        write(root, "pids/pids.max", "max\n");
        Cgroups cgroups = new Cgroups(root);
        assertThat(cgroups.cpuQuota()).isEmpty();
        assertThat(cgroups.memoryLimitBytes()).isEmpty();
        assertThat(cgroups.pidsLimit()).isEmpty();
    }

    @Test
    void noCgroupsAtAll(@TempDir Path root) {
        Cgroups cgroups = new Cgroups(root);
        assertThat(cgroups.version()).isEqualTo(Cgroups.Version.NONE);
        assertThat(cgroups.cpuQuota()).isEmpty();
        assertThat(cgroups.cpuStat()).isEmpty();
    }

    private static void write(Path root, String relative, String content) throws IOException {
        Path file = root.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
    }

    @Test
    void readsTheAffinityListFromProcStatus(@TempDir Path root) throws IOException {
        write(
                root,
                "status",
                "Name:\tjava\nThreads:\t19\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\nMems_allowed_list:\t0\n");
        assertThat(Environment.affinity(root.resolve("status"))).hasValue("0-1");
        assertThat(Environment.affinity(root.resolve("missing"))).isEmpty();
    }
}
