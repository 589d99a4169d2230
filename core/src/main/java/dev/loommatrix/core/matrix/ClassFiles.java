package dev.loommatrix.core.matrix;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarFile;

/**
 * The Java version a user workload's own classes need, read from their class files' headers without running them
 * (issue #32: a jar built for Java 25 — class file 69 — ran on a JDK 21 entry and failed at run time). Only the
 * classes the workload starts are read: a JMH suite's benchmark classes (from its BenchmarkList), a program's or
 * service's main class (the entry's {@code mainClass}, else the jar's {@code Start-Class} — Spring Boot's
 * application under {@code BOOT-INF/classes/} — else its {@code Main-Class}). Libraries inside an uber-jar may be
 * older; a newer one would fail only where it is used, and is not guessed at here.
 */
public final class ClassFiles {

    /**
     * What a workload's classes need.
     *
     * @param java the oldest Java that loads them (class file major − 44)
     * @param className the newest of the classes read
     * @param where the workload's artifact in the matrix file, for the problem said when a JDK is older
     */
    public record Needs(int java, int major, String className, Path file, Problem.Where where) {}

    private ClassFiles() {}

    /** Class file majors start at 45 (Java 1.1); 44 + the feature version since Java 5 (49). */
    static final int JAVA_OFFSET = 44;

    static Optional<Needs> of(UserWorkload.Artifact artifact, Problem.Where where) {
        try {
            return switch (artifact) {
                case UserWorkload.Jmh jmh ->
                    newest(
                            List.of(jmh.jar()),
                            jmh.benchmarks().stream()
                                    .map(b -> b.substring(0, Math.max(0, b.lastIndexOf('.'))))
                                    .distinct()
                                    .toList(),
                            where);
                case UserWorkload.Program p -> main(p.jar(), p.classpath(), p.mainClass(), where);
                case UserWorkload.Service s -> main(s.jar(), s.classpath(), s.mainClass(), where);
            };
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // unreadable here: the cell says what the JVM made of it
        }
    }

    private static Optional<Needs> main(
            Optional<Path> jar, List<Path> classpath, Optional<String> mainClass, Problem.Where where)
            throws IOException {
        if (jar.isPresent()) {
            String main = mainClass.orElse(null);
            List<String> prefixes = List.of("");
            if (main == null) {
                try (JarFile file = new JarFile(jar.get().toFile())) {
                    var manifest = file.getManifest();
                    var attributes = manifest == null ? null : manifest.getMainAttributes();
                    String start = attributes == null ? null : attributes.getValue("Start-Class");
                    main = start != null ? start : attributes == null ? null : attributes.getValue("Main-Class");
                    prefixes = start != null ? List.of("BOOT-INF/classes/", "") : List.of("");
                }
            }
            if (main == null) {
                return Optional.empty();
            }
            String name = main;
            return read(jar.get(), name, prefixes).map(major -> needs(major, name, jar.get(), where));
        }
        if (mainClass.isEmpty()) {
            return Optional.empty();
        }
        return newest(classpath, List.of(mainClass.get()), where);
    }

    /** The newest of these classes, found in the first classpath entry (jar or directory) that holds each. */
    private static Optional<Needs> newest(List<Path> classpath, List<String> classes, Problem.Where where)
            throws IOException {
        Needs best = null;
        for (String name : classes) {
            for (Path entry : classpath) {
                Optional<Integer> major = Files.isDirectory(entry)
                        ? readDirectory(entry, name)
                        : Files.isRegularFile(entry) ? read(entry, name, List.of("")) : Optional.empty();
                if (major.isPresent()) {
                    if (best == null || major.get() > best.major()) {
                        best = needs(major.get(), name, entry, where);
                    }
                    break;
                }
            }
        }
        return Optional.ofNullable(best);
    }

    private static Needs needs(int major, String className, Path file, Problem.Where where) {
        return new Needs(major - JAVA_OFFSET, major, className, file, where);
    }

    private static Optional<Integer> readDirectory(Path dir, String className) throws IOException {
        Path file = dir.resolve(className.replace('.', '/') + ".class");
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try (InputStream in = Files.newInputStream(file)) {
            return major(in);
        }
    }

    private static Optional<Integer> read(Path jar, String className, List<String> prefixes) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            for (String prefix : prefixes) {
                var entry = file.getEntry(prefix + className.replace('.', '/') + ".class");
                if (entry != null) {
                    try (InputStream in = file.getInputStream(entry)) {
                        return major(in);
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** {@code 0xCAFEBABE}, minor, major: the first 8 bytes of every class file (JVMS §4.1). */
    public static Optional<Integer> major(InputStream in) throws IOException {
        byte[] head = in.readNBytes(8);
        if (head.length < 8
                || (head[0] & 0xff) != 0xca
                || (head[1] & 0xff) != 0xfe
                || (head[2] & 0xff) != 0xba
                || (head[3] & 0xff) != 0xbe) {
            return Optional.empty();
        }
        return Optional.of(((head[6] & 0xff) << 8) | (head[7] & 0xff));
    }
}
