package dev.loommatrix.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.Planner;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.runner.backend.local.JdkLocator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An A/B run's budget goes to the cells this host runs, through the real CLI on the local backend: a JDK entry this
 * host has no JDK for (23) beside one it has (the JDK running the tests). A 3-minute budget once measured 1 of 8
 * runnable cells: the other 7 "did not fit after the other cells' (about 2m48s)" — four JDK 21 cells the host
 * skipped in no time.
 */
class AbNotRunHereIT {

    @Test
    void theBudgetGoesToTheCellThisHostRunsAndTheSkippedOneIsSaidNotRun(@TempDir Path dir) throws Exception {
        Path matrix = dir.resolve("matrix.yaml");
        // jdk-23 first: planned first, at the same estimated cost as the runnable cell
        Files.writeString(
                matrix,
                """
                schema: 1
                jdks:
                  - {id: jdk-23, vm: hotspot, version: 23}
                  - {id: host, vm: hotspot, version: %d, javaHome: "%s"}
                cpus: [1]
                workloads:
                  - {id: sleep-bound, variants: [virtual], params: {tasks: 200, sleepMs: 5}}
                repetitions: 2
                warmup: 0
                iterations: {warmup: 1, measure: 5}
                timeout: 2m
                memory: 256m
                """
                        .formatted(Runtime.version().feature(), System.getProperty("java.home")));
        List<Cell> cells = Planner.plan(MatrixParser.parse(matrix, Optional.empty()));
        assertThat(cells).hasSize(2);
        Cell skipped = cells.get(0);
        Cell runnable = cells.get(1);
        assertThat(JdkLocator.forHost().find(skipped.jdk()).jdk())
                .as("this test needs a JDK entry this host cannot run: it has a JDK 23")
                .isEmpty();
        // a budget that holds one cell's first pass (6 pairs: the nested t's) and a half, not two: counted, the
        // skipped cell's first pass would have left the runnable one out
        long firstPassMs = (long) (dev.loommatrix.runner.ab.PairCost.pairMs(runnable) * 6);
        long budgetS = Math.max(1, firstPassMs * 3 / 2 / 1000);
        assertThat(budgetS * 1000).isLessThan(2 * firstPassMs);

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path ab = dir.resolve("ab");
        int exit = LoomMatrix.mainWithoutExit(
                new String[] {
                    "ab",
                    "--matrix",
                    matrix.toString(),
                    "--backend",
                    "local",
                    "--budget",
                    budgetS + "s",
                    "--max-pairs",
                    "8",
                    "--confirm",
                    "0",
                    "--out",
                    ab.toString()
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String said = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        // an A/A flags a change at α (5 %) by design — on 2026-11-28 one run of this test did (+13.6 %, p 0.043, 6
        // pairs of an 11 ms cell): the verdict is not what this test checks, only that the run ends with one
        assertThat(exit).as(said).isIn(ExitCode.OK.code, ExitCode.REGRESSION.code);

        // said before measuring, and in the verdict before its counts; never "not measured within the budget"
        assertThat(said)
                .contains("not run on this host: " + skipped.id() + ": no hotspot JDK 23 on this host")
                .contains("1 cell(s) not run on this host, so not compared:\n- `" + skipped.id()
                        + "`: no hotspot JDK 23 on this host")
                .doesNotContain("not measured");

        JsonNode report = Json.MAPPER.readTree(ab.resolve("compare.json").toFile());
        assertThat(dev.loommatrix.runner.contract.ResultsSchemaTest.schema().validate(report))
                .isEmpty();
        JsonNode sequential = report.path("ab").path("sequential");
        assertThat(sequential.path("notMeasured").isMissingNode()
                        || sequential.path("notMeasured").isEmpty())
                .as(sequential.toString())
                .isTrue();
        assertThat(sequential.path("notRun").path(skipped.id()).asText()).startsWith("no hotspot JDK 23 on this host");
        assertThat(sequential.path("notRun").has(runnable.id())).isFalse();
        // the runnable cell measured: its first pass at least, compared; the skipped one got no pairs
        assertThat(sequential.path("pairs").path(runnable.id()).asInt()).isGreaterThanOrEqualTo(6);
        assertThat(sequential.path("pairs").has(skipped.id())).isFalse();
        assertThat(report.path("ab").path("pairing").has(skipped.id())).isFalse();
        assertThat(report.path("comparisons")).hasSize(1);
        assertThat(report.path("comparisons").get(0).path("cellId").asText()).isEqualTo(runnable.id());

        // both sides recorded: the runnable cell with its samples, the other skipped (no failure: exit 0 above)
        for (RunDirectory side : List.of(new RunDirectory(ab), new RunDirectory(ab.resolve("baseline")))) {
            var measured = side.readCell(runnable.id()).orElseThrow();
            assertThat(measured.status()).isEqualTo(CellStatus.OK);
            assertThat(measured.measurements())
                    .filteredOn(m -> m.metric().name().equals("wallMs"))
                    .singleElement()
                    .satisfies(m -> assertThat(m.samples().size()).isGreaterThanOrEqualTo(6));
            assertThat(side.readCell(skipped.id()).orElseThrow().status()).isEqualTo(CellStatus.SKIPPED);
        }
    }
}
