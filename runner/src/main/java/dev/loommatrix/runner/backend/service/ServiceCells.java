package dev.loommatrix.runner.backend.service;

import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.plan.Cell;
import java.util.Optional;

/** Which cells are service cells (issue #28): the engines hand those to {@code backend.service}. */
public final class ServiceCells {

    private ServiceCells() {}

    public static boolean isService(Cell cell) {
        return cell.workload()
                .user()
                .map(u -> u.artifact() instanceof UserWorkload.Service)
                .orElse(false);
    }

    /** A service cell, the team's or the built-in one: a server and its load generator, on CPUs apart. */
    public static boolean runsAService(Cell cell) {
        return isService(cell) || SeedServices.isBuiltIn(cell);
    }

    /**
     * Why the cell will be skipped on this host for want of what a service cell needs (the built-in service's
     * server jar, the load generator), if it will: what the engines say when they skip it, and what the run's
     * ETA leaves out.
     */
    public static Optional<String> missing(Cell cell) {
        Optional<Cell> runnable = SeedServices.asRun(cell);
        if (runnable.isEmpty()) {
            return Optional.of(SeedServices.missing());
        }
        return isService(runnable.get()) && Oha.binary().isEmpty() ? Optional.of(Oha.missing()) : Optional.empty();
    }
}
