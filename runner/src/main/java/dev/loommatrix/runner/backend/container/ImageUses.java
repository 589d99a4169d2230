package dev.loommatrix.runner.backend.container;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.runner.host.HostState;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which runs used which loom-matrix images on one Docker engine, newest last: what {@code prune} keeps ("the images of
 * the newest N runs"). Kept beside the measurement locks ({@link HostState}), not in a run directory, because CI
 * workspaces are wiped between jobs while the engine's images stay. A run's entry is written when it first uses an
 * image, before it creates a container of it. One file per engine, replaced atomically under a lock of its own.
 */
public final class ImageUses {

    /** One run's images on this engine: every tag it used (cell images, their user layers, load generators). */
    public record Use(String runId, String at, List<String> images) {
        public Use {
            images = List.copyOf(images);
        }
    }

    /** Entries kept: far more runs than anyone keeps images for. */
    static final int KEEP_ENTRIES = 500;

    private final Path file;

    private ImageUses(Path file) {
        this.file = file;
    }

    /** The record for an engine, in the host's shared directory. */
    public static ImageUses of(String engineId) {
        return in(HostState.directory(), engineId);
    }

    public static ImageUses in(Path dir, String engineId) {
        return new ImageUses(dir.resolve("images-used-" + engineId.replaceAll("[^A-Za-z0-9._-]", "_") + ".json"));
    }

    public Path file() {
        return file;
    }

    public boolean exists() {
        return Files.isRegularFile(file);
    }

    /** The uses, oldest first; none when nothing was recorded (or the file is unreadable: said by the caller). */
    public List<Use> read() throws IOException {
        if (!exists()) {
            return List.of();
        }
        return Json.MAPPER.readValue(file.toFile(), new TypeReference<List<Use>>() {});
    }

    /** Adds images to a run's entry (creating it), moving the entry to the end: the newest use. */
    public void record(String runId, List<String> images) throws IOException {
        Files.createDirectories(file.getParent());
        Path lockFile = file.resolveSibling(file.getFileName() + ".lock");
        try (FileChannel channel = FileChannel.open(
                        lockFile, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
                FileLock ignored = channel.lock()) {
            List<Use> uses;
            try {
                uses = new ArrayList<>(read());
            } catch (IOException unreadable) {
                uses = new ArrayList<>(); // a torn file cannot exist (atomic writes); a foreign one is replaced
            }
            Set<String> tags = new LinkedHashSet<>();
            String at = Instant.now().toString();
            for (int i = uses.size() - 1; i >= 0; i--) {
                if (uses.get(i).runId().equals(runId)) {
                    tags.addAll(uses.remove(i).images());
                }
            }
            tags.addAll(images);
            uses.add(new Use(runId, at, List.copyOf(tags)));
            if (uses.size() > KEEP_ENTRIES) {
                uses = new ArrayList<>(uses.subList(uses.size() - KEEP_ENTRIES, uses.size()));
            }
            Json.writeAtomically(file, uses);
        }
    }
}
