package dev.loommatrix.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Files in tests: a fixture or a run directory copied to a temporary place to change it there. */
public final class TestFiles {

    private TestFiles() {}

    /** Copies {@code from} (a directory, with everything under it) to {@code to}; returns {@code to}. */
    public static Path copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
        return to;
    }
}
