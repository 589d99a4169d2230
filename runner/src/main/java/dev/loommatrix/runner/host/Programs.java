package dev.loommatrix.runner.host;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** The programs this host offers on its {@code PATH}. */
public final class Programs {

    private Programs() {}

    /** The first executable called {@code program} (or {@code program.exe}) on the {@code PATH}. */
    public static Optional<Path> onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            for (String name : List.of(program, program + ".exe")) {
                Path candidate = Path.of(dir, name);
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }
}
