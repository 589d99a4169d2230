package dev.loommatrix.runner.publish;

import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code data/trends/<workload>/<jdk>.json}, one file per workload and JDK, and {@code
 * data/trends/<workload>/index.json} saying which JDKs (and how many cells each) there are: the history view
 * loads only the JDKs it draws (issue #19: a year of nightly runs of a 1,000-cell matrix is 40-90 MB per
 * workload; the busiest history view took 6 s to load and draw from one file).
 */
final class TrendFiles {

    private TrendFiles() {}

    /** Writes the trends of the runs the index lists; files of workloads or JDKs no longer in it are removed. */
    static void write(Path site, History.Index index) throws IOException {
        write(site, trends(site, index));
    }

    /** Writes these trends (of the runs the index lists); files of workloads or JDKs no longer in them are removed. */
    static void write(Path site, Trends all) throws IOException {
        Path dir = History.data(site).resolve("trends");
        Files.createDirectories(dir);
        Set<Path> written = new HashSet<>();
        for (var byWorkload : all.byWorkload().entrySet()) {
            Path workloadDir = dir.resolve(byWorkload.getKey());
            Trends trends = byWorkload.getValue();
            for (var byJdk : trends.byJdk().entrySet()) {
                Path file = workloadDir.resolve(byJdk.getKey() + ".json");
                Json.writeCompactAtomically(file, byJdk.getValue());
                written.add(file);
            }
            Path file = workloadDir.resolve("index.json");
            Json.writeCompactAtomically(file, trends.index());
            written.add(file);
        }
        removeUnwritten(dir, written);
    }

    /** What an earlier publish wrote and this one did not: gone workloads and JDKs, and the one-file layout. */
    private static void removeUnwritten(Path dir, Set<Path> written) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path stale : files.filter(Files::isRegularFile)
                    .filter(f -> !written.contains(f))
                    .toList()) {
                Files.deleteIfExists(stale);
            }
        }
        try (Stream<Path> dirs = Files.list(dir)) {
            for (Path d : dirs.filter(Files::isDirectory).toList()) {
                try (Stream<Path> left = Files.list(d)) {
                    if (left.findAny().isEmpty()) {
                        Files.delete(d);
                    }
                }
            }
        }
    }

    /** Trends over the runs the index lists (their directories are the truth), read one at a time. */
    static Trends trends(Path site, History.Index index) throws IOException {
        Trends.Builder trends = new Trends.Builder();
        for (History.Entry entry : index.runs()) {
            Path dir = History.runDir(site, entry.runId());
            trends.add(
                    Json.MAPPER.readValue(dir.resolve("run.json").toFile(), RunManifest.class),
                    IndexEntries.readCells(site, entry.runId()));
        }
        return trends.build();
    }
}
