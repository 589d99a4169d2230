package dev.loommatrix.core.result;

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

    /**
     * Raw output of a cell that has no record — its runner was killed mid-cell — moved to
     * {@code attempts/<cell-id>/unfinished-<n>/raw}, so the next attempt's records never mix with it.
     * Empty when there was nothing to set aside.
     */
    public Optional<Path> setAsideUnfinished(String cellId) throws IOException {
        if (!Files.isDirectory(rawDir(cellId)) || Files.isRegularFile(cellFile(cellId))) {
            return Optional.empty();
        }
        int n = 1;
        while (Files.exists(attemptsDir(cellId).resolve("unfinished-" + n))) {
            n++;
        }
        Path aside = Files.createDirectories(attemptsDir(cellId).resolve("unfinished-" + n));
        Files.move(rawDir(cellId), aside.resolve("raw"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return Optional.of(aside);
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
        return ResultsFormat.readRun(manifestFile(), readTree(manifestFile()));
    }

    public Optional<CellRecord> readCell(String cellId) throws IOException {
        Path file = cellFile(cellId);
        return Files.isRegularFile(file) ? Optional.of(readCellFile(file)) : Optional.empty();
    }

    /** A cell file, checked against the results schema (refused with the file and the path when not). */
    static CellRecord readCellFile(Path file) throws IOException {
        return ResultsFormat.readCell(file, readTree(file));
    }

    /** A cell file whose text was already read (merge keeps the text to copy it byte for byte). */
    static CellRecord readCellText(Path file, String text) throws IOException {
        return ResultsFormat.readCell(file, readTree(file, text));
    }

    /** JSON text that does not parse is refused with the file's name and where it broke. */
    static com.fasterxml.jackson.databind.JsonNode readTree(Path file) throws IOException {
        return readTree(file, text(file));
    }

    /** A results file's text, which is UTF-8 JSON: anything else is refused as not a results file. */
    static String text(Path file) throws IOException {
        try {
            return Files.readString(file);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new ResultsFormat.Invalid(file + ": not UTF-8 text, so not a loom-matrix results file");
        }
    }

    private static com.fasterxml.jackson.databind.JsonNode readTree(Path file, String text) throws IOException {
        try {
            return Json.MAPPER.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            var at = e.getLocation();
            throw new ResultsFormat.Invalid(file + (at == null ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr())
                    + ": not valid JSON: " + e.getOriginalMessage());
        }
    }

    public List<CellRecord> readCells() throws IOException {
        List<CellRecord> cells = new ArrayList<>();
        Path dir = root.resolve("cells");
        Path published = root.resolve("cells.json");
        if (!Files.isDirectory(dir) && Files.isRegularFile(published)) {
            // a run as publish keeps it in a site (data/runs/<id>/): what a pull request compares against
            var tree = readTree(published);
            for (int i = 0; i < tree.size(); i++) {
                cells.add(ResultsFormat.readCell(Path.of(published + "[" + i + "]"), tree.get(i)));
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
