package dev.loommatrix.runner.backend;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Optional;

/**
 * async-profiler's native agent (Apache 2.0, {@code tools.profiler:async-profiler} on Maven Central, which carries
 * the Linux libraries), loaded into each variant's profiling run for CPU and wall-clock flame graphs (issue #20).
 * CPU sampling uses perf events where the kernel lets the cell open them, else async-profiler's timer ({@code
 * ctimer}); the recording says which, and the record repeats it.
 */
public final class AsyncProfilerAgent {

    /** Where the cell image carries the library. */
    public static final String IN_IMAGE = "/opt/loom/libasyncProfiler.so";

    private AsyncProfilerAgent() {}

    /** The library for a Linux machine of this architecture ({@code x86_64}, {@code amd64}, {@code aarch64}). */
    public static Optional<byte[]> library(String architecture) throws IOException {
        String dir =
                switch (architecture.toLowerCase(Locale.ROOT)) {
                    case "x86_64", "amd64" -> "linux-x64";
                    case "aarch64", "arm64" -> "linux-arm64";
                    default -> null;
                };
        if (dir == null) {
            return Optional.empty();
        }
        try (InputStream in =
                AsyncProfilerAgent.class.getClassLoader().getResourceAsStream(dir + "/libasyncProfiler.so")) {
            return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
        }
    }

    /**
     * The JVM flag: start at once, sample CPU every 10 ms and every thread's wall clock every 20 ms, write JFR to
     * {@code file} at exit and the profiler's own messages to {@code log}.
     */
    public static String agentArg(String library, String file, String log) {
        return "-agentpath:" + library + "=start,event=cpu,interval=10ms,wall=20ms,jfr,file=" + file + ",log=" + log;
    }
}
