package dev.loommatrix.runner.host;

import dev.loommatrix.core.result.RunManifest;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Facts about the machine and checkout a run happens on, for run.json. */
public final class HostFacts {

    private HostFacts() {}

    public static RunManifest.Host host() {
        long memory =
                ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                        ? os.getTotalMemorySize()
                        : -1;
        return RunManifest.Host.of(
                        System.getProperty("os.name"),
                        System.getProperty("os.version"),
                        cpuModel(),
                        Runtime.getRuntime().availableProcessors(),
                        memory)
                .withTuning(tuning(Path.of("/sys/devices/system/cpu"), Path.of("/proc/cpuinfo")));
    }

    /**
     * The CPU settings that add noise (issue #32), from Linux's sysfs: cpufreq's governor (cpu0's), boost (cpufreq's
     * {@code boost}, or intel_pstate's {@code no_turbo}), SMT ({@code smt/active}), and the mean "cpu MHz" of
     * /proc/cpuinfo; what the host does not show is listed, and the settings known to add noise are warned of.
     */
    public static RunManifest.Tuning tuning(Path cpu, Path cpuinfo) {
        java.util.List<String> notExposed = new java.util.ArrayList<>();
        java.util.List<String> warnings = new java.util.ArrayList<>();
        java.util.Optional<String> governor = read(cpu.resolve("cpu0/cpufreq/scaling_governor"));
        if (governor.isEmpty()) {
            notExposed.add("frequency governor (no cpufreq: often a VM, whose host decides)");
        } else if (!governor.get().equals("performance")) {
            warnings.add("CPU frequency governor '" + governor.get() + "', not 'performance': the clock moves with"
                    + " load, and so do short measurements");
        }
        java.util.Optional<Boolean> boost = read(cpu.resolve("cpufreq/boost"))
                .map("1"::equals)
                .or(() -> read(cpu.resolve("intel_pstate/no_turbo")).map("0"::equals));
        if (boost.isEmpty()) {
            notExposed.add("turbo/boost");
        } else if (boost.get()) {
            warnings.add("turbo/boost on: the clock depends on temperature and on how many cores are busy");
        }
        java.util.Optional<Boolean> smt = read(cpu.resolve("smt/active")).map("1"::equals);
        if (smt.isEmpty()) {
            notExposed.add("SMT");
        } else if (smt.get()) {
            warnings.add("SMT on: a cell's CPUs may share cores with other work's");
        }
        java.util.Optional<Double> mhz = meanMhz(cpuinfo);
        if (mhz.isEmpty()) {
            notExposed.add("CPU frequency");
        }
        return new RunManifest.Tuning(governor, boost, smt, mhz, notExposed, warnings);
    }

    /** The mean "cpu MHz" over the host's CPUs in /proc/cpuinfo, to 0.1 MHz; empty where there is none (not Linux). */
    static java.util.Optional<Double> meanMhz(Path cpuinfo) {
        try {
            var values = Files.readAllLines(cpuinfo).stream()
                    .filter(l -> l.startsWith("cpu MHz"))
                    .mapToDouble(l ->
                            Double.parseDouble(l.substring(l.indexOf(':') + 1).trim()))
                    .toArray();
            return values.length == 0
                    ? java.util.Optional.empty()
                    : java.util.Optional.of(
                            Math.round(java.util.Arrays.stream(values).average().orElseThrow() * 10) / 10.0);
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty(); // not Linux
        }
    }

    private static java.util.Optional<String> read(Path file) {
        try {
            return java.util.Optional.of(Files.readString(file).trim()).filter(v -> !v.isEmpty());
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }

    static String cpuModel() {
        try {
            Path cpuinfo = Path.of("/proc/cpuinfo");
            if (Files.isReadable(cpuinfo)) {
                return Files.readAllLines(cpuinfo).stream()
                        .filter(l -> l.startsWith("model name"))
                        .map(l -> l.substring(l.indexOf(':') + 1).trim())
                        .findFirst()
                        .orElse("unknown");
            }
        } catch (IOException e) {
            // fall through
        }
        String env = System.getenv("PROCESSOR_IDENTIFIER"); // Windows
        return env != null ? env : System.getProperty("os.arch");
    }

    /** The checkout the matrix file is in, else the one the command runs in. */
    public static RunManifest.Git git(Path matrixDir) {
        Path dir = git(matrixDir, "rev-parse", "HEAD").isBlank() ? Path.of("").toAbsolutePath() : matrixDir;
        String commit = git(dir, "rev-parse", "HEAD");
        String branch = System.getenv().getOrDefault("GITHUB_HEAD_REF", "");
        if (branch.isBlank()) {
            branch = git(dir, "rev-parse", "--abbrev-ref", "HEAD");
        }
        boolean dirty =
                !git(dir, "status", "--porcelain", "--untracked-files=no").isBlank();
        return new RunManifest.Git(commit.isBlank() ? "unknown" : commit, branch.isBlank() ? "unknown" : branch, dirty);
    }

    private static String git(Path dir, String... args) {
        try {
            List<String> command = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
            command.addAll(List.of(args));
            Process p = new ProcessBuilder(command)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : "";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
