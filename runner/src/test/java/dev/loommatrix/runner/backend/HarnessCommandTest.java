package dev.loommatrix.runner.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.testing.TestMatrices;
import java.util.List;
import org.junit.jupiter.api.Test;

class HarnessCommandTest {

    static Cell cell(String jdkExtras) throws Exception {
        return TestMatrices.plan(
                        """
                schema: 1
                jdks: [{id: j, vm: hotspot, version: 21, image: x%s}]
                cpus: [2]
                memory: 1g
                scheduler: {parallelism: [1]}
                workloads: [{id: sleep-bound, variants: [virtual]}]
                """
                                .formatted(jdkExtras))
                .get(0);
    }

    @Test
    void theHeapIsDerivedFromTheMemoryLimitUnlessTheMatrixSetsIt() throws Exception {
        assertThat(HarnessCommand.jvmArgs(cell(""), List.of()))
                .contains("-Xmx614m", "-Djdk.virtualThreadScheduler.parallelism=1");
        assertThat(HarnessCommand.jvmArgs(cell(", jvmArgs: [-Xmx256m]"), List.of()))
                .contains("-Xmx256m")
                .doesNotContain("-Xmx614m");
        assertThat(HarnessCommand.jvmArgs(cell(", javaToolOptions: \"-XX:MaxRAMPercentage=50\""), List.of()))
                .noneMatch(a -> a.startsWith("-Xmx"));
    }

    @Test
    void javaToolOptionsIsPassedAsTheEntrySaysEvenWhenEmpty() throws Exception {
        assertThat(cell(", javaToolOptions: \"\"").allEnv()).containsEntry("JAVA_TOOL_OPTIONS", "");
        assertThat(cell("").allEnv()).doesNotContainKey("JAVA_TOOL_OPTIONS");
    }

    @Test
    void iterationsReachTheHarnessOnlyWhenSet() throws Exception {
        assertThat(HarnessCommand.command("java", "h.jar", cell(""), "virtual", "r.jsonl", List.of()))
                .doesNotContain("--iterations");
        Cell iterated = TestMatrices.plan(
                        """
                schema: 1
                jdks: [{id: j, vm: hotspot, version: 21, image: x}]
                iterations: {warmup: 1, measure: 3}
                workloads: [{id: sleep-bound, variants: [virtual]}]
                """)
                .get(0);
        assertThat(HarnessCommand.command("java", "h.jar", iterated, "virtual", "r.jsonl", List.of()))
                .containsSubsequence("--iterations", "1:3", "--out");
    }
}
