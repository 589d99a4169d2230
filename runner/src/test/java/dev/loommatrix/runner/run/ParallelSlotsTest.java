package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.Planner;
import dev.loommatrix.runner.backend.local.JdkLocator;
import dev.loommatrix.runner.backend.local.LocalBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParallelSlotsTest {

    @Test
    void theHostsCpusAreSplitIntoDisjointEvenSlots() {
        assertThat(CellPlacement.slots(4, 2)).extracting(Object::toString).containsExactly("0-1", "2-3");
        assertThat(CellPlacement.slots(2, 2)).extracting(Object::toString).containsExactly("0", "1");
        assertThat(CellPlacement.slots(3, 2)).extracting(Object::toString).containsExactly("0", "1-2");
        assertThat(CellPlacement.slots(8, 1)).extracting(Object::toString).containsExactly("0-7");
        assertThatThrownBy(() -> CellPlacement.slots(2, 3)).hasMessageContaining("at least one CPU per cell");
    }

    /**
     * A service cell's server takes the host's first CPUs and its load generator all the others: in a slot it would
     * overlap the cells beside it (and its record would name a slot it did not keep to), so it never takes one.
     */
    @Test
    void aServiceCellRunsAloneNotInASlot(@TempDir Path dir) throws Exception {
        Path matrix = Files.writeString(
                dir.resolve("matrix.yaml"),
                """
                schema: 1
                jdks:
                  - {id: temurin-25, vm: hotspot, version: 25, image: "eclipse-temurin:25-jdk"}
                cpus: [1]
                workloads:
                  - {id: spring-boot, variants: [virtual, "tomcat:20"]}
                """);
        Cell service =
                Planner.plan(MatrixParser.parse(matrix, Optional.empty())).get(0);
        CellPlacement placement = new CellPlacement(
                MatrixRun.BackendChoice.AUTO, Optional.empty(), new LocalBackend(JdkLocator.forHost()));
        // decided before any engine is asked: with none here, asking would throw
        assertThat(placement.fitsSlot(service, 2)).isFalse();
    }
}
