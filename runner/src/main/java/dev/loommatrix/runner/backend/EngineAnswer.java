package dev.loommatrix.runner.backend;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.Profile;
import dev.loommatrix.runner.records.Attestation;
import dev.loommatrix.runner.records.CellAssembler;
import dev.loommatrix.runner.records.CellOutcome;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What an engine gathers while it runs a cell — its variants' errors, how its processes ended — and the one way that
 * becomes the engine's answer: the raw output assembled into the cell's outcome, with the facts of how it ran. Both
 * engines, for their JVM cells and their service cells, end here.
 */
public final class EngineAnswer {

    private final Cell cell;
    private final Path rawDir;
    private final List<String> variantOrder;
    private final Map<String, String> variantErrors = new LinkedHashMap<>();
    private CellAssembler.Ending ending = new CellAssembler.Ending.Completed();

    public EngineAnswer(Cell cell, Path rawDir, List<String> variantOrder) {
        this.cell = cell;
        this.rawDir = rawDir;
        this.variantOrder = List.copyOf(variantOrder);
    }

    /** A variant whose JVM runs failed; the cell goes on with the others. */
    public void variantFailed(String variant, String reason) {
        variantErrors.put(variant, reason);
    }

    public void variantsFailed(Map<String, String> reasons) {
        variantErrors.putAll(reasons);
    }

    public boolean anyVariantFailed() {
        return !variantErrors.isEmpty();
    }

    /** The cell's processes ended early for {@code reason}; the cell log's tail as it is now goes with it. */
    public void crashed(String reason) {
        ending = new CellAssembler.Ending.Crashed(reason, CellAssembler.logTail(rawDir));
    }

    /** The cell's deadline passed and its processes were killed; the cell log's tail as it is now goes with it. */
    public void timedOut(String reason) {
        ending = new CellAssembler.Ending.TimedOut(reason, CellAssembler.logTail(rawDir));
    }

    /** Whether the cell has ended early (crashed or timed out) so far. */
    public boolean endedEarly() {
        return !(ending instanceof CellAssembler.Ending.Completed);
    }

    /**
     * The engine's answer: the outcome from the raw directory, what the JVMs were expected to see and the image they
     * ran in (a container's), and the profiles read after the outcome (none for a cell that profiles nothing).
     */
    public Execution answer(
            String backend,
            String driver,
            Attestation.Expectation expected,
            Optional<String> image,
            Optional<String> imageDigest,
            Supplier<List<Profile>> profiles) {
        CellOutcome outcome =
                CellAssembler.assemble(cell, rawDir, variantOrder, variantErrors, expected, image, imageDigest, ending);
        return new Execution(outcome, backend, driver, variantOrder, Optional.empty(), profiles.get());
    }
}
