package dev.loommatrix.runner.backend;

import dev.loommatrix.core.result.Profile;
import dev.loommatrix.runner.records.CellOutcome;
import java.util.List;
import java.util.Optional;

/**
 * A backend's answer for one cell: the outcome plus the facts of how it ran, what its variants' profiling runs
 * recorded (issue #20; empty when the cell profiles nothing), and what it left running that had to be killed (#32).
 */
public record Execution(
        CellOutcome outcome,
        String backend,
        String driver,
        List<String> variantOrder,
        Optional<String> fallbackReason,
        List<Profile> profiles,
        List<String> leftBehind) {

    public Execution {
        variantOrder = List.copyOf(variantOrder);
        profiles = profiles == null ? List.of() : List.copyOf(profiles);
        leftBehind = leftBehind == null ? List.of() : List.copyOf(leftBehind);
    }

    public Execution(
            CellOutcome outcome,
            String backend,
            String driver,
            List<String> variantOrder,
            Optional<String> fallbackReason,
            List<Profile> profiles) {
        this(outcome, backend, driver, variantOrder, fallbackReason, profiles, List.of());
    }

    /** This answer with the processes its cell left behind (killed when it ended). */
    public Execution withLeftBehind(List<String> processes) {
        return new Execution(outcome, backend, driver, variantOrder, fallbackReason, profiles, processes);
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
        return new Execution(outcome, backend, driver, variantOrder, Optional.of(reason), profiles, leftBehind);
    }
}
