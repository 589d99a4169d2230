package dev.loommatrix.runner.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.FileTrees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The example users copy (examples/jmh-blocking), built from source by Maven the way its README says, for
 * tests that run it as a user's workload. Offline once its dependencies are cached (-o when they are).
 */
public final class ExampleProjects {

    public static final Path ROOT = Path.of(System.getProperty("loom.projectRoot", ".."))
            .toAbsolutePath()
            .normalize();
    public static final Path BLOCKING = ROOT.resolve("examples/jmh-blocking");
    /** The Spring Boot service users copy (issue #28); it builds target/spring-service.jar. */
    public static final Path SPRING = ROOT.resolve("examples/spring-service");

    private ExampleProjects() {}

    /** {@code mvn package} in {@code project}; returns its {@code target/benchmarks.jar}. */
    public static Path build(Path project) throws IOException, InterruptedException {
        return build(project, "benchmarks.jar");
    }

    /** {@code mvn package} in {@code project}; returns the jar it built, {@code target/<jar>}. */
    public static Path build(Path project, String jarName) throws IOException, InterruptedException {
        Path log = Files.createTempFile("example-build", ".log");
        Process mvn = new ProcessBuilder(List.of(
                        ROOT.resolve("mvnw").toString(),
                        "-q",
                        "-B",
                        "-ntp",
                        "-f",
                        project.resolve("pom.xml").toString(),
                        "package"))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertThat(mvn.waitFor(10, TimeUnit.MINUTES)).isTrue();
        assertThat(mvn.exitValue()).as(Files.readString(log)).isZero();
        Path jar = project.resolve("target").resolve(jarName);
        assertThat(jar).isRegularFile();
        return jar;
    }

    /** A copy of the example's sources (pom and src, no build output) in {@code into}, to change and build. */
    public static Path copy(Path into) throws IOException {
        Files.createDirectories(into);
        Files.copy(BLOCKING.resolve("pom.xml"), into.resolve("pom.xml"));
        FileTrees.copy(BLOCKING.resolve("src"), into.resolve("src"));
        return into;
    }
}
