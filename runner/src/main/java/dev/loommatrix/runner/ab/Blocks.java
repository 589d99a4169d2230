package dev.loommatrix.runner.ab;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.result.RunStatus;
import dev.loommatrix.runner.records.RawResults;
import dev.loommatrix.runner.run.MatrixRun;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The blocks of an A/B run: each one side's cell with one repetition per variant, a matrix run of its own under
 * {@code blocks/<cell>/<pair>-<side>/}; how one is set up and measured, and stopping the ones measuring.
 */
final class Blocks {

    /** A block set up to run: its run, the cell it measures once, where, and the manifest it writes. */
    record Block(MatrixRun run, Cell once, RunDirectory dir, RunManifest manifest) {}

    private final Path root;
    private final AbRun.Settings settings;
    private volatile boolean stopping;
    /** The blocks measuring now: one, or a lockstep pair's two. */
    private final List<MatrixRun> running = new CopyOnWriteArrayList<>();

    /** What a block's manifest says it finished at. */
    private final Clock clock;

    Blocks(Path root, AbRun.Settings settings, Clock clock) {
        this.root = root;
        this.settings = settings;
        this.clock = clock;
    }

    /** Ctrl-C: stops the blocks now measuring, and no more start. */
    void stop(Duration wait) {
        stopping = true;
        running.forEach(r -> r.stop(wait));
    }

    boolean stopping() {
        return stopping;
    }

    Path dir(String cellId, int k, String side) {
        return root.resolve("blocks").resolve(cellId).resolve(k + "-" + side);
    }

    /** Where a lockstep pair's turns are taken (named pipes, gone once the pair is measured). */
    Path turns(String cellId, int k) {
        return root.resolve("blocks").resolve(cellId).resolve(k + "-turns");
    }

    /** Measures one block, back to back with its pair's other. */
    void measure(AbRun.Side side, Cell cell, int k, String sideName, String pairSeed)
            throws IOException, InterruptedException {
        measure(block(side, cell, k, sideName, pairSeed), () -> {});
    }

    /**
     * One block: the side's cell with one repetition per variant (the warmups before the first block only), its
     * variants in the pair's order and on the pair's CPUs ({@link MatrixRun#asBlock}).
     */
    Block block(AbRun.Side side, Cell cell, int k, String sideName, String pairSeed) {
        Cell once = new Cell(
                cell.coordinates(),
                cell.jdk(),
                cell.workload(),
                cell.jvmArgs(),
                cell.env(),
                1,
                k == 0 ? cell.warmup() : 0,
                cell.iterations(),
                cell.timeout(),
                cell.memoryBytes(),
                cell.pids());
        RunDirectory dir = new RunDirectory(dir(cell.id(), k, sideName));
        RunManifest manifest = side.manifest().withCells(List.of(cell.id()));
        // both sides of pair k: the same variant order and the same CPUs
        MatrixRun run = new MatrixRun(
                        dir,
                        new PrintStream(OutputStream.nullOutputStream()),
                        settings.choice(),
                        side.docker(),
                        side.local())
                .asBlock(pairSeed + "/" + cell.id() + "/" + k)
                // a disturbed block is measured again (bounded) or called invalid, as run does a cell
                .onDisturbed(settings.onDisturbed());
        return new Block(run, once, dir, manifest);
    }

    /** Measures a block, then says so ({@code ended}: a lockstep pair's other side then takes its turns alone). */
    Void measure(Block block, Runnable ended) throws IOException, InterruptedException {
        running.add(block.run());
        try {
            if (!stopping) {
                block.run().run(block.manifest(), List.of(block.once()), MatrixRun.Resume.NO);
                block.dir()
                        .writeManifest(block.manifest().finish(clock.instant().toString(), RunStatus.FINISHED));
            }
        } finally {
            running.remove(block.run());
            ended.run();
        }
        return null;
    }

    /** A side's records of a cell from its first {@code pairs} blocks, by block number (a block without one: none). */
    SortedMap<Integer, CellRecord> records(Cell cell, String sideName, int pairs) throws IOException {
        SortedMap<Integer, CellRecord> records = new TreeMap<>();
        for (int k = 0; k < pairs; k++) {
            Optional<CellRecord> record = new RunDirectory(dir(cell.id(), k, sideName)).readCell(cell.id());
            if (record.isPresent()) {
                records.put(k, record.get());
            }
        }
        return records;
    }

    /**
     * Every fork's record of a block, for where its turns began; none where they cannot be read (a failed block's
     * reason is its cell's, reported with it: this count only leaves it out).
     */
    List<RawResults.HarnessRecord> forkRecords(Cell cell, int k, String sideName) {
        try {
            return RawResults.allRecords(
                    dir(cell.id(), k, sideName).resolve("raw").resolve(cell.id()));
        } catch (IOException | RuntimeException unreadable) {
            return List.of();
        }
    }
}
