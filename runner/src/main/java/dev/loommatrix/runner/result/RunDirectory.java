package dev.loommatrix.runner.result;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A run on disk: {@code run.json}, {@code cells/<cellId>.json}, and {@code raw/<cellId>/} with the
 * harness records and hyperfine exports each cell produced. Every JSON file is replaced atomically.
 */
public final class RunDirectory {

    private final Path root;

    public RunDirectory(Path root) {
        this.root = root;
    }

    public Path root() {
        return root;
    }

    public Path manifestFile() {
        return root.resolve("run.json");
    }

    public Path cellFile(String cellId) {
        return root.resolve("cells").resolve(cellId + ".json");
    }

    public Path rawDir(String cellId) {
        return root.resolve("raw").resolve(cellId);
    }

    /** Earlier attempts at a cell that {@code --retry-failed} ran again: {@code attempts/<cell-id>/<n>/}. */
    public Path attemptsDir(String cellId) {
        return root.resolve("attempts").resolve(cellId);
    }

    /**
     * Moves a cell's record and raw output aside to {@code attempts/<cell-id>/<n>/{cell.json,raw/}} (n =
     * 1, 2, …) before the cell runs again, so the new attempt starts clean and the old one is kept. Raw
     * output first, the record last: until the record moves, the cell still counts as ended, and an
     * attempt directory without its record is reused by the next try.
     */
    public Path archiveAttempt(String cellId) throws IOException {
        int n = 1;
        while (Files.exists(attemptsDir(cellId).resolve(n + "").resolve("cell.json"))) {
            n++;
        }
        Path attempt = Files.createDirectories(attemptsDir(cellId).resolve(n + ""));
        if (Files.isDirectory(rawDir(cellId)) && !Files.exists(attempt.resolve("raw"))) {
            Files.move(rawDir(cellId), attempt.resolve("raw"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        Files.move(cellFile(cellId), attempt.resolve("cell.json"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return attempt;
    }

    /** The records of a cell's earlier attempts, oldest first (none for a cell that ran once). */
    public List<CellRecord> readAttempts(String cellId) throws IOException {
        Path dir = attemptsDir(cellId);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<CellRecord> attempts = new ArrayList<>();
        try (var numbers = Files.list(dir)) {
            for (Path attempt : numbers.filter(p -> p.getFileName().toString().matches("\\d+"))
                    .sorted(java.util.Comparator.comparingInt(
                            p -> Integer.parseInt(p.getFileName().toString())))
                    .toList()) {
                if (Files.isRegularFile(attempt.resolve("cell.json"))) {
                    attempts.add(readCellFile(attempt.resolve("cell.json")));
                }
            }
        }
        return attempts;
    }

    public void writeManifest(RunManifest manifest) throws IOException {
        Json.writeAtomically(manifestFile(), manifest);
    }

    public void writeCell(CellRecord cell) throws IOException {
        Json.writeAtomically(cellFile(cell.cellId()), cell);
    }

    public RunManifest readManifest() throws IOException {
        if (!Files.isRegularFile(manifestFile())) {
            throw new IOException(root + " is not a run directory (no run.json)");
        }
        RunManifest manifest = Json.MAPPER.readValue(manifestFile().toFile(), RunManifest.class);
        if (manifest.schemaVersion() != CellRecord.SCHEMA_VERSION) {
            throw new IOException(manifestFile() + " has results schema " + manifest.schemaVersion()
                    + "; this loom-matrix reads schema " + CellRecord.SCHEMA_VERSION);
        }
        return manifest;
    }

    public Optional<CellRecord> readCell(String cellId) throws IOException {
        Path file = cellFile(cellId);
        return Files.isRegularFile(file) ? Optional.of(readCellFile(file)) : Optional.empty();
    }

    /** A cell file, refused clearly when it was written by a newer major results schema. */
    static CellRecord readCellFile(Path file) throws IOException {
        var tree = Json.MAPPER.readTree(file.toFile());
        int version = tree.path("schemaVersion").asInt(-1);
        if (version != CellRecord.SCHEMA_VERSION) {
            throw new IOException(file + " has results schema " + (version < 0 ? "(none)" : version)
                    + "; this loom-matrix reads schema " + CellRecord.SCHEMA_VERSION
                    + (version > CellRecord.SCHEMA_VERSION ? " — upgrade loom-matrix to read it" : ""));
        }
        return Json.MAPPER.treeToValue(tree, CellRecord.class);
    }

    public List<CellRecord> readCells() throws IOException {
        List<CellRecord> cells = new ArrayList<>();
        Path dir = root.resolve("cells");
        Path published = root.resolve("cells.json");
        if (!Files.isDirectory(dir) && Files.isRegularFile(published)) {
            // a run as publish keeps it in a site (data/runs/<id>/): what a pull request compares against
            for (CellRecord cell : Json.MAPPER.readValue(published.toFile(), CellRecord[].class)) {
                if (cell.schemaVersion() != CellRecord.SCHEMA_VERSION) {
                    throw new IOException(published + " holds cells of schema " + cell.schemaVersion()
                            + "; this loom-matrix reads schema " + CellRecord.SCHEMA_VERSION);
                }
                cells.add(cell);
            }
            return cells;
        }
        if (!Files.isDirectory(dir)) {
            return cells;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".json"))
                    .sorted()
                    .toList()) {
                cells.add(readCellFile(file));
            }
        }
        return cells;
    }
}
