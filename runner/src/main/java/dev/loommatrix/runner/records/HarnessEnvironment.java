package dev.loommatrix.runner.records;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import dev.loommatrix.core.result.EnvironmentRecord;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code environment} block of a harness record: what the JVM under test reported about itself. Only
 * what attestation and the cell record use is typed; anything else in the block is ignored.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record HarnessEnvironment(
        int availableProcessors,
        EnvironmentRecord.Scheduler scheduler,
        Map<String, String> vm,
        String javaVersion,
        String javaSpecificationVersion,
        List<String> gc,
        String javaToolOptions,
        List<String> inputArguments,
        EnvironmentRecord.Limits limits,
        Optional<String> affinity) {

    private static final EnvironmentRecord.Scheduler NO_SCHEDULER = new EnvironmentRecord.Scheduler(
            Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    private static final EnvironmentRecord.Limits NO_LIMITS = new EnvironmentRecord.Limits(
            Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

    /** Absent parts read as nothing reported (a record of an older harness lacks some). */
    public HarnessEnvironment {
        scheduler = scheduler == null ? NO_SCHEDULER : scheduler;
        vm = vm == null ? Map.of() : Map.copyOf(vm);
        javaVersion = javaVersion == null ? "" : javaVersion;
        javaSpecificationVersion = javaSpecificationVersion == null ? "" : javaSpecificationVersion;
        gc = gc == null ? List.of() : List.copyOf(gc);
        javaToolOptions = javaToolOptions == null ? "" : javaToolOptions;
        inputArguments = inputArguments == null ? List.of() : List.copyOf(inputArguments);
        limits = limits == null ? NO_LIMITS : limits;
        affinity = affinity == null ? Optional.empty() : affinity;
    }
}
