package dev.loommatrix.runner.backend.container;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.testing.Golden;
import dev.loommatrix.core.testing.JmhJars;
import dev.loommatrix.core.testing.TestMatrices;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container's shell script, whole: each kind of cell's script sealed byte for byte, so a change to what a
 * container runs shows as a diff here ({@code -Dgolden.update=true} to accept it, after review).
 */
class CellScriptGoldenTest {

    static final Path GOLDEN = Path.of("src/test/resources/golden/cell-script");

    /** A user's files: the script names them by file name alone, where the image holds them. */
    @TempDir
    Path dir;

    @Test
    void aBuiltInWorkloadInLockstepWithTheBackendsJvmArgs() throws Exception {
        Cell cell = TestMatrices.plan(
                        """
                schema: 1
                jdks: [{id: a21, vm: hotspot, version: 21, jvmArgs: ["-XX:+UseSerialGC"]}]
                cpus: [1.5]
                scheduler: {parallelism: [3]}
                workloads: [{id: sleep-bound, variants: [virtual, "pool:10"], params: {tasks: 20}}]
                repetitions: 4
                warmup: 2
                memory: 1g
                """)
                .get(0);
        Golden.assertMatches(
                GOLDEN.resolve("built-in-lockstep.sh"),
                CellScript.forContainer(
                        cell, List.of("pool:10", "virtual"), List.of("-XX:ActiveProcessorCount=2"), true));
    }

    @Test
    void aBuiltInWorkloadProfiledWithJfrAndFlame() throws Exception {
        Cell cell = TestMatrices.plan(
                        """
                schema: 1
                jdks: [{id: j, vm: hotspot, version: 25}]
                cpus: [2]
                workloads: [{id: pinning, variants: [synchronized, reentrant-lock]}]
                repetitions: 2
                warmup: 0
                profiling: {jfr: true, flame: true}
                """)
                .get(0);
        Golden.assertMatches(
                GOLDEN.resolve("built-in-profiled.sh"),
                CellScript.forContainer(cell, List.of("synchronized", "reentrant-lock"), List.of()));
    }

    @Test
    void aUsersProgramWithEnvironmentAndQuotingProfiled() throws Exception {
        Path jar = Files.writeString(dir.resolve("app.jar"), "");
        Cell cell = TestMatrices.plan(
                        """
                schema: 1
                jdks: [{id: t25, vm: hotspot, version: 25, image: "eclipse-temurin:25-jdk"}]
                workloads:
                  - id: load
                    program: {classpath: ["%s"], mainClass: app.Main}
                    variants:
                      virtual: {properties: {threads: virtual}, env: {KIND: "v'1 two"}, args: ["it's", "a b"]}
                      platform: {properties: {threads: platform}}
                    baseline: platform
                repetitions: 3
                warmup: 1
                profiling: {jfr: true}
                """
                                .formatted(jar))
                .get(0);
        Golden.assertMatches(
                GOLDEN.resolve("program-profiled.sh"),
                CellScript.forContainer(cell, List.of("virtual", "platform"), List.of("-XX:ActiveProcessorCount=1")));
    }

    @Test
    void aUsersJmhSuite() throws Exception {
        Path jar = JmhJars.blockingExample(dir);
        Cell cell = TestMatrices.plan(
                        """
                schema: 1
                jdks: [{id: t21, vm: hotspot, version: 21, image: "eclipse-temurin:21-jdk"}]
                workloads:
                  - id: suite
                    jmh: {jar: "%s", include: threadsByParam, iterations: 2, time: 1s}
                    variants: {virtual: {params: {threadType: VIRTUAL}}, platform: {params: {threadType: PLATFORM}}}
                    baseline: platform
                repetitions: 2
                warmup: 0
                """
                                .formatted(jar))
                .get(0);
        Golden.assertMatches(
                GOLDEN.resolve("jmh.sh"), CellScript.forContainer(cell, List.of("platform", "virtual"), List.of()));
    }
}
