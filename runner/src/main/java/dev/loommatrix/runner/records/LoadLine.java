package dev.loommatrix.runner.records;

import java.util.List;

/** One repetition's line in a variant's load file: the load generator's report at each rate. */
public record LoadLine(int run, List<LoadReport> levels) {
    public LoadLine {
        levels = List.copyOf(levels);
    }

    /** The file beside a variant's records that holds its load runs, one line per repetition. */
    public static String file(String variant) {
        return CellFiles.slug(variant) + ".load.jsonl";
    }
}
