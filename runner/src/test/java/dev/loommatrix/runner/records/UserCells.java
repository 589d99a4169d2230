package dev.loommatrix.runner.records;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.testing.JmhJars;
import dev.loommatrix.core.testing.TestMatrices;
import java.nio.file.Path;
import java.util.Optional;

/** User workloads' cells and runs for the readers' tests. */
final class UserCells {

    private UserCells() {}

    /** The example project's JMH benchmark, two variants by a parameter. */
    static Cell jmh(Path dir, int repetitions, int warmup) throws Exception {
        Path jar = JmhJars.blockingExample(dir);
        return TestMatrices.plan(
                        """
                        schema: 1
                        jdks: [{id: t25, vm: hotspot, version: 25, image: "eclipse-temurin:25-jdk"}]
                        cpus: [2]
                        workloads:
                          - id: blocking
                            jmh: {jar: "%s", include: threadsByParam, forks: 1}
                            variants:
                              virtual: {params: {threadType: VIRTUAL}}
                              platform: {params: {threadType: PLATFORM}}
                            baseline: platform
                        repetitions: %d
                        warmup: %d
                        """
                                .formatted(jar, repetitions, warmup))
                .get(0);
    }

    /** Raw output the agent wrote around real runs (fixtures/user). */
    static Path fixture(String name) {
        return Path.of("src/test/resources/fixtures/user", name);
    }

    static AgentRecord jvm(String command, double cpuMs) {
        return new AgentRecord(
                1,
                "agent",
                1,
                "virtual",
                command,
                java.util.Map.of("cpuMs", cpuMs, "carriers", 2),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                java.util.Map.of());
    }

    /** One run of a program that reported {@code bmf}, as its variant's only run. */
    static VariantRuns programRun(String bmf) throws Exception {
        var host = new AgentRecord(
                1,
                "agent",
                7,
                "virtual",
                "app.Main",
                java.util.Map.of("cpuMs", 10.0),
                Optional.empty(),
                Optional.of(dev.loommatrix.core.result.Json.MAPPER.readTree(bmf)),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                java.util.Map.of());
        return new VariantRuns(
                "virtual",
                java.util.List.of(new JvmRun(host, java.util.List.of())),
                java.util.List.of(120.0),
                Optional.empty());
    }
}
