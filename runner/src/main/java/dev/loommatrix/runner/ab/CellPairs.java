package dev.loommatrix.runner.ab;

import dev.loommatrix.core.matrix.WorkloadSpec;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.RunDirectory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * The pairs each cell has, and measuring more of them: a cell's next pairs (in a balanced random order, each as its
 * cell's pairing says), then both sides' records of the cell merged again from every block it has so far.
 */
final class CellPairs {

    private final Blocks blocks;
    private final Pairings pairings;
    private final AbRun.Side baseline;
    private final AbRun.Side candidate;
    private final AbSides.Matched matched;
    private final RunDirectory baselineDir;
    private final RunDirectory candidateDir;
    /** The pairs each cell has so far, by its index among the matched pairs. */
    private final int[] pairs;
    /** {@link #candidateRecord}'s cache: a cell's entry goes when the cell is measured again. */
    private final Map<String, Optional<CellRecord>> candidateRecords = new HashMap<>();

    CellPairs(
            Blocks blocks,
            Pairings pairings,
            AbRun.Side baseline,
            AbRun.Side candidate,
            AbSides.Matched matched,
            RunDirectory baselineDir,
            RunDirectory candidateDir) {
        this.blocks = blocks;
        this.pairings = pairings;
        this.baseline = baseline;
        this.candidate = candidate;
        this.matched = matched;
        this.baselineDir = baselineDir;
        this.candidateDir = candidateDir;
        this.pairs = new int[matched.pairs().size()];
    }

    /** The pairs each cell has so far (a copy). */
    int[] pairs() {
        return pairs.clone();
    }

    int pairsOf(int i) {
        return pairs[i];
    }

    AbSides.Pair pairOf(int i) {
        return matched.pairs().get(i);
    }

    /**
     * Measures {@code count} more pairs of cell {@code i} (only these variants; null: all), then writes both sides'
     * records from every block the cell has so far. False when a block of either side failed (skipped is not
     * failed).
     */
    boolean measure(int i, int count, List<String> variants) throws IOException, InterruptedException {
        AbSides.Pair pair = matched.pairs().get(i);
        String id = pair.candidate().id();
        int from = pairs[i];
        String seed = candidate.manifest().runId();
        List<Boolean> baselineFirst = balancedOrder(seed + "/" + id + "/" + from, count);
        Pairings.Choice how = pairings.of(baseline, candidate, pair, seed);
        for (int k = from; k < from + count && !blocks.stopping(); k++) {
            how.measurer()
                    .measure(
                            only(pair.baseline(), variants),
                            only(pair.candidate(), variants),
                            k,
                            baselineFirst.get(k - from));
        }
        how.whyBackToBack().ifPresent(why -> pairings.backToBack(id, why));
        boolean okBaseline = merge(pair.baseline(), "a", baselineDir, from + count);
        boolean okCandidate = merge(pair.candidate(), "b", candidateDir, from + count);
        candidateRecords.remove(id);
        pairs[i] = from + count;
        return okBaseline && okCandidate;
    }

    /** Writes the side's record of a cell from its first {@code count} blocks; false when not all were ok. */
    private boolean merge(Cell cell, String sideName, RunDirectory into, int count) throws IOException {
        Optional<BlockMerge.Merged> merged = BlockMerge.merge(cell, blocks.records(cell, sideName, count), count);
        if (merged.isEmpty()) {
            return false;
        }
        into.writeCell(merged.get().record());
        return merged.get().ok();
    }

    /**
     * The candidate's record of a cell as last written (empty where it cannot be read): read once after each time
     * the cell is measured (a look asks for it once per undecided comparison — the reserve, the pace of each cell —
     * and it changes only by {@link #measure}).
     */
    Optional<CellRecord> candidateRecord(String cellId) {
        Optional<CellRecord> record = candidateRecords.get(cellId);
        if (record == null) {
            try {
                record = candidateDir.readCell(cellId);
            } catch (IOException unreadable) {
                return Optional.empty(); // what its variants take is not known: priced as the whole cell
            }
            candidateRecords.put(cellId, record);
        }
        return record;
    }

    /** The cell with only these variants (null: the cell as it is). */
    static Cell only(Cell cell, List<String> variants) {
        if (variants == null || variants.equals(cell.workload().variants())) {
            return cell;
        }
        var w = cell.workload();
        return cell.withWorkload(new WorkloadSpec(w.id(), variants, w.params(), w.user(), w.iterations()));
    }

    /** AB or BA for each of {@code count} pairs: half each (the odd one out at random), shuffled. */
    static List<Boolean> balancedOrder(String seed, int count) {
        List<Boolean> order = new ArrayList<>();
        Random random = new Random(seed.hashCode());
        for (int i = 0; i < count; i++) {
            order.add(i < count / 2 || (i == count - 1 && count % 2 == 1 && random.nextBoolean()));
        }
        Collections.shuffle(order, random);
        return order;
    }
}
