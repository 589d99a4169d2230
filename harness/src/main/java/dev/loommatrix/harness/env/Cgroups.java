package dev.loommatrix.harness.env;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Reads the limits the container runtime set, from the cgroup files visible inside the JVM's cgroup
 * namespace. Both layouts exist in the wild: v2 (one unified tree: cpu.max, memory.max, pids.max)
 * and v1 (one tree per controller: cpu/cpu.cfs_quota_us, memory/memory.limit_in_bytes, pids/pids.max).
 * The root is a parameter so the parsing is tested against fixture trees of both.
 */
public final class Cgroups {

    private final Path root;

    public Cgroups(Path root) {
        this.root = root;
    }

    public static Cgroups host() {
        return new Cgroups(Path.of("/sys/fs/cgroup"));
    }

    public enum Version {
        V1,
        V2,
        NONE
    }

    public Version version() {
        if (Files.isRegularFile(root.resolve("cgroup.controllers"))) {
            return Version.V2;
        }
        if (Files.isDirectory(root.resolve("cpu")) || Files.isDirectory(root.resolve("memory"))) {
            return Version.V1;
        }
        return Version.NONE;
    }

    /** CPU quota as a number of CPUs (quota / period), empty when unlimited. */
    public OptionalDouble cpuQuota() {
        return switch (version()) {
            case V2 ->
                read("cpu.max")
                        .map(s -> s.trim().split("\\s+"))
                        .filter(parts -> parts.length == 2 && !parts[0].equals("max"))
                        .map(parts -> OptionalDouble.of(Double.parseDouble(parts[0]) / Double.parseDouble(parts[1])))
                        .orElse(OptionalDouble.empty());
            case V1 -> {
                OptionalLong quota = readLong("cpu/cpu.cfs_quota_us");
                OptionalLong period = readLong("cpu/cpu.cfs_period_us");
                yield quota.isPresent() && quota.getAsLong() > 0 && period.isPresent()
                        ? OptionalDouble.of((double) quota.getAsLong() / period.getAsLong())
                        : OptionalDouble.empty();
            }
            case NONE -> OptionalDouble.empty();
        };
    }

    /** The CPUs this cgroup may run on, in the kernel's list syntax ("0-1,3"). */
    public Optional<String> cpuset() {
        Optional<String> raw =
                switch (version()) {
                    case V2 -> read("cpuset.cpus.effective").or(() -> read("cpuset.cpus"));
                    case V1 -> read("cpuset/cpuset.effective_cpus").or(() -> read("cpuset/cpuset.cpus"));
                    case NONE -> Optional.empty();
                };
        return raw.map(String::trim).filter(s -> !s.isEmpty());
    }

    public OptionalLong memoryLimitBytes() {
        OptionalLong raw =
                switch (version()) {
                    case V2 -> readLong("memory.max");
                    case V1 -> readLong("memory/memory.limit_in_bytes");
                    case NONE -> OptionalLong.empty();
                };
        // v1 reports "no limit" as a page-rounded Long.MAX_VALUE
        return raw.isPresent() && raw.getAsLong() < (1L << 62) ? raw : OptionalLong.empty();
    }

    public OptionalLong pidsLimit() {
        return switch (version()) {
            case V2 -> readLong("pids.max");
            case V1 -> readLong("pids/pids.max");
            case NONE -> OptionalLong.empty();
        };
    }

    /** CFS throttling counters: periods, throttled periods and throttled time in microseconds. */
    public Map<String, Long> cpuStat() {
        String file =
                switch (version()) {
                    case V2 -> "cpu.stat";
                    case V1 -> "cpu/cpu.stat";
                    case NONE -> "";
                };
        Map<String, Long> stat = new LinkedHashMap<>();
        if (file.isEmpty()) {
            return stat;
        }
        read(file).ifPresent(text -> text.lines().forEach(line -> {
            String[] kv = line.trim().split("\\s+");
            if (kv.length == 2) {
                long value = Long.parseLong(kv[1]);
                switch (kv[0]) {
                    case "nr_periods" -> stat.put("periods", value);
                    case "nr_throttled" -> stat.put("throttledPeriods", value);
                    case "throttled_usec" -> stat.put("throttledMicros", value); // v2
                    case "throttled_time" -> stat.put("throttledMicros", value / 1000); // v1: nanoseconds
                    default -> {}
                }
            }
        }));
        return stat;
    }

    private Optional<String> read(String relative) {
        try {
            Path file = root.resolve(relative);
            return Files.isReadable(file) ? Optional.of(Files.readString(file)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private OptionalLong readLong(String relative) {
        return read(relative)
                .map(String::trim)
                .filter(s -> !s.equals("max") && !s.isEmpty())
                .map(s -> OptionalLong.of(Long.parseLong(s)))
                .orElse(OptionalLong.empty());
    }
}
