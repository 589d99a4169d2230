package dev.loommatrix.runner.cli;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.runner.host.MeasurementLock;
import dev.loommatrix.runner.run.MatrixRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the two commands that measure (run and ab) share: their {@code --backend}, {@code --on-disturbed} and
 * {@code --cell} options read (a wrong value is the user's mistake, exit 2), and the measurement lock (exit 6 under
 * {@code --no-wait}).
 */
final class Measuring {

    private Measuring() {}

    static MatrixRun.BackendChoice backendChoice(String backend) {
        return switch (backend) {
            case "auto" -> MatrixRun.BackendChoice.AUTO;
            case "docker" -> MatrixRun.BackendChoice.DOCKER;
            case "local" -> MatrixRun.BackendChoice.LOCAL;
            default ->
                throw new LoomMatrix.UsageException("--backend must be auto, docker or local, got '" + backend + "'");
        };
    }

    static MatrixRun.OnDisturbed disturbedPolicy(String value) {
        return switch (value) {
            case "flag" -> MatrixRun.OnDisturbed.FLAG;
            case "rerun" -> MatrixRun.OnDisturbed.RERUN;
            case "fail" -> MatrixRun.OnDisturbed.FAIL;
            default ->
                throw new LoomMatrix.UsageException("--on-disturbed takes flag, rerun or fail, got '" + value + "'");
        };
    }

    /** The cells named by --cell, in plan order; a name the plan does not have is the user's mistake. */
    static List<Cell> only(List<Cell> planned, List<String> ids) {
        if (ids.isEmpty()) {
            return planned;
        }
        Set<String> known = new HashSet<>();
        planned.forEach(c -> known.add(c.id()));
        for (String id : ids) {
            if (!known.contains(id)) {
                throw new LoomMatrix.UsageException("--cell " + id + " is not a cell of this plan (matrix, profile"
                        + " and shard); `loom-matrix plan` with the same options lists the cell ids");
            }
        }
        return planned.stream().filter(c -> ids.contains(c.id())).toList();
    }

    /** This host's (and engine's) measurement lock, or exit 6 with whose run holds it under --no-wait. */
    static MeasurementLock measurementLock(
            Optional<String> engineId, String runId, String command, boolean noWait, PrintWriter err)
            throws IOException, InterruptedException {
        try {
            return MeasurementLock.acquire(engineId, runId, command, !noWait, line -> {
                err.println(line);
                err.flush();
            });
        } catch (MeasurementLock.Busy busy) {
            throw new LoomMatrix.ExitException(ExitCode.BUSY, busy.getMessage());
        }
    }
}
