package dev.loommatrix.runner.records;

import java.util.List;
import java.util.Optional;

/**
 * One repetition's line in a variant's load file: the load generator's report at each rate, and, for a capacity
 * search, what the search found (its {@code levels} are then the search's windows in the order run).
 */
public record LoadLine(int run, List<LoadReport> levels, Optional<CapacityLine> capacity) {
    public LoadLine {
        levels = List.copyOf(levels);
        capacity = capacity == null ? Optional.empty() : capacity;
    }

    /** The file beside a variant's records that holds its load runs, one line per repetition. */
    public static String file(String variant) {
        return CellFiles.slug(variant) + ".load.jsonl";
    }
}
