package dev.loommatrix.runner.ab;

import dev.loommatrix.core.compare.CompareReport;
import dev.loommatrix.core.matrix.JdkEntry;
import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.plan.Cell;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

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
                    "parameters differ: " + new TreeMap<>(b.workload().params()) + " → "
                            + new TreeMap<>(c.workload().params()));
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

    /**
     * The first 12 hex digits of a fingerprint of a file (a jar's by what a JVM loads from it, {@link #jarDigest}),
     * or of a directory's files in path order.
     */
    static String sha(Path path) throws IOException {
        return shaOf(List.of(path));
    }

    private static String shaOf(List<Path> paths) throws IOException {
        MessageDigest digest = sha256();
        for (Path path : paths) {
            if (Files.isDirectory(path)) {
                List<Path> files;
                try (Stream<Path> walk = Files.walk(path)) {
                    files = walk.filter(Files::isRegularFile).sorted().toList();
                }
                for (Path f : files) {
                    digest.update(path.relativize(f).toString().getBytes(StandardCharsets.UTF_8));
                    digest.update(Files.readAllBytes(f));
                }
            } else if (Files.isRegularFile(path)) {
                digest.update(isJar(path.getFileName().toString()) ? jarDigest(path) : Files.readAllBytes(path));
            }
        }
        return HexFormat.of().formatHex(digest.digest()).substring(0, 12);
    }

    private static boolean isJar(String name) {
        return name.toLowerCase(Locale.ROOT).endsWith(".jar");
    }

    /**
     * A jar as a JVM loads it: its entries' names and uncompressed contents, sorted by name — not the zip's bytes,
     * which also hold each entry's time, the entries' order and their compression. Two builds of one commit of the
     * JMH example, without {@code project.build.outputTimestamp}, differed in 22 entries' times and in nothing a JVM
     * reads ("The sides differ in: artifact of blocking-by-param 2a1fe0dd8f11 → 9931e58c2a3c" on an A/A run). A jar
     * inside it (Spring Boot's {@code BOOT-INF/lib/}) is taken the same way. Left out is only what a build stamps
     * and nothing reads: the comments of {@code META-INF/maven/**}{@code /pom.properties} (and the order of its
     * lines), where older Maven archivers wrote each build's date (MSHARED-494), as the jmh-core jar shaded into
     * the example still shows ("#Thu Aug 03 14:12:03 CEST 2023"); today's jar plugin writes none. {@link
     * Properties} never reads a comment, so that file is taken as its properties, sorted. The manifest is kept
     * whole: a JVM reads it (Main-Class, Class-Path, Add-Opens). A file that is not a zip is taken as its bytes.
     */
    static byte[] jarDigest(Path jar) throws IOException {
        Map<String, byte[]> entries = new TreeMap<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (ZipEntry entry : Collections.list(zip.entries())) {
                try (InputStream in = zip.getInputStream(entry)) {
                    entries.putIfAbsent(entry.getName(), entryDigest(entry.getName(), in.readAllBytes()));
                }
            }
        } catch (ZipException notAZip) {
            return Files.readAllBytes(jar);
        }
        return digestOf(entries);
    }

    /** A jar inside a jar, by its entries as {@link #jarDigest}; its bytes when they are not a zip. */
    private static byte[] nestedJarDigest(byte[] bytes) throws IOException {
        Map<String, byte[]> entries = new TreeMap<>();
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(bytes))) {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                entries.putIfAbsent(entry.getName(), entryDigest(entry.getName(), zip.readAllBytes()));
            }
        } catch (ZipException notAZip) {
            return sha256().digest(bytes);
        }
        return entries.isEmpty() ? sha256().digest(bytes) : digestOf(entries);
    }

    private static byte[] entryDigest(String name, byte[] content) throws IOException {
        if (isJar(name)) {
            return nestedJarDigest(content);
        }
        if (name.startsWith("META-INF/maven/") && name.endsWith("/pom.properties")) {
            return propertiesDigest(content);
        }
        return sha256().digest(content);
    }

    /** A properties file as {@link Properties} reads it: its keys and values, sorted (its comments are not read). */
    private static byte[] propertiesDigest(byte[] content) throws IOException {
        Properties properties = new Properties();
        try {
            properties.load(new ByteArrayInputStream(content));
        } catch (IllegalArgumentException malformed) {
            return sha256().digest(content);
        }
        MessageDigest digest = sha256();
        new TreeMap<>(properties).forEach((key, value) -> {
            digest.update((key + "=" + value + "\n").getBytes(StandardCharsets.UTF_8));
        });
        return digest.digest();
    }

    /** Names and their contents' digests, in the map's order. */
    private static byte[] digestOf(Map<String, byte[]> entries) {
        MessageDigest digest = sha256();
        entries.forEach((name, content) -> {
            digest.update(name.getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
            digest.update(content);
        });
        return digest.digest();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
