package dev.loommatrix.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.matrix.Matrix;
import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.testing.JmhJars;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loom-matrix init} in a team's repository (issue #29): what it finds, the starter matrix it writes — which
 * the matrix reader accepts once the jar is built — and that it never overwrites a file.
 */
class InitCommandTest {

    @TempDir
    Path repo;

    record Said(int code, String out, String err) {}

    Said init(String... more) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] args = new String[more.length + 3];
        args[0] = "init";
        args[1] = "--dir";
        args[2] = repo.toString();
        System.arraycopy(more, 0, args, 3, more.length);
        int code = LoomMatrix.mainWithoutExit(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Said(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static final String JMH_POM =
            """
            <project>
              <modelVersion>4.0.0</modelVersion>
              <groupId>com.example</groupId>
              <artifactId>orders-benchmarks</artifactId>
              <dependencies>
                <dependency><groupId>org.openjdk.jmh</groupId><artifactId>jmh-core</artifactId></dependency>
              </dependencies>
              <build><plugins><plugin><artifactId>maven-shade-plugin</artifactId>
                <configuration><finalName>benchmarks</finalName></configuration>
              </plugin></plugins></build>
            </project>
            """;

    @Test
    void aMavenJmhSuiteGetsAJmhEntryForItsUberJarWithItsBenchmarksAndItsThreadParam() throws Exception {
        Files.writeString(repo.resolve("pom.xml"), JMH_POM);
        Files.writeString(repo.resolve("mvnw"), "#!/bin/sh\n");
        Files.createDirectories(repo.resolve("target"));
        JmhJars.blockingExample(repo.resolve("target")); // the example's real BenchmarkList (JMH 1.37)

        Said said = init();
        assertThat(said.code()).as(said.err()).isZero();
        assertThat(said.out())
                .contains("found: a JMH suite built by Maven (target/benchmarks.jar, 2 benchmarks)")
                .contains("wrote: " + repo.resolve("matrix.yaml"))
                .contains("1. build: ./mvnw -q package -DskipTests")
                .contains("2. fill in the variants in matrix.yaml");
        String yaml = Files.readString(repo.resolve("matrix.yaml"));
        assertThat(yaml)
                .contains("example.blocking.BlockingServiceBenchmark.threadsByParam")
                // the suite's own @Param that names the thread kind is what the variants set
                .contains("virtual: {params: {threadType: VIRTUAL}}")
                .contains("platform: {params: {threadType: PLATFORM}}");
        // the reader accepts it as written, with the quick profile
        Matrix matrix = MatrixParser.parse(repo.resolve("matrix.yaml"), Optional.of("quick"));
        assertThat(matrix.workloads()).singleElement().satisfies(w -> {
            assertThat(w.user().orElseThrow().artifact()).isInstanceOf(UserWorkload.Jmh.class);
            assertThat(w.variants()).containsExactly("virtual", "platform");
        });
    }

    @Test
    void aSuiteNotBuiltYetIsNamedWhereItsBuildWillPutIt() throws Exception {
        Files.writeString(repo.resolve("pom.xml"), JMH_POM.replace("benchmarks</finalName>", "perf</finalName>"));
        Said said = init();
        assertThat(said.out())
                .contains("found: a JMH suite built by Maven (target/perf.jar, not built yet)")
                .contains("1. build: mvn -q package -DskipTests");
        assertThat(Files.readString(repo.resolve("matrix.yaml")))
                .contains("jar: target/perf.jar")
                .contains("virtual: {properties: {threads: virtual}}");
    }

    @Test
    void aGradleJmhPluginSuiteIsItsJmhJar() throws Exception {
        Files.writeString(repo.resolve("build.gradle.kts"), "plugins { id(\"me.champeau.jmh\") version \"0.7.3\" }\n");
        Files.writeString(repo.resolve("gradlew"), "#!/bin/sh\n");
        Files.createDirectories(repo.resolve("build/libs"));
        JmhJars.blockingExample(repo.resolve("build/libs"));
        Files.move(repo.resolve("build/libs/benchmarks.jar"), repo.resolve("build/libs/orders-1.0-jmh.jar"));
        Said said = init();
        assertThat(said.out())
                .contains("found: a JMH suite built by Gradle (build/libs/orders-1.0-jmh.jar, 2 benchmarks)")
                .contains("1. build: ./gradlew jmhJar");
        MatrixParser.parse(repo.resolve("matrix.yaml"), Optional.empty());
    }

    @Test
    void aRunnableJarIsAProgramEntry() throws Exception {
        Files.writeString(repo.resolve("pom.xml"), "<project><artifactId>orders</artifactId></project>");
        Files.createDirectories(repo.resolve("target"));
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "com.example.Orders");
        try (var out = new JarOutputStream(Files.newOutputStream(repo.resolve("target/orders-1.0.jar")), manifest)) {
            // the manifest is what init and the reader look at
        }
        Files.copy(repo.resolve("target/orders-1.0.jar"), repo.resolve("target/original-orders-1.0.jar"));
        Said said = init();
        assertThat(said.out()).contains("found: a runnable jar (target/orders-1.0.jar)");
        String yaml = Files.readString(repo.resolve("matrix.yaml"));
        assertThat(yaml).contains("  - id: orders-1-0\n    program:\n      jar: target/orders-1.0.jar");
        Matrix matrix = MatrixParser.parse(repo.resolve("matrix.yaml"), Optional.of("quick"));
        assertThat(matrix.workloads().get(0).user().orElseThrow().artifact()).isInstanceOf(UserWorkload.Program.class);
    }

    @Test
    void withNothingToMeasureItStartsFromTheBuiltInWorkloads() throws Exception {
        Said said = init();
        assertThat(said.out()).contains("found: no JMH suite or runnable jar");
        Matrix matrix = MatrixParser.parse(repo.resolve("matrix.yaml"), Optional.of("quick"));
        assertThat(matrix.workloads()).extracting(w -> w.id()).containsExactly("sleep-bound", "primes-io");
    }

    @Test
    void itNeverOverwritesAFileAndSaysSo() throws Exception {
        Files.writeString(repo.resolve("matrix.yaml"), "# ours\n");
        Said said = init();
        assertThat(said.code()).isZero();
        assertThat(said.out())
                .contains("kept: " + repo.resolve("matrix.yaml") + " (it exists; init never overwrites a file)")
                .contains("1. matrix.yaml was already here and is left as it was");
        assertThat(Files.readString(repo.resolve("matrix.yaml"))).isEqualTo("# ours\n");
    }

    @Test
    void aDirectoryOrJarThatIsNotThereIsTheUsersMistake() {
        Said said = init("--jar", repo.resolve("nope.jar").toString());
        assertThat(said.code()).isEqualTo(2);
        assertThat(said.err()).contains("--jar " + repo.resolve("nope.jar") + " does not exist; build it first");
    }
}
