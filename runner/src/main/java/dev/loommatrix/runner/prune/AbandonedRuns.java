package dev.loommatrix.runner.prune;

import dev.loommatrix.core.result.FileTrees;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.result.RunStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Run directories that will never finish (issue #32, {@code prune}): a run whose runner was killed ({@code running}
 * in its run.json, no process holds it) or that was stopped ({@code interrupted}) and has not been written to for an
 * age — resuming it is what {@code run --resume} is for until then. A finished run, a merged {@code partial} one and
 * anything that is not a run directory are never touched; nor is the run measuring now.
 */
public final class AbandonedRuns {

    /** A run directory found abandoned: where, its run id and status, when it was last written, its size. */
    public record Abandoned(Path dir, String runId, RunStatus status, Instant lastWritten, long bytes) {}

    private AbandonedRuns() {}

    /** The run directories directly under {@code results} left unfinished and untouched for longer than {@code age}. */
    public static List<Abandoned> find(Path results, Duration age, java.util.Set<String> liveRunIds, Instant now)
            throws IOException {
        List<Abandoned> found = new ArrayList<>();
        if (!Files.isDirectory(results)) {
            return found;
        }
        List<Path> dirs;
        try (Stream<Path> children = Files.list(results)) {
            dirs = children.filter(Files::isDirectory).sorted().toList();
        }
        for (Path dir : dirs) {
            RunManifest manifest;
            try {
                manifest = new RunDirectory(dir).readManifest();
            } catch (IOException | RuntimeException notARun) {
                continue; // not a run directory, or not one this version can read: not ours to remove
            }
            boolean unfinished = manifest.status() == RunStatus.RUNNING || manifest.status() == RunStatus.INTERRUPTED;
            if (!unfinished || liveRunIds.contains(manifest.runId())) {
                continue;
            }
            Contents contents = Contents.of(dir);
            if (Duration.between(contents.lastWritten(), now).compareTo(age) > 0) {
                found.add(new Abandoned(
                        dir, manifest.runId(), manifest.status(), contents.lastWritten(), contents.bytes()));
            }
        }
        return found;
    }

    /** Deletes a run directory, its files before their directories. */
    public static void remove(Abandoned run) throws IOException {
        FileTrees.delete(run.dir());
    }

    /**
     * What one walk of a run directory finds: the newest modification time of anything in it (a cell's record, its
     * raw output) and the bytes of its files.
     */
    private record Contents(Instant lastWritten, long bytes) {

        static Contents of(Path dir) throws IOException {
            FileTime newest = FileTime.fromMillis(0);
            long bytes = 0;
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : (Iterable<Path>) walk::iterator) {
                    try {
                        BasicFileAttributes attributes = Files.readAttributes(p, BasicFileAttributes.class);
                        if (attributes.lastModifiedTime().compareTo(newest) > 0) {
                            newest = attributes.lastModifiedTime();
                        }
                        if (attributes.isRegularFile()) {
                            bytes += attributes.size();
                        }
                    } catch (IOException gone) {
                        // removed while walked: it neither dates nor weighs the run
                    }
                }
            }
            return new Contents(newest.toInstant(), bytes);
        }
    }
}
