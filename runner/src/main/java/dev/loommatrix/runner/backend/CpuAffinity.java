package dev.loommatrix.runner.backend;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
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
        if (n >= hostCpus) {
            return List.of();
        }
        if (windows) {
            return List.of("cmd", "/c", "start", "\"\"", "/B", "/WAIT", "/AFFINITY", mask(n));
        }
        return taskset.map(t -> List.of(t.toString(), "-c", n == 1 ? "0" : "0-" + (n - 1)))
                .orElse(List.of());
    }

    /** Hex mask of the first n CPUs, as start /AFFINITY takes it: 1 → 1, 2 → 3, 4 → F, 6 → 3F. */
    static String mask(int n) {
        return Long.toHexString((1L << n) - 1).toUpperCase(Locale.ROOT);
    }
}
