package dev.loommatrix.runner.records;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one variant of a user workload produced ({@link AgentLines#read}).
 *
 * @param runs the measured runs (warmups dropped), in order
 * @param processMs what the driver timed of each measured run
 * @param problem why the variant's numbers are not usable as they are, if so
 * @param loads a service's load runs, by the measured repetition they belong to
 */
public record VariantRuns(
        String variant,
        List<JvmRun> runs,
        List<Double> processMs,
        Optional<String> problem,
        Map<Integer, LoadLine> loads) {

    public VariantRuns {
        loads = Map.copyOf(loads);
    }

    public VariantRuns(String variant, List<JvmRun> runs, List<Double> processMs, Optional<String> problem) {
        this(variant, runs, processMs, problem, Map.of());
    }
}
