package dev.loommatrix.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.matrix.Problem;
import dev.loommatrix.core.testing.JmhJars;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #32: a jar whose classes need a newer Java than a JDK entry (class file 69 on JDK 21) is caught when the
 * matrix is planned, at the workload's entry, naming the cells — not when their JVMs fail.
 */
class ClassFileCheckTest {

    @TempDir
    Path dir;

    /** A class file's header as javac writes it (JVMS §4.1: magic, minor, major), then a body the check never reads. */
    static byte[] classFile(int major) {
        return new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE, 0, 0, 0, (byte) major, 0, 42};
    }

    static void put(JarOutputStream jar, String name, byte[] bytes) throws Exception {
        jar.putNextEntry(new JarEntry(name));
        jar.write(bytes);
        jar.closeEntry();
    }

    List<Problem> problems(String workloads) throws Exception {
        Path file = Files.writeString(
                dir.resolve("m.yaml"),
                """
                schema: 1
                jdks:
                  - {id: t21, vm: hotspot, version: 21, image: "eclipse-temurin:21-jdk"}
                  - {id: t25, vm: hotspot, version: 25, image: "eclipse-temurin:25-jdk"}
                cpus: [1, 2]
                """
                        + workloads);
        return ClassFileCheck.problems(Planner.plan(MatrixParser.parse(file, Optional.empty())));
    }

    @Test
    void aProgramBuiltForJava25CannotRunOnTheJdk21EntrysCells() throws Exception {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "app.Main");
        try (OutputStream out = Files.newOutputStream(dir.resolve("app.jar"));
                JarOutputStream jar = new JarOutputStream(out, manifest)) {
            put(jar, "app/Main.class", classFile(69));
        }
        String program =
                """
                workloads:
                  - id: load
                    program: {jar: app.jar}
                    variants: {virtual: {properties: {threads: virtual}}}
                """;
        assertThat(problems(program)).singleElement().satisfies(p -> {
            assertThat(p.line()).isEqualTo(8); // its "program:" key
            assertThat(p.column()).isEqualTo(5);
            assertThat(p.message())
                    .isEqualTo("workload 'load' needs Java 25 (app.Main in app.jar is class file 69), but jdk 't21' is"
                            + " Java 21: 2 cells cannot run it (t21.linux.cpus-1.par-auto.max-auto.minr-auto.load,"
                            + " t21.linux.cpus-2.par-auto.max-auto.minr-auto.load)");
            assertThat(p.hint())
                    .hasValue("compile for the oldest JDK it runs on (javac --release 21, Maven's"
                            + " maven.compiler.release), or leave the pair out: exclude: [{jdk: t21, workload: load}]");
        });
        // the pair left out: nothing to say
        assertThat(problems(program + "exclude: [{jdk: t21, workload: load}]\n"))
                .isEmpty();
    }

    @Test
    void aJmhSuiteIsJudgedByItsBenchmarkClassesNotJmhsOwn() throws Exception {
        byte[] list;
        try (var in = ClassFileCheckTest.class.getResourceAsStream("/fixtures/jmh/BenchmarkList")) {
            list = in.readAllBytes();
        }
        try (OutputStream out = Files.newOutputStream(dir.resolve("benchmarks.jar"));
                JarOutputStream jar = new JarOutputStream(out)) {
            put(jar, "org/openjdk/jmh/Main.class", classFile(52)); // JMH itself: Java 8
            put(jar, "META-INF/BenchmarkList", list);
            put(jar, "example/blocking/BlockingServiceBenchmark.class", classFile(69));
        }
        String jmh =
                """
                workloads:
                  - id: blocking
                    jmh:
                      jar: benchmarks.jar
                      include: ['threadsByParam$']
                    variants: {virtual: {params: {threadType: VIRTUAL}}}
                """;
        assertThat(problems(jmh)).singleElement().satisfies(p -> assertThat(p.message())
                .startsWith("workload 'blocking' needs Java 25 (example.blocking.BlockingServiceBenchmark in"
                        + " benchmarks.jar is class file 69), but jdk 't21' is Java 21"));
        // built for Java 21: every cell can run it
        try (OutputStream out = Files.newOutputStream(dir.resolve("benchmarks.jar"));
                JarOutputStream jar = new JarOutputStream(out)) {
            put(jar, "org/openjdk/jmh/Main.class", classFile(52));
            put(jar, "META-INF/BenchmarkList", list);
            put(jar, "example/blocking/BlockingServiceBenchmark.class", classFile(65));
        }
        assertThat(problems(jmh)).isEmpty();
        JmhJars.blockingExample(dir); // a jar without the class: nothing is guessed
        assertThat(problems(jmh)).isEmpty();
    }

    @Test
    void aSpringBootJarIsJudgedByItsStartClass() throws Exception {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes()
                .put(Attributes.Name.MAIN_CLASS, "org.springframework.boot.loader.launch.JarLauncher");
        manifest.getMainAttributes().putValue("Start-Class", "com.example.App");
        try (OutputStream out = Files.newOutputStream(dir.resolve("app.jar"));
                JarOutputStream jar = new JarOutputStream(out, manifest)) {
            put(jar, "org/springframework/boot/loader/launch/JarLauncher.class", classFile(61)); // Java 17
            put(jar, "BOOT-INF/classes/com/example/App.class", classFile(69));
        }
        assertThat(
                        problems(
                                """
                        workloads:
                          - id: app
                            program: {jar: app.jar}
                            variants: {virtual: {properties: {threads: virtual}}}
                        """))
                .singleElement()
                .satisfies(p ->
                        assertThat(p.message()).startsWith("workload 'app' needs Java 25 (com.example.App in app.jar"));
    }

    @Test
    void theHeaderIsReadFromARealClassFile() throws Exception {
        // this class, compiled by the build (maven.compiler.release 21)
        try (var in = ClassFileCheckTest.class.getResourceAsStream("ClassFileCheckTest.class")) {
            assertThat(dev.loommatrix.core.matrix.ClassFiles.major(in)).hasValue(65);
        }
    }
}
