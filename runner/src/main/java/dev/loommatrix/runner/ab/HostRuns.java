package dev.loommatrix.runner.ab;

import dev.loommatrix.core.plan.Cell;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The cells this host will not run, of each side, each with why ({@code CellPlacement.notRunHere}): a side it skips takes
 * no time, and a cell with a side skipped has no comparison.
 */
public record HostRuns(Map<String, String> baseline, Map<String, String> candidate) {

    public static final HostRuns EVERY_CELL = new HostRuns(Map.of(), Map.of());

    public HostRuns {
        baseline = Map.copyOf(baseline);
        candidate = Map.copyOf(candidate);
    }

    /** Whether this host runs the baseline's side of a cell. */
    boolean runsBaseline(Cell cell) {
        return !baseline.containsKey(cell.id());
    }

    /** Whether this host runs the candidate's side of a cell. */
    boolean runsCandidate(Cell cell) {
        return !candidate.containsKey(cell.id());
    }

    /** Why a cell is not run here, if a side of it is not: one side's reason names the side. */
    Optional<String> whyNotRun(Cell cell, String baselineLabel, String candidateLabel) {
        return notRunWhy(
                baselineLabel,
                Optional.ofNullable(baseline.get(cell.id())),
                candidateLabel,
                Optional.ofNullable(candidate.get(cell.id())));
    }

    /**
     * Why a cell is not run here, if a side of it is not: the reason (both sides alike), else each side's, named —
     * as the plan says it before measuring and the report after.
     */
    static Optional<String> notRunWhy(
            String baselineLabel, Optional<String> baseline, String candidateLabel, Optional<String> candidate) {
        if (baseline.isPresent() && candidate.isPresent() && baseline.equals(candidate)) {
            return candidate;
        }
        List<String> sides = new ArrayList<>();
        baseline.ifPresent(why -> sides.add("the " + baselineLabel + " side: " + why));
        candidate.ifPresent(why -> sides.add("the " + candidateLabel + " side: " + why));
        return sides.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", sides));
    }
}
