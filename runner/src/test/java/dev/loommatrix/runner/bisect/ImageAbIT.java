package dev.loommatrix.runner.bisect;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.runner.cli.LoomMatrix;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A step that is the JDK image's, not the code's (issue #53): {@code bisect --images BEFORE AFTER} measures the bad
 * commit's build, in real containers, on the image before the step against the image after it, and names the image
 * with the change and its interval; the commits are not bisected. The image after is the offline JDK image with a
 * JVM default changed by its {@code ENV} — as a base image's update can — here the JIT turned off, which makes the
 * team's program several times slower with its code the same.
 */
class ImageAbIT {

    static final String BEFORE = "local/debian-openjdk:25";
    static final String AFTER = "loom-matrix-it/jdk-interpreted:25";

    private static final String PROGRAM =
            """
            package app;

            public class Main {
                public static void main(String[] args) throws Exception {
                    long sink = 0;
                    StringBuilder rounds = new StringBuilder();
                    double[] ms = new double[10];
                    for (int r = -3; r < ms.length; r++) {
                        long t = System.nanoTime();
                        long x = 1;
                        for (int i = 0; i < 300_000; i++) {
                            x = x * 6364136223846793005L + 1442695040888963407L;
                            x ^= x >>> 29;
                        }
                        sink += x;
                        if (r >= 0) {
                            ms[r] = (System.nanoTime() - t) / 1e6;
                            rounds.append(r == 0 ? "" : ", ").append(ms[r]);
                        }
                    }
                    java.util.Arrays.sort(ms);
                    java.nio.file.Files.writeString(java.nio.file.Path.of(System.getenv("LOOM_METRICS_FILE")),
                            "{\\"work\\": {\\"workMs\\": {\\"value\\": " + ms[ms.length / 2] + ", \\"iterations\\": ["
                                    + rounds + "]}}}");
                    System.out.println(sink == 42 ? "" : "done");
                }
            }
            """;

    private static final String MATRIX =
            """
            schema: 1
            jdks:
              - {id: debian-25, vm: hotspot, version: 25, image: "%s"}
            cpus: [1]
            repetitions: 3
            warmup: 0
            timeout: 5m
            memory: 512m
            workloads:
              - id: work
                program:
                  classpath: [build]
                  mainClass: app.Main
                  metrics:
                    workMs: {unit: ms, direction: lower}
                variants:
                  plain: {jvmArgs: [-Xmx128m]}
            """
                    .formatted(BEFORE);

    @BeforeAll
    static void theImageAfterTheStep(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("Dockerfile"), "FROM " + BEFORE + "\nENV JAVA_TOOL_OPTIONS=-Xint\n");
        run(dir, "docker", "build", "-q", "-t", AFTER, ".");
    }

    @AfterAll
    static void removeIt() throws Exception {
        run(Path.of("."), "docker", "rmi", "-f", AFTER);
    }

    @Test
    void aStepAtANewImageIsNamedTheImagesWithTheCodeTheSame(@TempDir Path dir) throws Exception {
        Path repo = Files.createDirectories(dir.resolve("team"));
        run(repo, "git", "init", "-q", "-b", "main");
        Files.writeString(repo.resolve("matrix.yaml"), MATRIX);
        Files.writeString(Files.createDirectories(repo.resolve("src/app")).resolve("Main.java"), PROGRAM);
        Files.writeString(repo.resolve(".gitignore"), "build/\n");
        commit(repo, "good");
        Files.writeString(repo.resolve("NOTES.md"), "the night the image changed\n");
        commit(repo, "notes");

        String javac = Path.of(System.getProperty("java.home"), "bin", "javac").toString();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream console = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        int code = LoomMatrix.mainWithoutExit(
                new String[] {
                    "bisect",
                    "--repo",
                    repo.toString(),
                    "--good",
                    "HEAD~1",
                    "--bad",
                    "HEAD",
                    "--build",
                    javac + " --release 21 -d build src/app/Main.java",
                    "--images",
                    BEFORE,
                    AFTER,
                    "--backend",
                    "docker",
                    "--budget",
                    "4m",
                    "--out",
                    dir.resolve("bisect").toString()
                },
                console,
                console);
        String text = bytes.toString(StandardCharsets.UTF_8);
        System.out.println(text);
        assertThat(code).as(text).isZero();
        JsonNode report = Json.MAPPER.readTree(dir.resolve("bisect/bisect.json").toFile());
        assertThat(report.path("ending").asText()).as(text).isEqualTo("image");
        assertThat(report.path("answer").asText()).startsWith("the step is the image's: +");
        assertThat(report.path("images").path("from").asText()).isEqualTo(BEFORE);
        assertThat(report.path("images").path("to").asText()).isEqualTo(AFTER);
        // the interpreter is several times slower: the whole interval far above the threshold
        assertThat(report.path("change").path("low").asDouble()).isGreaterThan(2);
        assertThat(report.path("steps")).isEmpty();
        assertThat(dir.resolve("bisect")
                        .resolve(report.path("images").path("evidence").asText()))
                .isRegularFile();
        assertThat(Files.readString(dir.resolve("bisect/bisect.md")))
                .startsWith("# Image A/B on ")
                .contains("the same on both sides");
        // only the bad commit was built: the commits were not bisected
        try (var builds = Files.list(dir.resolve("bisect/builds"))) {
            assertThat(builds.filter(p -> p.toString().endsWith(".status"))).hasSize(1);
        }
    }

    private static void commit(Path repo, String subject) throws Exception {
        run(repo, "git", "add", "-A");
        run(repo, "git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", subject);
    }

    private static void run(Path dir, String... command) throws Exception {
        Process p = new ProcessBuilder(new ArrayList<>(List.of(command)))
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(String.join(" ", command) + ": " + out).isZero();
    }
}
