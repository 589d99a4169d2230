package dev.loommatrix.runner.backend.container;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.testing.TestMatrices;
import dev.loommatrix.runner.backend.Shell;
import java.util.List;
import org.junit.jupiter.api.Test;

class CellScriptTest {

    @Test
    void hyperfineDrivesEachVariantInTheGivenOrderAndCarriesOnPastFailures() throws Exception {
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
        String script = CellScript.forContainer(cell, List.of("pool:10", "virtual"), List.of());
        assertThat(script).containsSubsequence("loom: variant pool:10", "loom: variant virtual");
        assertThat(script)
                .contains(
                        "hyperfine -N --style basic --output inherit --warmup 2 --runs 4 --export-json /out/pool-10.hyperfine.json");
        assertThat(script)
                .contains("'java --add-opens=java.base/java.lang=ALL-UNNAMED -Xmx614m "
                        + "-Djdk.virtualThreadScheduler.parallelism=3 -XX:+UseSerialGC -jar /opt/loom/harness.jar sleep-bound "
                        + "--variant virtual --param sleepMs=300 --param tasks=20 --out /out/virtual.records.jsonl'");
        assertThat(script).contains("status=1").endsWith("exit $status\n");
    }

    @Test
    void quotesForSh() {
        assertThat(Shell.quote("it's")).isEqualTo("'it'\"'\"'s'");
    }
}
