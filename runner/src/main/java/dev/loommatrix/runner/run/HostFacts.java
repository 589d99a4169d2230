package dev.loommatrix.runner.run;

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
        return new RunManifest.Host(
                System.getProperty("os.name"),
                System.getProperty("os.version"),
                cpuModel(),
                Runtime.getRuntime().availableProcessors(),
                memory);
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
