package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.Planner;
import dev.loommatrix.runner.ab.AbSides;
import dev.loommatrix.runner.backend.ExampleProjects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JMH example built twice from one commit, as scripts/ci/ab.sh builds the merge base and the head of an A/A
 * run, is one artifact: byte for byte (its pom fixes {@code project.build.outputTimestamp}), and to the A/B run,
 * which judges a jar by its entries. The A/A run once said "The sides differ in: artifact of blocking-by-param
 * 2a1fe0dd8f11 → 9931e58c2a3c".
 */
class ExampleRebuildIT {

    @Test
    void theExampleBuiltTwiceIsOneArtifactAndAnAaRun(@TempDir Path work) throws Exception {
        Path base = checkout(work.resolve("base"));
        Path head = checkout(work.resolve("head"));
        Path baseJar = ExampleProjects.build(base);
        Path headJar = ExampleProjects.build(head);

        assertThat(Files.mismatch(baseJar, headJar))
                .as("the first byte at which the two builds' jars differ (-1: none)")
                .isEqualTo(-1L);
        List<Cell> baseCells = cells(base);
        List<Cell> headCells = cells(head);
        assertThat(baseCells.get(0).workload().user().orElseThrow().artifact().files())
                .containsExactly(baseJar.toAbsolutePath().normalize());
        AbSides.Matched matched = AbSides.match(baseCells, headCells, Optional.empty(), Optional.empty());
        assertThat(matched.pairs()).hasSameSizeAs(headCells);
        assertThat(matched.differences()).isEmpty();
    }

    /** The example's sources and its matrix, as a checkout has them. */
    private static Path checkout(Path dir) throws Exception {
        ExampleProjects.copy(dir);
        Files.copy(ExampleProjects.BLOCKING.resolve("matrix.yaml"), dir.resolve("matrix.yaml"));
        return dir;
    }

    private static List<Cell> cells(Path checkout) throws Exception {
        return Planner.plan(MatrixParser.parse(checkout.resolve("matrix.yaml"), Optional.empty()));
    }
}
