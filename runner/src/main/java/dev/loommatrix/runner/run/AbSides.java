package dev.loommatrix.runner.run;

import dev.loommatrix.core.compare.CompareReport;
import dev.loommatrix.core.matrix.JdkEntry;
import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.plan.Cell;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The two sides of an A/B run, cell by cell: which cells both sides plan alike (and so are measured), which
 * are measured differently (listed as not comparable, with why, and not run), and what the sides differ in
 * — the things an A/B run is for: another build of the harness, of the user's artifacts, another JDK.
 */
public final class AbSides {

    /** A cell both sides have and define alike: measured, block by block. */
    public record Pair(Cell baseline, Cell candidate) {}

    /**
     * @param pairs the cells to measure, in the candidate's plan order
     * @param notComparable cells both sides have but define differently (parameters, variants, options)
     * @param onlyBaseline cells only the baseline plans
     * @param onlyCandidate cells only the candidate plans
     * @param differences what the sides differ in, deduplicated, for the report (empty: an A/A run)
     */
    public record Matched(
            List<Pair> pairs,
            List<CompareReport.NotComparable> notComparable,
            List<String> onlyBaseline,
            List<String> onlyCandidate,
            List<String> differences) {}

    private AbSides() {}

    public static Matched match(
            List<Cell> baseline, List<Cell> candidate, Optional<Path> baselineHarness, Optional<Path> candidateHarness)
            throws IOException {
        Map<String, Cell> before = new LinkedHashMap<>();
        baseline.forEach(c -> before.put(c.id(), c));
        Set<String> afterIds = new LinkedHashSet<>();
        candidate.forEach(c -> afterIds.add(c.id()));
        List<Pair> pairs = new ArrayList<>();
        List<CompareReport.NotComparable> unlike = new ArrayList<>();
        Set<String> differences = new LinkedHashSet<>();
        String harnessBefore = baselineHarness.isPresent() ? sha(baselineHarness.get()) : "this runner's";
        String harnessAfter = candidateHarness.isPresent() ? sha(candidateHarness.get()) : "this runner's";
        if (!harnessBefore.equals(harnessAfter)) {
            differences.add("harness " + harnessBefore + " → " + harnessAfter);
        }
        for (Cell c : candidate) {
            Cell b = before.get(c.id());
            if (b == null) {
                continue;
            }
            Optional<String> why = unlikeness(b, c);
            if (why.isPresent()) {
                unlike.add(new CompareReport.NotComparable(c.id(), "every variant", why.get()));
                continue;
            }
            pairs.add(new Pair(b, c));
            differences.addAll(differences(b, c));
        }
        List<String> onlyBaseline =
                before.keySet().stream().filter(id -> !afterIds.contains(id)).toList();
        List<String> onlyCandidate =
                afterIds.stream().filter(id -> !before.containsKey(id)).toList();
        return new Matched(pairs, unlike, onlyBaseline, onlyCandidate, List.copyOf(differences));
    }

    /**
     * Why the two sides' definitions of one cell do not measure the same thing, if they do not. The JDK
     * entry, the harness and the user's artifact files may differ — that is what an A/B run compares; the
     * workload's parameters, its variants and their settings, a JMH suite's options or a program's
     * arguments, and the cell's own JVM arguments, environment and limits may not.
     */
    static Optional<String> unlikeness(Cell b, Cell c) {
        if (!b.workload().variants().equals(c.workload().variants())) {
            return Optional.of("variants differ: " + b.workload().variants() + " → "
                    + c.workload().variants());
        }
        if (!b.workload().params().equals(c.workload().params())) {
            return Optional.of(
                    "parameters differ: " + new java.util.TreeMap<>(b.workload().params()) + " → "
                            + new java.util.TreeMap<>(c.workload().params()));
        }
        if (!b.jvmArgs().equals(c.jvmArgs()) || !b.env().equals(c.env())) {
            return Optional.of("the cell's include jvmArgs/env differ: " + b.jvmArgs() + " " + b.env() + " → "
                    + c.jvmArgs() + " " + c.env());
        }
        if (b.memoryBytes() != c.memoryBytes() || b.pids() != c.pids()) {
            return Optional.of("limits differ: memory " + b.memoryBytes() + " → " + c.memoryBytes() + ", pids "
                    + b.pids() + " → " + c.pids());
        }
        if (b.workload().user().isPresent() != c.workload().user().isPresent()) {
            return Optional.of("a built-in workload on one side, a user workload on the other");
        }
        if (b.workload().user().isPresent()) {
            UserWorkload ub = b.workload().user().get();
            UserWorkload uc = c.workload().user().get();
            if (!ub.variants().equals(uc.variants())) {
                return Optional.of("variant definitions differ: " + ub.variants() + " → " + uc.variants());
            }
            if (!ub.baseline().equals(uc.baseline())) {
                return Optional.of("baseline variant differs: " + ub.baseline() + " → " + uc.baseline());
            }
            Object rb = role(ub.artifact());
            Object rc = role(uc.artifact());
            if (!rb.equals(rc)) {
                return Optional.of("the artifact's role differs: " + rb + " → " + rc);
            }
        }
        return Optional.empty();
    }

    /**
     * What a user artifact is apart from its files' contents: how it is run. For JMH, the options (the
     * benchmarks the jar lists may differ: one side's extra benchmarks are compared on one side only);
     * for a program, how it starts and what it reports.
     */
    static Object role(UserWorkload.Artifact artifact) {
        return switch (artifact) {
            case UserWorkload.Jmh j ->
                List.of(
                        "jmh",
                        j.include(),
                        j.exclude(),
                        j.params(),
                        j.mode(),
                        j.timeUnit(),
                        j.warmupIterations(),
                        j.iterations(),
                        j.warmupTime(),
                        j.time(),
                        j.threads(),
                        j.forks(),
                        j.profilers());
            case UserWorkload.Program p ->
                List.of(
                        "program",
                        p.jar().isPresent()
                                ? "jar"
                                : "classpath of " + p.classpath().size(),
                        p.mainClass(),
                        p.args(),
                        p.metrics());
            case UserWorkload.Service s ->
                List.of(
                        "service",
                        s.jar().isPresent()
                                ? "jar"
                                : "classpath of " + s.classpath().size(),
                        s.mainClass(),
                        s.args(),
                        s.env(),
                        s.port(),
                        s.ready(),
                        s.load());
        };
    }

    /** What differs between two alike definitions of a cell: its JDK entry, its user files' contents. */
    static List<String> differences(Cell b, Cell c) throws IOException {
        List<String> out = new ArrayList<>();
        JdkEntry jb = b.jdk();
        JdkEntry jc = c.jdk();
        if (!jb.equals(jc)) {
            List<String> what = new ArrayList<>();
            if (!jb.image().equals(jc.image())) {
                what.add("image " + jb.image().orElse("none") + " → "
                        + jc.image().orElse("none"));
            }
            if (!jb.javaHome().equals(jc.javaHome())) {
                what.add("javaHome " + jb.javaHome().orElse("none") + " → "
                        + jc.javaHome().orElse("none"));
            }
            if (!jb.setupJava().equals(jc.setupJava())) {
                what.add("setupJava " + jb.setupJava() + " → " + jc.setupJava());
            }
            if (!jb.jvmArgs().equals(jc.jvmArgs())) {
                what.add("jvmArgs " + jb.jvmArgs() + " → " + jc.jvmArgs());
            }
            if (!jb.env().equals(jc.env()) || !jb.javaToolOptions().equals(jc.javaToolOptions())) {
                what.add("environment");
            }
            out.add("jdk " + jc.id() + ": " + (what.isEmpty() ? "entry" : String.join(", ", what)));
        }
        if (b.workload().user().isPresent()) {
            String before = shaOf(b.workload().user().get().artifact().files());
            String after = shaOf(c.workload().user().get().artifact().files());
            if (!before.equals(after)) {
                out.add("artifact of " + c.workload().id() + " " + before + " → " + after);
            }
        }
        return out;
    }

    /** The first 12 hex digits of the SHA-256 of a file, or of a directory's files in path order. */
    static String sha(Path path) throws IOException {
        return shaOf(List.of(path));
    }

    private static String shaOf(List<Path> paths) throws IOException {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (Path path : paths) {
                if (Files.isDirectory(path)) {
                    List<Path> files;
                    try (Stream<Path> walk = Files.walk(path)) {
                        files = walk.filter(Files::isRegularFile).sorted().toList();
                    }
                    for (Path f : files) {
                        digest.update(path.relativize(f).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                        digest.update(Files.readAllBytes(f));
                    }
                } else if (Files.isRegularFile(path)) {
                    digest.update(Files.readAllBytes(path));
                }
            }
            return HexFormat.of().formatHex(digest.digest()).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
