package dev.loommatrix.runner.backend;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.Profile;
import dev.loommatrix.runner.records.CellFiles;
import dev.loommatrix.runner.records.JfrSummary;
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
        return CellFiles.slug(variant) + ".profile.jfr";
    }

    /** Its own records file: the harness's record of the profiling run, never read as a sample. */
    static String recordsFile(String variant) {
        return CellFiles.slug(variant) + ".profile.records.jsonl";
    }

    /** async-profiler's recording of the profiling run, and its own messages. */
    public static String flameFile(String variant) {
        return CellFiles.slug(variant) + ".flame.jfr";
    }

    static String flameLog(String variant) {
        return CellFiles.slug(variant) + ".flame.log";
    }

    /** Where the profiling run's exit code goes when it fails (the container's script writes it). */
    public static String failedFile(String variant) {
        return CellFiles.slug(variant) + ".profile.failed";
    }

    /**
     * HotSpot's profile settings, plus every virtual-thread pin whatever its length (the default threshold is 20
     * ms) and the CPU load every 100 ms (1 s by default: a short run would have none), written when the JVM exits.
     */
    static List<String> jfrArgs(String file) {
        return List.of("-XX:StartFlightRecording:filename=" + file
                + ",settings=profile,dumponexit=true,jdk.VirtualThreadPinned#threshold=0ms,jdk.CPULoad#period=100ms");
    }

    /**
     * OpenJ9's JFR takes only {@code filename}, {@code duration} and {@code delay}, and offers a limited set of
     * events (eclipse.dev/openj9/docs/xxstartflightrecording): a recording with its defaults, kept for JDK
     * Mission Control.
     */
    static List<String> openJ9JfrArgs(String file) {
        return List.of("-XX:StartFlightRecording=filename=" + file);
    }

    static boolean openJ9(Cell cell) {
        return cell.coordinates().vm().equals("openj9");
    }

    /**
     * The variant's harness command with its own records file, JFR on where the cell asks for it, and
     * async-profiler's agent (at {@code library}) where it asks for flame graphs.
     */
    public static List<String> command(
            String java,
            String harnessJar,
            Cell cell,
            String variant,
            String outDir,
            List<String> backendArgs,
            Optional<String> library) {
        List<String> args = new ArrayList<>(backendArgs);
        args.addAll(profilerArgs(cell, variant, outDir, library));
        return HarnessCommand.command(java, harnessJar, cell, variant, outDir + "/" + recordsFile(variant), args);
    }

    /** A user workload's profiling run: its own command with the same profilers (issue #20: users' code alike). */
    public static UserCommand.Launch userLaunch(
            Cell cell, String variant, UserCommand.Paths paths, List<String> backendArgs, Optional<String> library) {
        return UserCommand.profiling(
                cell, variant, paths, backendArgs, profilerArgs(cell, variant, paths.outDir(), library));
    }

    /** JFR's flags and async-profiler's agent, as the cell asks for them. */
    static List<String> profilerArgs(Cell cell, String variant, String outDir, Optional<String> library) {
        List<String> args = new ArrayList<>();
        if (cell.profiling().jfr()) {
            String file = outDir + "/" + jfrFile(variant);
            args.addAll(openJ9(cell) ? openJ9JfrArgs(file) : jfrArgs(file));
        }
        if (cell.profiling().flame() && library.isPresent()) {
            args.add(AsyncProfilerAgent.agentArg(
                    library.get(), outDir + "/" + flameFile(variant), outDir + "/" + flameLog(variant)));
        }
        return args;
    }

    /**
     * Whether the cell runs a profiling JVM per variant: when it profiles, for built-in workloads and users' own
     * alike — except a JMH suite that forks its own JVMs, whose recordings would overwrite one another.
     */
    public static boolean wanted(Cell cell) {
        return cell.profiling().any() && forkingJmh(cell).isEmpty();
    }

    /** A user's JMH entry that forks (forks: N > 0, or the suite's own): said in the profile instead. */
    static Optional<String> forkingJmh(Cell cell) {
        return cell.workload()
                .user()
                .map(u -> u.artifact())
                .filter(a -> a instanceof dev.loommatrix.core.matrix.UserWorkload.Jmh)
                .map(a -> (dev.loommatrix.core.matrix.UserWorkload.Jmh) a)
                .filter(j -> j.forks().isEmpty() || j.forks().getAsInt() > 0)
                .map(j -> "JMH forks its own JVMs here (forks: "
                        + (j.forks().isPresent() ? String.valueOf(j.forks().getAsInt()) : "the suite's @Fork")
                        + "), whose recordings would overwrite one another; profile with forks: 0");
    }

    /**
     * What each variant's profiling run left in {@code rawDir}: its recording summarized, or why there is none
     * (the JVM refused the flag, the variant failed before it, the recording could not be read).
     */
    public static List<Profile> read(Cell cell, Path rawDir, List<String> variantOrder) {
        return read(cell, rawDir, variantOrder, Optional.empty());
    }

    /**
     * @param noFlame why flame graphs cannot be made on this backend (no library for its OS or architecture),
     *     said in each variant's profile
     */
    public static List<Profile> read(Cell cell, Path rawDir, List<String> variantOrder, Optional<String> noFlame) {
        if (!cell.profiling().any()) {
            return List.of();
        }
        Optional<String> forking = forkingJmh(cell);
        if (forking.isPresent()) {
            return variantOrder.stream()
                    .map(v -> Profile.missing(v, forking.get()))
                    .toList();
        }
        List<Profile> out = new ArrayList<>();
        for (String variant : variantOrder) {
            Path failed = rawDir.resolve(failedFile(variant));
            Path jfr = rawDir.resolve(jfrFile(variant));
            Profile profile;
            if (!Files.isRegularFile(rawDir.resolve(recordsFile(variant)))
                    && !Files.isRegularFile(failed)
                    && !Files.isRegularFile(jfr)) {
                out.add(Profile.missing(variant, "no profiling run: the variant's timed runs did not complete"));
                continue;
            }
            if (!cell.profiling().jfr()) {
                profile = new Profile(variant, Optional.empty(), Optional.empty(), Optional.empty());
            } else if (Files.isRegularFile(jfr)) {
                try {
                    profile = new Profile(
                            variant,
                            Optional.of(jfrFile(variant)),
                            Optional.empty(),
                            Optional.of(JfrSummary.read(jfr)));
                } catch (IOException | RuntimeException e) {
                    profile = openJ9(cell)
                            ? new Profile(
                                    variant,
                                    Optional.of(jfrFile(variant)),
                                    Optional.of(
                                            "OpenJ9's JFR is limited (its recordings are for JDK Mission Control; no"
                                                    + " pinning, CPU-sample or contention summary from it here): the recording"
                                                    + " is kept (" + e.getMessage() + ")"),
                                    Optional.empty())
                            : Profile.missing(variant, "the JFR recording could not be read: " + e.getMessage());
                }
            } else if (Files.isRegularFile(failed)) {
                profile = Profile.missing(
                        variant,
                        "the profiling run failed: " + firstLine(failed)
                                + (openJ9(cell) ? " (this OpenJ9 may not support -XX:StartFlightRecording)" : ""));
            } else {
                profile = Profile.missing(variant, "the profiling run left no JFR recording (see the cell log)");
            }
            if (cell.profiling().flame()) {
                profile = withFlame(profile, rawDir, variant, noFlame);
            }
            out.add(profile);
        }
        return out;
    }

    private static Profile withFlame(Profile profile, Path rawDir, String variant, Optional<String> noFlame) {
        if (noFlame.isPresent()) {
            return profile.withFlame(Optional.empty(), noFlame);
        }
        Path recording = rawDir.resolve(flameFile(variant));
        if (!Files.isRegularFile(recording)) {
            Path log = rawDir.resolve(flameLog(variant));
            return profile.withFlame(
                    Optional.empty(),
                    Optional.of("async-profiler left no recording"
                            + (Files.isRegularFile(log) ? ": " + firstLine(log) : " (see the cell log)")));
        }
        try {
            return profile.withFlame(
                    // the variant alone: async-profiler's page centres its title between its toolbar and its credit,
                    // and a cell id there ran over both in a framed page (issue #54); the dashboard names the cell
                    Optional.of(dev.loommatrix.runner.records.FlameGraphs.make(
                            recording, CellFiles.slug(variant), variant)),
                    Optional.empty());
        } catch (IOException | RuntimeException e) {
            return profile.withFlame(
                    Optional.empty(), Optional.of("async-profiler's recording could not be read: " + e.getMessage()));
        }
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
