package dev.loommatrix.core.result;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Combines shard run directories (one per CI job) into one run. Idempotent: merging the same shards
 * again writes the same bytes. The same cell in two shards is fine when its results are identical
 * and refused when they differ — nothing is silently chosen.
 */
public final class RunMerger {

    /** Shards that cannot be combined; the message names the cells or fields at fault. */
    public static final class Conflict extends Exception {
        private static final long serialVersionUID = 1L;

        public Conflict(String message) {
            super(message);
        }
    }

    private RunMerger() {}

    public static RunManifest merge(List<Path> shardDirs, Path out) throws IOException, Conflict {
        if (shardDirs.isEmpty()) {
            throw new Conflict("no shard directories given");
        }
        List<RunManifest> manifests = new ArrayList<>();
        ShardCells cells = new ShardCells();
        for (Path dir : shardDirs) {
            manifests.add(new RunDirectory(dir).readManifest());
            cells.read(dir);
        }
        List<String> conflicts = new ArrayList<>(cells.conflicts);
        differentCommit(manifests).ifPresent(conflicts::add);
        RunDirectory target = new RunDirectory(out);
        conflicts.addAll(alreadyThere(cells, out, target));
        if (!conflicts.isEmpty()) {
            throw new Conflict("conflicting results, nothing merged: " + String.join("; ", conflicts));
        }

        for (var entry : cells.json.entrySet()) {
            Json.writeAtomically(target.cellFile(entry.getKey()), entry.getValue());
            RunDirectory source = new RunDirectory(cells.source.get(entry.getKey()));
            copyIfThere(source.rawDir(entry.getKey()), target.rawDir(entry.getKey()));
            copyIfThere(source.attemptsDir(entry.getKey()), target.attemptsDir(entry.getKey()));
        }
        RunManifest merged = mergeManifests(manifests, cells.json.keySet());
        target.writeManifest(merged);
        return merged;
    }

    /** The shards' cell records by cell id, each with the first shard that holds it, and the cells they differ on. */
    private static final class ShardCells {
        final Map<String, String> json = new LinkedHashMap<>();
        final Map<String, Path> source = new LinkedHashMap<>();
        final List<String> conflicts = new ArrayList<>();

        void read(Path dir) throws IOException {
            Path cells = dir.resolve("cells");
            if (!Files.isDirectory(cells)) {
                return;
            }
            try (Stream<Path> files = Files.list(cells)) {
                for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".json"))
                        .sorted()
                        .toList()) {
                    String id = file.getFileName().toString().replaceFirst("\\.json$", "");
                    String text = RunDirectory.text(file); // read once: checked, then copied byte for byte
                    RunDirectory.readCellText(file, text); // refuse unreadable cells before writing anything
                    String earlier = json.putIfAbsent(id, text);
                    if (earlier != null && !earlier.equals(text)) {
                        conflicts.add(id + " (in " + source.get(id) + " and " + dir + ")");
                    }
                    source.putIfAbsent(id, dir);
                }
            }
        }
    }

    /** Shards of one run ran one commit; the first that differs from the first shard's is the conflict. */
    private static Optional<String> differentCommit(List<RunManifest> manifests) {
        String commit = manifests.get(0).git().commit();
        for (RunManifest m : manifests) {
            if (!m.git().commit().equals(commit)) {
                return Optional.of("shards ran different commits: " + commit + " and "
                        + m.git().commit());
            }
        }
        return Optional.empty();
    }

    /** Cells the output directory already holds with other results: merging would overwrite them. */
    private static List<String> alreadyThere(ShardCells cells, Path out, RunDirectory target) throws IOException {
        List<String> conflicts = new ArrayList<>();
        if (Files.isDirectory(out.resolve("cells"))) {
            for (var entry : cells.json.entrySet()) {
                Path existing = target.cellFile(entry.getKey());
                if (Files.isRegularFile(existing) && !Files.readString(existing).equals(entry.getValue())) {
                    conflicts.add(entry.getKey() + " (already in " + out + " with other results)");
                }
            }
        }
        return conflicts;
    }

    static RunManifest mergeManifests(List<RunManifest> manifests, java.util.Set<String> finishedCells) {
        RunManifest first = manifests.stream()
                .min(Comparator.comparing(RunManifest::startedAt).thenComparing(RunManifest::runId))
                .orElseThrow();
        boolean sameRun = manifests.stream().allMatch(m -> m.runId().equals(first.runId()));
        LinkedHashSet<String> planned = new LinkedHashSet<>();
        manifests.forEach(m -> planned.addAll(m.cells()));
        Optional<String> finished = manifests.stream()
                .map(RunManifest::finishedAt)
                .flatMap(Optional::stream)
                .max(String::compareTo);
        boolean complete = manifests.stream().allMatch(m -> m.status() == RunStatus.FINISHED)
                && finishedCells.containsAll(planned);
        List<RunManifest.Shard> shards = new ArrayList<>();
        for (RunManifest m : manifests) {
            if (m.shards().isEmpty()) {
                shards.add(new RunManifest.Shard(m.runId(), m.matrix().shard().orElse("1/1"), m.host(), m.status()));
            } else {
                shards.addAll(m.shards());
            }
        }
        shards.sort(Comparator.comparing(RunManifest.Shard::shard).thenComparing(RunManifest.Shard::runId));
        return new RunManifest(
                first.schemaVersion(),
                sameRun ? first.runId() : first.runId() + "-merged",
                first.startedAt(),
                finished,
                complete ? RunStatus.FINISHED : RunStatus.PARTIAL,
                first.trigger(),
                first.git(),
                first.host(),
                new RunManifest.MatrixInfo(
                        first.matrix().file(),
                        first.matrix().profile(),
                        first.matrix().sha256(),
                        Optional.empty(),
                        first.matrix().id()),
                List.copyOf(planned),
                shards);
    }

    /** A cell's raw output or its earlier attempts, where it has them, replacing same-named files. */
    private static void copyIfThere(Path from, Path to) throws IOException {
        if (Files.isDirectory(from)) {
            FileTrees.copy(from, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
    }
}
