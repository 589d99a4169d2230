package dev.loommatrix.runner.host;

import java.nio.file.Path;

/**
 * The host-wide directory every loom-matrix run on this host shares, whoever runs it: the measurement locks (issue
 * #32) and the record of which runs used which cell images (for {@code prune}).
 * {@code $LOOM_LOCK_DIR}, default {@code <tmp>/loom-matrix-locks}.
 */
public final class HostState {

    private HostState() {}

    public static Path directory() {
        String configured = System.getenv("LOOM_LOCK_DIR");
        return configured != null && !configured.isBlank()
                ? Path.of(configured)
                : Path.of(System.getProperty("java.io.tmpdir"), "loom-matrix-locks");
    }
}
