package dev.loommatrix.runner.backend;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.Profile;
import dev.loommatrix.runner.explain.JfrSummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The extra, untimed JVM run each variant gets after its timed repetitions when the cell profiles (issue #20):
 * the same command with a JFR recording on, writing its own records file — so nothing it does is among the
 * timed samples — and what the runner makes of its recording.
 */
public final class ProfileRun {

    private ProfileRun() {}

    /** The recording of a variant's profiling run, in the cell's raw output. */
    public static String jfrFile(String variant) {
        return HarnessCommand.slug(variant) + ".profile.jfr";
    }

    /** Its own records file: the harness's record of the profiling run, never read as a sample. */
    static String recordsFile(String variant) {
        return HarnessCommand.slug(variant) + ".profile.records.jsonl";
    }

    /** Where the profiling run's exit code goes when it fails (the container's script writes it). */
    static String failedFile(String variant) {
        return HarnessCommand.slug(variant) + ".profile.failed";
    }

    /**
     * HotSpot's profile settings, plus every virtual-thread pin whatever its length (the default threshold is 20
     * ms), written when the JVM exits.
     */
    static List<String> jfrArgs(String file) {
        return List.of("-XX:StartFlightRecording:filename=" + file
                + ",settings=profile,dumponexit=true,jdk.VirtualThreadPinned#threshold=0ms");
    }

    /** The variant's harness command with JFR on and its own records file. */
    static List<String> command(
            String java, String harnessJar, Cell cell, String variant, String outDir, List<String> backendArgs) {
        List<String> args = new ArrayList<>(backendArgs);
        args.addAll(jfrArgs(outDir + "/" + jfrFile(variant)));
        return HarnessCommand.command(java, harnessJar, cell, variant, outDir + "/" + recordsFile(variant), args);
    }

    /**
     * What each variant's profiling run left in {@code rawDir}: its recording summarized, or why there is none
     * (the JVM refused the flag, the variant failed before it, the recording could not be read).
     */
    public static List<Profile> read(Cell cell, Path rawDir, List<String> variantOrder) {
        if (!cell.profiling().jfr() || cell.workload().user().isPresent()) {
            return List.of();
        }
        List<Profile> out = new ArrayList<>();
        for (String variant : variantOrder) {
            Path jfr = rawDir.resolve(jfrFile(variant));
            Path failed = rawDir.resolve(failedFile(variant));
            if (Files.isRegularFile(jfr)) {
                try {
                    out.add(new Profile(
                            variant,
                            Optional.of(jfrFile(variant)),
                            Optional.empty(),
                            Optional.of(JfrSummary.read(jfr))));
                } catch (IOException | RuntimeException e) {
                    out.add(Profile.missing(variant, "the JFR recording could not be read: " + e.getMessage()));
                }
            } else if (Files.isRegularFile(failed)) {
                out.add(Profile.missing(variant, "the profiling run failed: " + firstLine(failed)));
            } else {
                out.add(Profile.missing(variant, "no profiling run: the variant's timed runs did not complete"));
            }
        }
        return out;
    }

    private static String firstLine(Path file) {
        try {
            return Files.readAllLines(file).stream()
                    .filter(l -> !l.isBlank())
                    .findFirst()
                    .orElse("(no message)")
                    .strip();
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }
}
