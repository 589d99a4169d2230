package dev.loommatrix.runner.bisect;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Each probed commit's build, in a worktree of its own under the bisection's directory, by the team's build
 * command ({@code sh -c}); its output in {@code builds/<commit>.log}, its exit status beside it, so that a bisection
 * resumed builds nothing twice.
 */
final class Builds {

    /** A build taking longer than this is taken as failed (a hung build must not eat the budget). */
    static final Duration TIMEOUT = Duration.ofMinutes(30);

    private final Git git;
    private final Path root;
    private final String command;

    Builds(Git git, Path root, String command) {
        this.git = git;
        this.root = root;
        this.command = command;
    }

    /** Where the commit's worktree is (built or not). */
    Path worktree(Git.Commit commit) {
        return root.resolve("worktrees").resolve(commit.shortId());
    }

    /** The commit's worktree, built; empty with why when the build failed. */
    Built build(Git.Commit commit) throws IOException, InterruptedException {
        Path dir = worktree(commit);
        Path log = root.resolve("builds").resolve(commit.shortId() + ".log");
        Path status = root.resolve("builds").resolve(commit.shortId() + ".status");
        if (Files.isRegularFile(status)) {
            return Built.of(dir, log, Integer.parseInt(Files.readString(status).strip()), Duration.ZERO, true);
        }
        Files.createDirectories(log.getParent());
        git.worktree(commit, dir);
        long start = System.nanoTime();
        Process p = new ProcessBuilder(List.of("sh", "-c", command))
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        int code;
        if (p.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            code = p.exitValue();
        } else {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor();
            Files.writeString(
                    log,
                    "\nloom-matrix: the build took longer than " + TIMEOUT.toMinutes() + " min\n",
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.APPEND);
            code = 124;
        }
        Files.writeString(status, code + "\n");
        return Built.of(dir, log, code, Duration.ofNanos(System.nanoTime() - start), false);
    }

    /**
     * A commit's build: its worktree and how long it took; {@code failure} says why it is of no use.
     *
     * @param before whether it was built by an earlier run of this bisection
     */
    record Built(Path worktree, Path log, Optional<String> failure, Duration took, boolean before) {
        static Built of(Path dir, Path log, int code, Duration took, boolean before) throws IOException {
            return new Built(
                    dir,
                    log,
                    code == 0 ? Optional.empty() : Optional.of("exit " + code + ": " + lastLine(log)),
                    took,
                    before);
        }
    }

    /** A log's last line that says something, for a reader's one-line why. */
    static String lastLine(Path log) throws IOException {
        if (!Files.isRegularFile(log)) {
            return "no output";
        }
        List<String> lines = new String(Files.readAllBytes(log), StandardCharsets.UTF_8)
                .lines()
                .filter(l -> !l.isBlank())
                .toList();
        return lines.isEmpty() ? "no output" : lines.getLast().strip();
    }
}
