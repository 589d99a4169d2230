package dev.loommatrix.runner.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * A container's CPU use and throttling as the host's cgroup files say (issue #32), under the layouts Docker makes:
 * cgroup v1 ({@code cpuacct/docker/<id>/cpuacct.usage}, {@code cpu/docker/<id>/cpu.stat}; or {@code
 * system.slice/docker-<id>.scope} with the systemd driver) and v2 ({@code cpu.stat}'s {@code usage_usec},
 * {@code throttled_usec}). Empty where none is there (the container gone, a rootless engine's own tree).
 */
public final class CgroupCpu {

    private static final Path ROOT = Path.of("/sys/fs/cgroup");

    private CgroupCpu() {}

    private static List<Path> dirs(Path base, String id) {
        return List.of(
                base.resolve("docker").resolve(id), base.resolve("system.slice").resolve("docker-" + id + ".scope"));
    }

    public static OptionalLong usageNanos(String id) {
        for (Path dir : dirs(ROOT.resolve("cpuacct"), id)) {
            OptionalLong v = number(dir.resolve("cpuacct.usage"));
            if (v.isPresent()) {
                return v;
            }
        }
        for (Path dir : dirs(ROOT, id)) {
            OptionalLong usec = field(dir.resolve("cpu.stat"), "usage_usec");
            if (usec.isPresent()) {
                return OptionalLong.of(usec.getAsLong() * 1000);
            }
        }
        return OptionalLong.empty();
    }

    public static OptionalLong throttledNanos(String id) {
        for (Path dir : dirs(ROOT.resolve("cpu"), id)) {
            OptionalLong v = field(dir.resolve("cpu.stat"), "throttled_time");
            if (v.isPresent()) {
                return v;
            }
        }
        for (Path dir : dirs(ROOT, id)) {
            OptionalLong usec = field(dir.resolve("cpu.stat"), "throttled_usec");
            if (usec.isPresent()) {
                return OptionalLong.of(usec.getAsLong() * 1000);
            }
        }
        return OptionalLong.empty();
    }

    private static OptionalLong number(Path file) {
        try {
            return OptionalLong.of(Long.parseLong(Files.readString(file).trim()));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    /** A "name value" line of a cgroup stat file. */
    static OptionalLong field(Path file, String name) {
        try {
            for (String line : Files.readAllLines(file)) {
                String[] kv = line.trim().split("\\s+");
                if (kv.length == 2 && kv[0].equals(name)) {
                    return OptionalLong.of(Long.parseLong(kv[1]));
                }
            }
        } catch (IOException | RuntimeException e) {
            // absent
        }
        return OptionalLong.empty();
    }
}
