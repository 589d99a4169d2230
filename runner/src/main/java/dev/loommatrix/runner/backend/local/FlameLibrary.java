package dev.loommatrix.runner.backend.local;

import dev.loommatrix.runner.backend.AsyncProfilerAgent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** async-profiler's library for this host's flame graphs (issue #20): none off Linux or without one for its CPU. */
final class FlameLibrary {

    private Path written;

    /** The library, written once to a temporary file the JVMs load it from; none off Linux. */
    synchronized Optional<Path> path() throws IOException {
        if (written == null) {
            Optional<byte[]> bytes = FlameHost.LIBRARY;
            if (bytes.isEmpty()) {
                return Optional.empty();
            }
            written = Files.createTempFile("loom-asyncProfiler", ".so");
            Files.write(written, bytes.get());
            written.toFile().deleteOnExit();
        }
        return Optional.of(written);
    }

    /** Why this host cannot make flame graphs, if it cannot. */
    static Optional<String> whyNot() {
        return FlameHost.WHY_NOT;
    }

    /**
     * This host's async-profiler library and, where there is none, why: read from the jar once, and only when a
     * cell asks for flame graphs (the holder class loads on first use).
     */
    private static final class FlameHost {
        static final Optional<String> WHY_NOT;
        static final Optional<byte[]> LIBRARY;

        static {
            String os = System.getProperty("os.name");
            String arch = System.getProperty("os.arch");
            Optional<byte[]> library = Optional.empty();
            Optional<String> why;
            if (!os.toLowerCase(Locale.ROOT).contains("linux")) {
                why = Optional.of("async-profiler's libraries here are for Linux; this host runs " + os);
            } else {
                try {
                    library = AsyncProfilerAgent.library(arch);
                    why = library.isPresent()
                            ? Optional.empty()
                            : Optional.of("no async-profiler library for this host's architecture, " + arch);
                } catch (IOException e) {
                    why = Optional.of("async-profiler's library could not be read: " + e.getMessage());
                }
            }
            WHY_NOT = why;
            LIBRARY = library;
        }
    }
}
