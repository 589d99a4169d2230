package dev.loommatrix.runner.publish;

import dev.loommatrix.core.result.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What the site keeps ({@code publish --keep}, {@code --keep-profiles}): the newest runs, and of those the newest
 * profiled ones' recordings — the site must stay within a static host's limits.
 */
final class Retention {

    private Retention() {}

    /** The runs kept (oldest first, as given) and those dropped, whose directories go once the index is written. */
    record Kept(List<History.Entry> kept, List<History.Entry> dropped) {}

    /** With {@code keep}, only the newest {@code keep} of the entries (oldest first) stay. */
    static Kept newest(List<History.Entry> entries, Optional<Integer> keep) {
        if (keep.isEmpty() || entries.size() <= keep.get()) {
            return new Kept(entries, List.of());
        }
        return new Kept(
                new ArrayList<>(entries.subList(entries.size() - keep.get(), entries.size())),
                new ArrayList<>(entries.subList(0, entries.size() - keep.get())));
    }

    /**
     * Removes the recordings of every profiled run but the newest {@code keepProfiles} of them, and marks each
     * entry with whether the site has its recordings. Only runs that have profiles count (issue #31: a profiled
     * run lost its flame graphs to three later runs that had none).
     */
    static List<History.Entry> profiles(Path site, List<History.Entry> entries, int keepProfiles) throws IOException {
        History.Entry[] out = new History.Entry[entries.size()];
        int kept = 0;
        for (int i = entries.size() - 1; i >= 0; i--) { // newest first
            History.Entry entry = entries.get(i);
            Path dir = History.profilesDir(site, entry.runId());
            if (Files.isDirectory(dir)) {
                if (kept < keepProfiles) {
                    kept++;
                } else {
                    FileTrees.delete(dir);
                }
            }
            boolean recordings = false;
            if (Files.isDirectory(dir)) {
                try (Stream<Path> files = Files.walk(dir)) {
                    recordings = files.anyMatch(f -> f.getFileName().toString().endsWith(".jfr"));
                }
            }
            out[i] = entry.withProfiles(Files.isDirectory(dir), recordings);
        }
        return List.of(out);
    }
}
