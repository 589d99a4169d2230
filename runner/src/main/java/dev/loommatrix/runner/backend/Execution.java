package dev.loommatrix.runner.backend;

import java.util.List;
import java.util.Optional;

/** A backend's answer for one cell: the outcome plus the facts of how it ran. */
public record Execution(
        CellOutcome outcome,
        String backend,
        String driver,
        List<String> variantOrder,
        Optional<String> fallbackReason) {

    public Execution {
        variantOrder = List.copyOf(variantOrder);
    }

    public Execution withFallbackReason(String reason) {
        return new Execution(outcome, backend, driver, variantOrder, Optional.of(reason));
    }
}
