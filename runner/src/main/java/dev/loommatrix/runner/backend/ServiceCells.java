package dev.loommatrix.runner.backend;

import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.plan.Cell;

/** Which cells are service cells (issue #28): the engines hand those to {@code backend.service}. */
public final class ServiceCells {

    private ServiceCells() {}

    public static boolean isService(Cell cell) {
        return cell.workload()
                .user()
                .map(u -> u.artifact() instanceof UserWorkload.Service)
                .orElse(false);
    }
}
