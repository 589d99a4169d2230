package dev.loommatrix.runner.backend;

import dev.loommatrix.core.result.Profile;
import java.util.List;
import java.util.Optional;

/**
 * A backend's answer for one cell: the outcome plus the facts of how it ran, and what its variants' profiling
 * runs recorded (issue #20; empty when the cell profiles nothing).
 */
public record Execution(
        CellOutcome outcome,
        String backend,
        String driver,
        List<String> variantOrder,
        Optional<String> fallbackReason,
        List<Profile> profiles) {

    public Execution {
        variantOrder = List.copyOf(variantOrder);
        profiles = profiles == null ? List.of() : List.copyOf(profiles);
    }

    public Execution(
            CellOutcome outcome,
            String backend,
            String driver,
            List<String> variantOrder,
            Optional<String> fallbackReason) {
        this(outcome, backend, driver, variantOrder, fallbackReason, List.of());
    }

    public Execution withFallbackReason(String reason) {
        return new Execution(outcome, backend, driver, variantOrder, Optional.of(reason), profiles);
    }
}
