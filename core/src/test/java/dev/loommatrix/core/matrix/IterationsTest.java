package dev.loommatrix.core.matrix;

import static dev.loommatrix.core.matrix.BadInputTest.BASE;
import static dev.loommatrix.core.matrix.BadInputTest.problems;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.plan.Planner;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code iterations: {warmup, measure}}: inside each fresh JVM, from the matrix or a profile, onto every cell. */
class IterationsTest {

    @Test
    void theMatrixAndItsProfilesSetThemAndEveryCellCarriesThem() throws Exception {
        String yaml = BASE
                + """
                iterations: {warmup: 2, measure: 5}
                profiles:
                  quick: {repetitions: 2, iterations: {measure: 3}}
                """;
        Matrix matrix = MatrixParser.parse("m.yaml", yaml, Optional.empty(), Path.of("m.yaml"));
        assertThat(matrix.iterations()).isEqualTo(new Iterations(2, 5));
        assertThat(Planner.plan(matrix))
                .allSatisfy(c -> assertThat(c.iterations()).isEqualTo(new Iterations(2, 5)));
        // a profile's mapping merges into the matrix's key by key: warmup stays 2
        Matrix quick = MatrixParser.parse("m.yaml", yaml, Optional.of("quick"), Path.of("m.yaml"));
        assertThat(quick.iterations()).isEqualTo(new Iterations(2, 3));
        assertThat(MatrixParser.parse("m.yaml", BASE, Optional.empty(), Path.of("m.yaml"))
                        .iterations())
                .isEqualTo(Iterations.ONCE);
        assertThat(new Iterations(2, 5).argument()).isEqualTo("2:5");
    }

    @Test
    void badIterationsSayWhereAndWhat() {
        assertThat(problems(BASE + "iterations: {warmup: 1, measure: 0}\n"))
                .singleElement()
                .satisfies(p -> assertThat(p).startsWith("m.yaml:8:34: error: iterations.measure"));
        assertThat(problems(BASE + "iterations: {warm: 1}\n"))
                .singleElement()
                .satisfies(p -> assertThat(p).startsWith("m.yaml:8:14: error:").contains("warm"));
        assertThat(problems(BASE + "iterations: 3\n")).singleElement().satisfies(p -> assertThat(p)
                .contains("iterations must be a mapping"));
    }
}
