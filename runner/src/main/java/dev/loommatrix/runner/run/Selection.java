package dev.loommatrix.runner.run;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.RunDirectory;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What to run — the first stage a cell passes: every planned cell, less those a resumed run keeps (each
 * said once on the console). With {@link MatrixRun.Resume#RETRY_FAILED} the failed and timed-out ones run
 * again.
 *
 * @param toRun indexes into the plan, in plan order
 * @param kept indexes of cells whose existing record stands
 */
record Selection(List<Integer> toRun, List<Integer> kept) {

    static Selection of(RunDirectory dir, List<Cell> cells, MatrixRun.Resume resume, PrintStream out)
            throws IOException {
        List<Integer> toRun = new ArrayList<>();
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < cells.size(); i++) {
            Cell cell = cells.get(i);
            Optional<CellRecord> existing = resume == MatrixRun.Resume.NO ? Optional.empty() : dir.readCell(cell.id());
            boolean retry = resume == MatrixRun.Resume.RETRY_FAILED
                    && existing.map(r -> r.status().isFailure()).orElse(false);
            if (existing.isPresent() && !retry) {
                kept.add(i);
                out.printf(
                        "[%d/%d] %s: already %s, skipped (--resume)%n",
                        i + 1, cells.size(), cell.id(), existing.get().status().word());
            } else {
                toRun.add(i);
            }
        }
        return new Selection(List.copyOf(toRun), List.copyOf(kept));
    }
}
