package dev.loommatrix.runner.bisect;

import dev.loommatrix.core.bisect.Change;
import dev.loommatrix.core.compare.CompareReport;
import dev.loommatrix.core.compare.Comparison;
import dev.loommatrix.core.result.Json;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Whether a step is the image's rather than the code's (issue #53): where the history's step coincides with a new
 * JDK image, the bad commit's build is measured in its cells on the image before the step against the image after
 * it — one A/B with the code the same on both sides — instead of bisecting commits. Each side's matrix is the
 * commit's own with its JDK entries' images replaced, written beside it in the worktree so that its relative paths
 * still point at the build.
 */
final class ImageAb {

    private ImageAb() {}

    static BisectReport run(
            BisectRun.Request r,
            Builds builds,
            Git.Commit good,
            Git.Commit bad,
            int commits,
            Path root,
            AbStep ab,
            PrintStream console)
            throws IOException, InterruptedException, BisectRun.BisectException {
        String from = r.images().get(0);
        String to = r.images().get(1);
        console.printf("image A/B: the bad commit %s measured on %s against %s%n", bad.shortId(), from, to);
        Builds.Built built = builds.build(bad);
        if (built.failure().isPresent()) {
            throw new BisectRun.BisectException("the bad commit " + bad.shortId() + " does not build ("
                    + built.failure().get() + "); its log is " + built.log());
        }
        Path matrix = built.worktree().resolve(r.steps().matrix());
        if (!Files.isRegularFile(matrix)) {
            throw new BisectRun.BisectException("no matrix file " + r.steps().matrix() + " in the bad commit "
                    + bad.shortId() + ": give its path inside the repository with --matrix");
        }
        Path dir = root.resolve("images");
        Path compare = dir.resolve("compare.json");
        if (Files.isRegularFile(compare)) {
            console.println("  measured before: read from " + dir);
        } else {
            measure(r, ab, matrix, from, to, dir, console);
        }
        if (!Files.isRegularFile(compare)) {
            throw new BisectRun.BisectException(
                    "the image A/B ended without a report: its log is " + dir.resolveSibling("images.log"));
        }
        CompareReport report = Json.MAPPER.readValue(compare.toFile(), CompareReport.class);
        Optional<Comparison> worst = Series.worst(report, r.steps().series());
        Optional<Change> change = worst.map(Change::of);
        String ending = change.map(c ->
                        c.regression(r.threshold()) ? "image" : c.none(r.threshold()) ? "not-image" : "image-unknown")
                .orElse("image-unknown");
        String words = change.map(Change::words).orElse("nothing compared");
        String answer =
                switch (ending) {
                    case "image" ->
                        "the step is the image's: " + words + " from " + from + " to " + to + " with the code of "
                                + bad.shortId() + " on both sides";
                    case "not-image" ->
                        "the image is not the step: " + words + " from " + from + " to " + to + " on " + bad.shortId()
                                + "; bisect the commits (without --images)";
                    default ->
                        "the image A/B could not tell: " + words + " from " + from + " to " + to + " on "
                                + bad.shortId() + "; give it a larger --budget";
                };
        return new BisectReport(
                1,
                good,
                bad,
                commits,
                worst.map(c -> Series.of(c).words()),
                ending,
                answer,
                change,
                List.of(),
                List.of(),
                List.of(),
                Optional.of(new BisectReport.Images(
                        from, to, root.relativize(dir.resolve("compare.md")).toString())));
    }

    private static void measure(
            BisectRun.Request r, AbStep ab, Path matrix, String from, String to, Path dir, PrintStream console)
            throws IOException, InterruptedException {
        BisectSteps.Settings s = r.steps();
        Path before = pinned(matrix, from, s.cells(), "before");
        Path after = pinned(matrix, to, s.cells(), "after");
        Files.createDirectories(dir.getParent());
        Path logFile = dir.resolveSibling("images.log");
        console.printf(
                Locale.ROOT,
                "  A/B at a threshold of %.1f %%, budget %d s (log: %s)%n",
                100 * r.threshold(),
                s.budget().toSeconds(),
                logFile);
        List<String> args =
                AbStep.args(before, "image " + from, after, "image " + to, r.threshold(), s.budget(), s, dir);
        ab.runLogged(args, logFile);
    }

    /**
     * The matrix with this image in its JDK entries — those of the cells asked for (a cell's id starts with its JDK
     * entry's), else every entry that names an image — at the top level and in every profile.
     */
    @SuppressWarnings("unchecked")
    static Path pinned(Path matrix, String image, List<String> cells, String side) throws IOException {
        Object root = new Load(LoadSettings.builder().build())
                .loadFromString(Files.readString(matrix, StandardCharsets.UTF_8));
        if (!(root instanceof Map<?, ?> top)) {
            throw new IOException(matrix + " is not a matrix (its top is not a mapping)");
        }
        List<Object> jdkLists = new ArrayList<>();
        jdkLists.add(top.get("jdks"));
        if (top.get("profiles") instanceof Map<?, ?> profiles) {
            profiles.values().forEach(p -> {
                if (p instanceof Map<?, ?> profile) {
                    jdkLists.add(profile.get("jdks"));
                }
            });
        }
        for (Object list : jdkLists) {
            if (list instanceof List<?> jdks) {
                for (Object entry : jdks) {
                    if (entry instanceof Map<?, ?> jdk) {
                        String id = String.valueOf(jdk.get("id"));
                        boolean wanted = cells.isEmpty()
                                ? jdk.containsKey("image")
                                : cells.stream().anyMatch(c -> c.startsWith(id + "."));
                        if (wanted) {
                            ((Map<String, Object>) jdk).put("image", image);
                        }
                    }
                }
            }
        }
        Path file = matrix.resolveSibling(".loom-matrix-image-" + side + ".yaml");
        Files.writeString(file, new Dump(DumpSettings.builder().build()).dumpToString(root), StandardCharsets.UTF_8);
        return file;
    }
}
