package dev.loommatrix.runner.records;

import dev.loommatrix.core.result.EnvironmentRecord;
import dev.loommatrix.core.result.Measurement;
import java.util.List;
import java.util.Optional;

/**
 * How a cell ended. Container or JVM trouble is an outcome, never an exception that ends the run;
 * whatever variants finished before a failure are kept.
 */
public sealed interface CellOutcome {

    record Succeeded(List<Measurement> measurements, EnvironmentRecord environment) implements CellOutcome {}

    record Failed(
            String reason, String logTail, List<Measurement> measurements, Optional<EnvironmentRecord> environment)
            implements CellOutcome {}

    record TimedOut(
            String reason, String logTail, List<Measurement> measurements, Optional<EnvironmentRecord> environment)
            implements CellOutcome {}

    record Skipped(String reason) implements CellOutcome {}

    /** It ran, but what it measured was not what it asks (issue #28: a load generator at its own limit). */
    record Invalid(String reason, List<Measurement> measurements, EnvironmentRecord environment)
            implements CellOutcome {}
}
