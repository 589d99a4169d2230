package dev.loommatrix.core.testing;

import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.Planner;
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
