package dev.loommatrix.runner.records;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A variant's {@code <variant>.records.jsonl} in a cell's raw directory: one JSON line per JVM run, written by the
 * harness (a built-in workload) or by the attestation agent (a user's). Both readers take its lines from here, blank
 * ones left out, each with the place a message about it names ({@code raw/virtual.records.jsonl:3}).
 */
final class RecordsFile {

    /** One non-blank line and where it stands. */
    record Line(String json, String where) {}

    private static final String SUFFIX = ".records.jsonl";

    private RecordsFile() {}

    /** The variant's lines, in order; none when the variant never wrote its file. */
    static List<Line> lines(Path rawDir, String variant) throws IOException {
        return lines(rawDir.resolve(CellFiles.slug(variant) + SUFFIX));
    }

    static List<Line> lines(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        List<String> text = Files.readAllLines(file);
        List<Line> lines = new ArrayList<>();
        for (int n = 0; n < text.size(); n++) {
            if (!text.get(n).isBlank()) {
                lines.add(new Line(text.get(n), "raw/" + file.getFileName() + ":" + (n + 1)));
            }
        }
        return lines;
    }

    /** Every variant's file in the raw directory, by name; none when there is no such directory. */
    static List<Path> all(Path rawDir) throws IOException {
        if (!Files.isDirectory(rawDir)) {
            return List.of();
        }
        try (var listing = Files.list(rawDir)) {
            return listing.filter(f -> f.getFileName().toString().endsWith(SUFFIX))
                    .sorted()
                    .toList();
        }
    }
}
