package dev.loommatrix.runner.cli;

import dev.loommatrix.runner.backend.container.EnginePrune;
import dev.loommatrix.runner.prune.AbandonedRuns;
import dev.loommatrix.runner.prune.Housekeeping;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Housekeeping (issue #32): what runs leave on a machine that measures every night — a cell image for every new build
 * of a user's artifact, containers a killed runner left, run directories that will never finish — removed by a
 * policy, so a self-hosted runner's disk stays bounded without anyone cleaning by hand. Never waits for a run, never
 * touches what a live one may use.
 */
@Command(
        name = "prune",
        description = "Remove what runs left behind: loom-matrix images none of the newest runs used, stopped"
                + " loom-matrix containers and their networks, and run directories abandoned unfinished. Says what it"
                + " freed; leaves alone whatever a run measuring now may use.")
final class PruneCommand implements Callable<Integer> {

    @Option(
            names = "--keep-runs",
            paramLabel = "N",
            defaultValue = "5",
            description = "Keep the images the newest N runs on this Docker engine used (default: ${DEFAULT-VALUE}).")
    int keepRuns;

    @Option(
            names = "--results",
            paramLabel = "DIR",
            defaultValue = "results",
            description = "Where run directories are (default: ${DEFAULT-VALUE}); abandoned ones under it are removed.")
    Path results;

    @Option(
            names = "--abandoned-after",
            paramLabel = "DURATION",
            defaultValue = "168h",
            description = "An unfinished run directory untouched this long is abandoned (default: ${DEFAULT-VALUE},"
                    + " a week; until then run --resume can continue it).")
    String abandonedAfter;

    @Option(names = "--dry-run", description = "Say what would be removed; remove nothing.")
    boolean dryRun;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (keepRuns < 1) {
            throw new LoomMatrix.UsageException(
                    "--keep-runs must be at least 1 (the newest run's images), got " + keepRuns);
        }
        Duration age = age(abandonedAfter);
        Housekeeping.Report report =
                Housekeeping.prune(new Housekeeping.Policy(keepRuns, results, age, dryRun), Instant.now());
        PrintWriter out = spec.commandLine().getOut();
        String verb = dryRun ? "would remove" : "removed";
        report.measuringNow().ifPresent(words -> out.println("a run is measuring on this host: " + words));
        if (report.engine().isEmpty()) {
            out.println("images and containers: no Docker engine answers (DOCKER_HOST, the local socket); nothing"
                    + " to prune there");
        } else {
            EnginePrune.Report engine = report.engine().get();
            list(out, verb + " container", engine.removedContainers(), false);
            list(out, "left container", engine.leftContainers(), false);
            list(out, verb + " network", engine.removedNetworks(), false);
            list(out, verb + " image", engine.removedImages(), true);
            if (engine.imagesLeftAlone().isPresent()) {
                out.println("kept every image (" + engine.keptImages().size() + "): "
                        + engine.imagesLeftAlone().get());
            } else {
                list(out, "kept image", engine.keptImages(), true);
            }
        }
        for (AbandonedRuns.Abandoned run : report.abandonedRuns()) {
            out.println(verb + " run directory " + run.dir() + " (run " + run.runId() + ", "
                    + run.status().word() + ", last written " + run.lastWritten() + ", " + size(run.bytes()) + ")");
        }
        out.println((dryRun ? "would free " : "freed ") + size(report.freedBytes()) + " (images: their own layers; run"
                + " directories: their files)");
        out.flush();
        return ExitCode.OK.code;
    }

    private static void list(PrintWriter out, String what, List<EnginePrune.Item> items, boolean sized) {
        for (EnginePrune.Item item : items) {
            out.println(what + " " + item.name() + (sized ? " (" + size(item.bytes()) + ")" : "") + ": " + item.why());
        }
    }

    static String size(long bytes) {
        if (bytes < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
        }
        if (bytes < 1024L * 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
        }
        return String.format(Locale.ROOT, "%.2f GiB", bytes / (1024.0 * 1024 * 1024));
    }

    private static Duration age(String text) {
        java.util.OptionalLong millis = dev.loommatrix.core.matrix.Durations.millis(text);
        if (millis.isEmpty()) {
            throw new LoomMatrix.UsageException("--abandoned-after '" + text
                    + "' is not a duration: write a positive number with a unit, e.g. 168h (a week), "
                    + dev.loommatrix.core.matrix.Durations.EXAMPLES);
        }
        return Duration.ofMillis(millis.getAsLong());
    }
}
