package dev.loommatrix.runner.init;

import dev.loommatrix.core.matrix.JmhJar;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What {@code loom-matrix init} finds in a team's repository and the starter matrix it writes for it (issue #29):
 * a JMH suite built by Maven (the archetype's shade set-up) or Gradle (the JMH plugin's jmhJar), or a runnable
 * jar, each with virtual and platform variants to fill in; with nothing of the kind, the built-in workloads.
 */
public final class Starter {

    /** What the repository holds, as far as loom-matrix cares. */
    public sealed interface Project {
        /** How it is built, for the next steps; empty when init cannot tell. */
        Optional<String> build();
    }

    /**
     * A JMH suite.
     *
     * @param tool the build tool that makes it ("Maven", "Gradle"); empty for a jar already there
     * @param jar its uber-jar, relative to the repository
     * @param benchmarks what the jar lists, once it is built (empty before)
     */
    public record Jmh(String tool, String jar, Optional<String> build, List<JmhJar.Benchmark> benchmarks)
            implements Project {}

    /** A runnable jar (its manifest names a Main-Class). */
    public record Program(String jar, Optional<String> build) implements Project {}

    /** Nothing init recognizes: the built-in workloads, and a commented entry to copy. */
    public record Nothing() implements Project {
        @Override
        public Optional<String> build() {
            return Optional.empty();
        }
    }

    private Starter() {}

    private static final Pattern FINAL_NAME = Pattern.compile("<finalName>\\s*([^<\\s]+)\\s*</finalName>");
    private static final Pattern ARTIFACT_ID = Pattern.compile("<artifactId>\\s*([^<\\s]+)\\s*</artifactId>");

    /** Looks at {@code dir}; {@code jar}, when given, is the runnable jar the team names. */
    public static Project detect(Path dir, Optional<Path> jar) throws IOException {
        if (jar.isPresent()) {
            // a JMH uber-jar is a suite, whatever built it: its benchmarks and their @Params are in the jar
            return isJmh(jar.get())
                    ? new Jmh("", relative(dir, jar.get()), Optional.empty(), benchmarks(jar.get()))
                    : new Program(relative(dir, jar.get()), Optional.empty());
        }
        Optional<Project> built = builtJmh(dir);
        Path pom = dir.resolve("pom.xml");
        if (Files.isRegularFile(pom)) {
            String text = Files.readString(pom, StandardCharsets.UTF_8);
            String build = (Files.isRegularFile(dir.resolve("mvnw")) ? "./mvnw" : "mvn") + " -q package -DskipTests";
            if (text.contains("<artifactId>jmh-core</artifactId>")) {
                // the JMH archetype's shade plugin names the uber-jar benchmarks.jar (its finalName)
                Matcher m = FINAL_NAME.matcher(text);
                String name = m.find() ? m.group(1) : "benchmarks";
                String uber = "target/" + name + ".jar";
                return new Jmh("Maven", uber, Optional.of(build), benchmarks(dir.resolve(uber)));
            }
            if (built.isPresent()) {
                // a module's JMH suite (multi-module builds), or a jar the build downloads
                Jmh suite = (Jmh) built.get();
                return new Jmh("Maven", suite.jar(), Optional.of(build), suite.benchmarks());
            }
            return runnable(dir, "target")
                    .<Project>map(j -> new Program(j, Optional.of(build)))
                    .orElseGet(() -> new Program("target/" + artifactId(text) + ".jar", Optional.of(build)));
        }
        for (String script : List.of("build.gradle.kts", "build.gradle")) {
            Path gradle = dir.resolve(script);
            if (Files.isRegularFile(gradle)) {
                String text = Files.readString(gradle, StandardCharsets.UTF_8);
                String wrapper = Files.isRegularFile(dir.resolve("gradlew")) ? "./gradlew" : "gradle";
                if (text.contains("me.champeau.jmh")) {
                    // the JMH plugin's jmhJar task: build/libs/<project>-<version>-jmh.jar, or without a version
                    String uber = builtJmhJar(dir)
                            .orElse("build/libs/" + dir.toAbsolutePath().getFileName() + "-jmh.jar");
                    return new Jmh("Gradle", uber, Optional.of(wrapper + " jmhJar"), benchmarks(dir.resolve(uber)));
                }
                if (built.isPresent()) {
                    Jmh suite = (Jmh) built.get();
                    return new Jmh("Gradle", suite.jar(), Optional.of(wrapper + " jar"), suite.benchmarks());
                }
                return runnable(dir, "build/libs")
                        .<Project>map(j -> new Program(j, Optional.of(wrapper + " jar")))
                        .orElseGet(() -> new Program(
                                "build/libs/" + dir.toAbsolutePath().getFileName() + ".jar",
                                Optional.of(wrapper + " jar")));
            }
        }
        if (built.isPresent()) {
            return built.get();
        }
        return runnable(dir, "target")
                .or(() -> runnable(dir, "build/libs"))
                .<Project>map(j -> new Program(j, Optional.empty()))
                .orElseGet(Nothing::new);
    }

    /** How deep in the repository a built or downloaded JMH jar is looked for (module/target/benchmarks.jar: 3). */
    private static final int JMH_JAR_DEPTH = 4;

    /**
     * A JMH uber-jar already in the repository — built by any tool, in any module, or downloaded: the first (in
     * path order) whose manifest or entries are JMH's, outside version control's and build tools' own folders.
     */
    private static Optional<Project> builtJmh(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir, JMH_JAR_DEPTH)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".jar")
                            && !p.getFileName().toString().startsWith("original-")
                            && java.util.stream.StreamSupport.stream(
                                            dir.relativize(p).spliterator(), false)
                                    .noneMatch(part -> SKIPPED.contains(part.toString())))
                    .sorted()
                    .filter(Starter::isJmh)
                    .findFirst()
                    .map(p -> new Jmh("", relative(dir, p), Optional.empty(), benchmarks(p)));
        }
    }

    private static final java.util.Set<String> SKIPPED =
            java.util.Set.of(".git", ".mvn", ".gradle", "node_modules", ".loom-matrix", "results");

    /** Whether a jar is a JMH suite: JMH's launcher as its Main-Class, or the list JMH's annotation processor writes. */
    static boolean isJmh(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            String main = file.getManifest() == null
                    ? null
                    : file.getManifest().getMainAttributes().getValue("Main-Class");
            return "org.openjdk.jmh.Main".equals(main) || file.getEntry("META-INF/BenchmarkList") != null;
        } catch (IOException e) {
            return false;
        }
    }

    private static List<JmhJar.Benchmark> benchmarks(Path jar) {
        if (!Files.isRegularFile(jar)) {
            return List.of();
        }
        try {
            return JmhJar.read(jar).benchmarks();
        } catch (JmhJar.NotUsable e) {
            return List.of();
        }
    }

    private static Optional<String> builtJmhJar(Path dir) throws IOException {
        Path libs = dir.resolve("build/libs");
        if (!Files.isDirectory(libs)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(libs)) {
            return files.filter(p -> p.getFileName().toString().endsWith("-jmh.jar"))
                    .sorted()
                    .findFirst()
                    .map(p -> relative(dir, p));
        }
    }

    /** A built jar under {@code sub} whose manifest names a Main-Class (not sources, javadoc or shade's original). */
    private static Optional<String> runnable(Path dir, String sub) {
        Path where = dir.resolve(sub);
        if (!Files.isDirectory(where)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(where)) {
            return files.filter(p -> {
                        String n = p.getFileName().toString();
                        return n.endsWith(".jar")
                                && !n.startsWith("original-")
                                && !n.endsWith("-sources.jar")
                                && !n.endsWith("-javadoc.jar")
                                && !n.endsWith("-plain.jar");
                    })
                    .sorted()
                    .filter(Starter::hasMainClass)
                    .findFirst()
                    .map(p -> relative(dir, p));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static boolean hasMainClass(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            return file.getManifest() != null
                    && file.getManifest().getMainAttributes().getValue("Main-Class") != null;
        } catch (IOException e) {
            return false;
        }
    }

    /** The project's own artifactId: the first one outside its parent's block. */
    private static String artifactId(String pom) {
        Matcher m = ARTIFACT_ID.matcher(pom.replaceAll("(?s)<parent>.*?</parent>", ""));
        return m.find() ? m.group(1) : "app";
    }

    private static String relative(Path dir, Path file) {
        Path abs = file.toAbsolutePath().normalize();
        Path base = dir.toAbsolutePath().normalize();
        return (abs.startsWith(base) ? base.relativize(abs) : abs).toString().replace('\\', '/');
    }

    /** The starter matrix for the project: YAML with comments, ready to validate once the jar is built. */
    public static String matrix(Project project) {
        StringBuilder y = new StringBuilder();
        y.append("# loom-matrix: virtual vs platform threads for this repository's code across JDKs and CPU limits.\n");
        y.append("# Written by `loom-matrix init`; every key is in loom-matrix's docs/matrix-reference.md.\n");
        project.build().ifPresent(b -> y.append("# Build first: ").append(b).append('\n'));
        y.append("# Then: loom-matrix validate && loom-matrix run --profile quick\n");
        y.append("schema: 1\n\n");
        y.append("jdks:\n");
        for (int v : new int[] {21, 25}) {
            y.append("  - id: temurin-").append(v).append('\n');
            y.append("    vm: hotspot\n");
            y.append("    version: ").append(v).append('\n');
            y.append("    image: eclipse-temurin:").append(v).append("-jdk\n");
            y.append("    setup-java: {distribution: temurin, java-version: \"")
                    .append(v)
                    .append("\"}\n");
        }
        y.append("\ncpus: [1, 2]\n\nworkloads:\n");
        String quickWorkloads =
                switch (project) {
                    case Jmh jmh -> jmhWorkload(y, jmh);
                    case Program program -> programWorkload(y, program);
                    case Nothing nothing -> seedWorkloads(y);
                };
        y.append("\nrepetitions: 5\nwarmup: 0\ntimeout: 20m\nmemory: 1g\n\n");
        y.append("profiles:\n");
        y.append("  # A pull request's check, and a first try: fewer fresh JVMs, shorter iterations.\n");
        y.append("  quick:\n    repetitions: 3\n    cpus: [2]\n");
        if (!quickWorkloads.isEmpty()) {
            y.append("    workloads:\n").append(quickWorkloads);
        }
        // a Docker engine that cannot pull (no registry): the JDK images built on the host from its own packages
        y.append(
                "  # The quick profile where Docker cannot pull images: JDK images built on this host by the release's\n");
        y.append(
                "  # containers/offline/build-images.sh (local/debian-openjdk:21 and :25). loom-matrix run --profile offline\n");
        y.append("  offline:\n    repetitions: 3\n    cpus: [2]\n    jdks:\n");
        for (int v : new int[] {21, 25}) {
            y.append("      - {id: debian-")
                    .append(v)
                    .append(", vm: hotspot, version: ")
                    .append(v)
                    .append(", image: \"local/debian-openjdk:")
                    .append(v)
                    .append("\"}\n");
        }
        if (!quickWorkloads.isEmpty()) {
            y.append("    workloads:\n").append(quickWorkloads);
        }
        return y.toString();
    }

    /** The JMH suite's entry, appended to {@code y}; returns its lines in the quick profile. */
    private static String jmhWorkload(StringBuilder y, Jmh jmh) {
        String id = "benchmarks";
        y.append(jmh.tool().isEmpty() ? "  # The JMH uber-jar" : "  # " + jmh.tool() + "'s JMH uber-jar");
        if (jmh.benchmarks().isEmpty()) {
            y.append(" (not built yet: its benchmarks are listed here once it is)");
        } else {
            y.append(", ").append(jmh.benchmarks().size()).append(" benchmarks:");
            jmh.benchmarks().stream().limit(20).forEach(b -> y.append("\n  #   ")
                    .append(b.name()));
            if (jmh.benchmarks().size() > 20) {
                y.append("\n  #   … and ").append(jmh.benchmarks().size() - 20).append(" more");
            }
        }
        y.append('\n');
        Optional<String> param = StarterVariants.threadParam(jmh.benchmarks());
        // a variant's @Param switches only the benchmarks that declare it: the others would run alike in
        // every variant, so the entry selects those that do (issue #49)
        List<JmhJar.Benchmark> switched = param.map(p -> jmh.benchmarks().stream()
                        .filter(b -> b.params().contains(p))
                        .toList())
                .orElse(List.of());
        long unswitched = jmh.benchmarks().size() - switched.size();
        if (param.isPresent() && unswitched > 0) {
            y.append("  # ")
                    .append(unswitched)
                    .append(" of them without the @Param ")
                    .append(param.get())
                    .append(" are left out: it would not switch them. Add them in an entry whose\n")
                    .append("  # variants set a system property they read.\n");
        }
        y.append("  - id: ").append(id).append('\n');
        y.append("    jmh:\n");
        y.append("      jar: ").append(jmh.jar()).append('\n');
        y.append("      include: ")
                .append(
                        switched.isEmpty() || unswitched == 0
                                ? "['.*']"
                                : switched.stream()
                                        .map(b -> "'" + b.includePattern() + "'")
                                        .collect(java.util.stream.Collectors.joining(", ", "[", "]")))
                .append("          # regular expressions, as JMH takes them\n");
        y.append("      warmupIterations: 3\n      iterations: 5\n      warmupTime: 1s\n      time: 1s\n");
        y.append(StarterVariants.of(
                param,
                param.map(p -> StarterVariants.declaredValues(switched, p)).orElse(List.of())));
        return "      " + id + ": {jmh: {warmupIterations: 1, iterations: 3, warmupTime: 200ms, " + "time: 200ms}}\n";
    }

    /** The runnable jar's entry, appended to {@code y}; the quick profile takes it as it is. */
    private static String programWorkload(StringBuilder y, Program program) {
        String id = programId(program.jar());
        y.append("  # A program timed as a process; it may report its own numbers (loom-matrix's docs/your-code.md)\n");
        y.append("  - id: ").append(id).append('\n');
        y.append("    program:\n");
        y.append("      jar: ").append(program.jar()).append('\n');
        y.append("      args: []\n");
        y.append(StarterVariants.of(Optional.empty(), List.of()));
        return "";
    }

    /** Nothing recognized: the built-in seed workloads, appended to {@code y}; returns their quick-profile lines. */
    private static String seedWorkloads(StringBuilder y) {
        y.append("  # No JMH suite or runnable jar was found here: the built-in seed workloads to start with.\n");
        y.append("  # Your own code: a `jmh:` or `program:` entry (loom-matrix's docs/your-code.md).\n");
        y.append("  - id: sleep-bound\n    variants: [virtual, \"pool:200\"]\n");
        y.append("    params: {tasks: 10000, sleepMs: 300}\n");
        y.append("  - id: primes-io\n    variants: [virtual, \"pool:cpus\"]\n");
        return "      sleep-bound: {params: {tasks: 1000, sleepMs: 20}}\n"
                + "      primes-io: {params: {tasks: 200}}\n";
    }

    private static String programId(String jar) {
        String name = Path.of(jar).getFileName().toString().replaceFirst("\\.jar$", "");
        String id = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-").replaceAll("^-+|-+$", "");
        return id.isEmpty() || !Character.isLetter(id.charAt(0)) ? "program" : id;
    }

    /** What to do next, in order, for the project found. */
    public static List<String> nextSteps(Project project, boolean wroteMatrix, boolean wroteWorkflows) {
        List<String> steps = new ArrayList<>();
        project.build().ifPresent(b -> steps.add("build: " + b));
        if (!(project instanceof Nothing) && !StarterVariants.known(project)) {
            steps.add(
                    "fill in the variants in matrix.yaml: what switches your code between virtual and platform threads");
        }
        steps.add("loom-matrix validate, then loom-matrix run --profile quick (cells in containers where a Docker"
                + " engine answers, else on this host's JDKs); a Docker engine that cannot pull images: --profile"
                + " offline, after containers/offline/build-images.sh of the release builds its JDK images");
        steps.add("loom-matrix publish --run results/<run-id> --site site && loom-matrix serve site");
        if (wroteWorkflows) {
            steps.add("commit matrix.yaml and .github/workflows/benchmarks*.yml; on GitHub, Settings > Pages > Source:"
                    + " GitHub Actions (the nightly publishes there) and, for Grafana, the secret LOOM_POSTGRES_URL");
            steps.add("pull requests then get a verdict comment; it runs their code, so keep it on GitHub-hosted"
                    + " runners in a public repository (loom-matrix's docs/adopting.md)");
        }
        if (!wroteMatrix) {
            steps.add(
                    0,
                    "matrix.yaml was already here and is left as it was; `loom-matrix init --dir NEW_DIR` writes"
                            + " a starter elsewhere to compare");
        }
        return steps;
    }
}
