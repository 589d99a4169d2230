package dev.loommatrix.runner;

import dev.loommatrix.runner.matrix.MatrixParser;
import dev.loommatrix.runner.plan.Cell;
import dev.loommatrix.runner.plan.Planner;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Plans a matrix given inline, for tests that need real cells. */
public final class TestMatrices {

    private TestMatrices() {}

    public static List<Cell> plan(String yaml) throws Exception {
        return Planner.plan(MatrixParser.parse("m.yaml", yaml, Optional.empty(), Path.of("m.yaml")));
    }
}
