package dev.loommatrix.runner;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Child processes in tests, bounded: output goes to a file, not a pipe read to its end before waiting, so a child
 * that hangs fails its test after the timeout (with what it printed so far) instead of hanging the build.
 */
public final class Processes {

    /** How a child ended: its exit code and everything it printed (stdout and stderr as they came). */
    public record Ended(int exitCode, String output) {}

    private Processes() {}

    public static Ended run(Duration timeout, List<String> command) throws IOException, InterruptedException {
        return run(new ProcessBuilder(command), timeout);
    }

    public static Ended run(ProcessBuilder builder, Duration timeout) throws IOException, InterruptedException {
        Path log = Files.createTempFile("loom-test-process", ".log");
        try {
            if (builder.redirectError() == ProcessBuilder.Redirect.PIPE) {
                builder.redirectErrorStream(true); // stderr interleaved, unless the caller sent it elsewhere
            }
            Process p = builder.redirectOutput(log.toFile()).start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                fail("%s did not end within %s; it printed:%n%s", builder.command(), timeout, read(log));
            }
            return new Ended(p.exitValue(), read(log));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /** As {@link #run}, failing the test with the output unless the child exits 0; its output. */
    public static String ok(Duration timeout, List<String> command) throws IOException, InterruptedException {
        Ended ended = run(timeout, command);
        if (ended.exitCode() != 0) {
            fail("%s exited %d:%n%s", command, ended.exitCode(), ended.output());
        }
        return ended.output();
    }

    private static String read(Path log) throws IOException {
        return new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
    }
}
