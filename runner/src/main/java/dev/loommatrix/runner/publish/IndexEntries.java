package dev.loommatrix.runner.publish;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The index's entries and where they come from: each run directory's {@code run.json} and {@code cells.json} are
 * the truth, so an index that cannot be read is rebuilt from them — or, if one of them cannot be read either, not
 * written at all.
 */
final class IndexEntries {

    private IndexEntries() {}

    /** The entries the index lists now, and a note when it had to be rebuilt from the run directories. */
    record Current(List<History.Entry> entries, Optional<String> note) {}

    static Current current(Path site) throws IOException {
        if (!Files.exists(History.indexFile(site))) {
            // a new site
            return new Current(
                    new ArrayList<>(
                            rebuild(site, new IOException("no index yet")).runs()),
                    Optional.empty());
        }
        try {
            return new Current(new ArrayList<>(History.readIndex(site).runs()), Optional.empty());
        } catch (IOException unreadable) {
            List<History.Entry> entries =
                    new ArrayList<>(rebuild(site, unreadable).runs());
            return new Current(
                    entries,
                    Optional.of("the index was unreadable (" + unreadable.getMessage() + "); rebuilt it from "
                            + entries.size() + " run directories"));
        }
    }

    /** The index from every run directory; refuses (changing nothing) if any of them is unreadable. */
    static History.Index rebuild(Path site, IOException why) throws IOException {
        List<History.Entry> entries = new ArrayList<>();
        Path runs = History.data(site).resolve("runs");
        if (Files.isDirectory(runs)) {
            try (Stream<Path> dirs = Files.list(runs)) {
                for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
                    try {
                        RunManifest manifest =
                                Json.MAPPER.readValue(dir.resolve("run.json").toFile(), RunManifest.class);
                        List<CellRecord> cells = List.of(
                                Json.MAPPER.readValue(dir.resolve("cells.json").toFile(), CellRecord[].class));
                        entries.add(entry(manifest, cells));
                    } catch (IOException | RuntimeException e) {
                        throw new History.Refused(
                                "data/index.json is unreadable (" + why.getMessage() + ") and so is run directory "
                                        + dir.getFileName() + " (" + e.getMessage() + "); refusing to write an index"
                                        + " that would drop history. Repair or remove that directory and publish again.",
                                e);
                    }
                }
            }
        }
        entries.sort(History.ORDER);
        return new History.Index(History.SCHEMA_VERSION, entries);
    }

    /** A run's entry, not yet compared with any baseline nor marked with its profiles. */
    static History.Entry entry(RunManifest manifest, List<CellRecord> cells) {
        int ok = (int) cells.stream().filter(c -> c.status() == CellStatus.OK).count();
        int attested = (int) cells.stream()
                .filter(c -> c.environment().map(e -> e.attested()).orElse(false))
                .count();
        return new History.Entry(
                manifest.runId(),
                manifest.startedAt(),
                manifest.finishedAt(),
                manifest.status(),
                manifest.git(),
                manifest.matrix().profile(),
                manifest.trigger(),
                cells.stream()
                        .map(c -> c.coordinates().jdk())
                        .distinct()
                        .sorted()
                        .toList(),
                cells.stream()
                        .map(c -> c.coordinates().workload())
                        .distinct()
                        .sorted()
                        .toList(),
                cells.size(),
                ok,
                (int) cells.stream().filter(c -> c.status().isFailure()).count(),
                attested,
                Optional.empty(),
                Optional.of(manifest.matrix().identity()),
                List.of(),
                false,
                false);
    }

    static List<CellRecord> readCells(Path site, String runId) throws IOException {
        return List.of(Json.MAPPER.readValue(
                History.runDir(site, runId).resolve("cells.json").toFile(), CellRecord[].class));
    }
}
