package dev.loommatrix.runner.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A user workload's variant's measurements, whatever its format: what is said when it fell short. */
class UserResultsTest {

    @TempDir
    Path dir;

    @Test
    void fewerRunsThanRepetitionsIsSaid() throws Exception {
        VariantRuns runs = AgentLines.read(UserCells.fixture("jmh-forks"), "virtual", 0);
        UserResults.Result result = UserResults.measurements(UserCells.jmh(dir, 5, 0), runs, Optional.empty());
        assertThat(result.problem()).contains("only 2 of 5 repetitions produced a record");
    }
}
