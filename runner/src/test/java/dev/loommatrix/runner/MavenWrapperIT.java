package dev.loommatrix.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's build commands as written on a host whose default Java is 17 (issue #29): the project's Maven
 * Wrapper finds a JDK 21+ by itself, as ./loom-matrix does, instead of failing with "release version 21 not
 * supported".
 */
class MavenWrapperIT {

    @Test
    void withAJava17FirstOnPathTheWrapperBuildsWithAJdk21OrNewer(@TempDir Path dir) throws Exception {
        // a JDK 17 first on PATH (its javac is never run: the wrapper reads its release file)
        Path jdk17 = Files.createDirectories(dir.resolve("jdk-17/bin"));
        Files.writeString(dir.resolve("jdk-17/release"), "JAVA_VERSION=\"17.0.12\"\n");
        for (String tool : new String[] {"java", "javac"}) {
            Path p = Files.writeString(jdk17.resolve(tool), "#!/bin/sh\necho 'java 17 was run' >&2\nexit 1\n");
            p.toFile().setExecutable(true);
        }
        Path root = Path.of(System.getProperty("loom.projectRoot", ".."))
                .toAbsolutePath()
                .normalize();
        ProcessBuilder pb = new ProcessBuilder(root.resolve("mvnw").toString(), "-v")
                .directory(root.resolve("examples/jmh-blocking").toFile())
                .redirectErrorStream(true);
        pb.environment().remove("JAVA_HOME");
        pb.environment().put("PATH", jdk17 + ":/usr/bin:/bin");
        var ended = dev.loommatrix.runner.Processes.run(pb, java.time.Duration.ofMinutes(2));
        String out = ended.output();
        assertThat(ended.exitCode()).as(out).isZero();
        assertThat(out)
                .contains("mvnw: the java on PATH is not a JDK 21+; using ")
                .containsPattern("Java version: (2[1-9]|[3-9][0-9])\\.")
                .doesNotContain("java 17 was run");
    }
}
