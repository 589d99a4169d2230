package dev.loommatrix.core.result;

import java.io.IOException;
import java.nio.file.CopyOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** A directory with everything under it, deleted or copied whole: run directories, raw output, build contexts. */
public final class FileTrees {

    private FileTrees() {}

    /** Deletes {@code dir} and everything under it, files before their directories; nothing when it is not there. */
    public static void delete(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(dir)) {
            paths = walk.sorted(Comparator.reverseOrder()).toList();
        }
        for (Path p : paths) {
            Files.deleteIfExists(p);
        }
    }

    /**
     * {@link #delete}, for a temporary directory whose leftovers harm nothing: a failure to delete it must not hide
     * why the work in it failed.
     */
    public static void deleteQuietly(Path dir) {
        try {
            delete(dir);
        } catch (IOException | RuntimeException ignored) {
            // a temporary directory: what is left of it is the operating system's to clear
        }
    }

    /**
     * Copies {@code from} (a directory, with everything under it) to {@code to}, parents before their files;
     * {@code options} as {@link Files#copy(Path, Path, CopyOption...)} takes them. Returns {@code to}.
     */
    public static Path copy(Path from, Path to, CopyOption... options) throws IOException {
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(from)) {
            paths = walk.sorted().toList();
        }
        for (Path p : paths) {
            Path target = to.resolve(from.relativize(p).toString());
            if (Files.isDirectory(p)) {
                Files.createDirectories(target);
            } else {
                Files.copy(p, target, options);
            }
        }
        return to;
    }
}
