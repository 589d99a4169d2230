package dev.loommatrix.core.plan;

import dev.loommatrix.core.matrix.MatrixParser;
import java.nio.file.Path;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Valid matrices → the exact cells the contract implies, in plan order, with what include entries
 * added. Each expected list was checked by hand against GitHub Actions' include/exclude rules (the
 * matrix files explain each entry). Regenerate with -Dgolden.update=true and review the diff.
 */
class PlanGoldenTest {

    static final Path PLANS = Path.of("src/test/resources/plans");

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "include-exclude.yaml,",
        "include-exclude.yaml,small",
        "include-edges.yaml,",
        "include-edges.yaml,one-cpu",
        "../../../../../matrix.yaml,",
        "../../../../../matrix.yaml,quick",
        "../../../../../matrix.yaml,offline"
    })
    void plansExactlyTheExpectedCells(String file, String profile) throws Exception {
        var matrix = MatrixParser.parse(PLANS.resolve(file), Optional.ofNullable(profile));
        StringBuilder actual = new StringBuilder();
        for (Cell cell : Planner.plan(matrix)) {
            actual.append(cell.id());
            if (!cell.jvmArgs().isEmpty()) {
                actual.append("  jvmArgs=").append(cell.jvmArgs());
            }
            if (!cell.env().isEmpty()) {
                actual.append("  env=").append(new TreeMap<>(cell.env()));
            }
            actual.append('\n');
        }
        String name = Path.of(file).getFileName().toString().replace(".yaml", "")
                + (profile == null ? "" : "@" + profile) + ".cells";
        dev.loommatrix.core.testing.Golden.assertMatches(PLANS.resolve(name), actual.toString());
    }
}
