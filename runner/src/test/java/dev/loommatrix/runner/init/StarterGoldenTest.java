package dev.loommatrix.runner.init;

import dev.loommatrix.core.matrix.JmhJar;
import dev.loommatrix.core.testing.Golden;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * What {@code init} writes, whole: the starter matrix for each kind of project and the calling workflows, sealed
 * byte for byte ({@code -Dgolden.update=true} to accept a change, after review).
 */
class StarterGoldenTest {

    static final Path GOLDEN = Path.of("src/test/resources/golden/init");

    /** 22 benchmarks, more than the matrix lists; those of one class declare the thread @Param. */
    static Starter.Jmh suite() {
        List<JmhJar.Benchmark> benchmarks = IntStream.range(0, 22)
                .mapToObj(i -> new JmhJar.Benchmark(
                        "com.acme.bench." + (i % 2 == 0 ? "Threads" : "Plain") + "Bench.run" + i,
                        "thrpt",
                        i % 2 == 0 ? Set.of("threadType", "size") : Set.of("size")))
                .toList();
        return new Starter.Jmh("Maven", "target/benchmarks.jar", Optional.of("mvn -q package"), benchmarks);
    }

    @Test
    void aJmhSuiteBuilt() throws Exception {
        Golden.assertMatches(GOLDEN.resolve("matrix-jmh.yaml"), Starter.matrix(suite()));
    }

    @Test
    void aJmhSuiteNotBuiltYet() throws Exception {
        Golden.assertMatches(
                GOLDEN.resolve("matrix-jmh-unbuilt.yaml"),
                Starter.matrix(new Starter.Jmh(
                        "Gradle", "build/libs/app-jmh.jar", Optional.of("./gradlew jmhJar"), List.of())));
    }

    @Test
    void aProgram() throws Exception {
        Golden.assertMatches(
                GOLDEN.resolve("matrix-program.yaml"),
                Starter.matrix(new Starter.Program("target/My_App-1.0.jar", Optional.empty())));
    }

    @Test
    void nothing() throws Exception {
        Golden.assertMatches(GOLDEN.resolve("matrix-nothing.yaml"), Starter.matrix(new Starter.Nothing()));
    }

    @Test
    void theCallingWorkflows() throws Exception {
        assertWorkflows(
                "workflows-jmh-quick",
                CallingWorkflows.of(
                        suite(),
                        CallingWorkflows.Source.ofThisBuild(
                                "acme/loom-matrix", "1.2.3", Optional.of("0123456789abcdef0123456789abcdef01234567")),
                        true));
        assertWorkflows(
                "workflows-nothing",
                CallingWorkflows.of(
                        new Starter.Nothing(), CallingWorkflows.Source.parse("acme/loom-matrix@v1"), false));
    }

    static void assertWorkflows(String name, Map<String, String> files) throws Exception {
        for (var file : files.entrySet()) {
            Golden.assertMatches(GOLDEN.resolve(name).resolve(file.getKey()), file.getValue());
        }
        Golden.assertMatches(GOLDEN.resolve(name).resolve("files.txt"), String.join("\n", files.keySet()) + "\n");
    }
}
