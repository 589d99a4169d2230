package dev.loommatrix.runner.host;

import dev.loommatrix.core.plan.CpuSet;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The command prefix that pins a host JVM to its first N CPUs: {@code taskset -c 0-(N-1)} on Linux,
 * {@code cmd /c start "" /B /WAIT /AFFINITY <hex mask>} on Windows (start /WAIT passes the program's
 * exit code through). Nothing when the cell may use every CPU anyway. The JVM is also told
 * {@code -XX:ActiveProcessorCount=N}, so what it sizes its pools by matches the mask.
 */
public final class CpuAffinity {

    private CpuAffinity() {}

    public static List<String> prefix(boolean windows, Optional<Path> taskset, int cpus, int hostCpus) {
        int n = Math.min(cpus, hostCpus);
        return n >= hostCpus ? List.of() : prefix(windows, taskset, CpuSet.first(n));
    }

    /** Pins to exactly these CPUs (a cell's cpuset axis). */
    public static List<String> prefix(boolean windows, Optional<Path> taskset, CpuSet cpus) {
        if (windows) {
            return List.of("cmd", "/c", "start", "\"\"", "/B", "/WAIT", "/AFFINITY", cpus.windowsMask());
        }
        return taskset.map(t -> List.of(t.toString(), "-c", cpus.toString())).orElse(List.of());
    }

    /** Hex mask of the first n CPUs, as start /AFFINITY takes it: 1 → 1, 2 → 3, 4 → F, 6 → 3F. */
    static String mask(int n) {
        return CpuSet.first(n).windowsMask();
    }
}
