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

    /** A workload's own iterations (in its entry, or from a profile) win over the matrix's for its cells only. */
    @Test
    void aWorkloadCanSetItsOwn() throws Exception {
        String yaml =
                """
                schema: 1
                jdks:
                  - {id: t21, vm: hotspot, version: 21, image: "eclipse-temurin:21-jdk"}
                cpus: [2]
                iterations: {warmup: 2, measure: 5}
                workloads:
                  - {id: sleep-bound, variants: [virtual]}
                  - {id: http-server, variants: [virtual], iterations: {measure: 1}}
                profiles:
                  quick: {workloads: {sleep-bound: {iterations: {warmup: 1, measure: 3}}}}
                """;
        var cells = Planner.plan(MatrixParser.parse("m.yaml", yaml, Optional.empty(), Path.of("m.yaml")));
        assertThat(cells)
                .filteredOn(c -> c.workload().id().equals("http-server"))
                .allSatisfy(c -> assertThat(c.iterations()).isEqualTo(Iterations.ONCE));
        assertThat(cells)
                .filteredOn(c -> c.workload().id().equals("sleep-bound"))
                .allSatisfy(c -> assertThat(c.iterations()).isEqualTo(new Iterations(2, 5)));
        var quick = Planner.plan(MatrixParser.parse("m.yaml", yaml, Optional.of("quick"), Path.of("m.yaml")));
        assertThat(quick)
                .filteredOn(c -> c.workload().id().equals("sleep-bound"))
                .allSatisfy(c -> assertThat(c.iterations()).isEqualTo(new Iterations(1, 3)));
    }

    /**
     * footprint's result is a resident-memory delta, which a warm JVM hides (the heap a first iteration committed
     * is reused): it runs once per fork whatever the matrix says, unless its own entry asks.
     */
    @Test
    void footprintRunsOncePerForkUnlessItsEntryAsks() throws Exception {
        String yaml =
                """
                schema: 1
                jdks:
                  - {id: t21, vm: hotspot, version: 21, image: "eclipse-temurin:21-jdk"}
                cpus: [2]
                iterations: {warmup: 2, measure: 5}
                workloads:
                  - {id: footprint, variants: [virtual]}
                profiles:
                  asks: {workloads: {footprint: {iterations: {warmup: 1, measure: 3}}}}
                """;
        assertThat(Planner.plan(MatrixParser.parse("m.yaml", yaml, Optional.empty(), Path.of("m.yaml"))))
                .singleElement()
                .satisfies(c -> assertThat(c.iterations()).isEqualTo(Iterations.ONCE));
        assertThat(Planner.plan(MatrixParser.parse("m.yaml", yaml, Optional.of("asks"), Path.of("m.yaml"))))
                .singleElement()
                .satisfies(c -> assertThat(c.iterations()).isEqualTo(new Iterations(1, 3)));
    }
}
