package dev.loommatrix.runner.ab;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Measurement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * What a cell's pairs took so far, which plans the looks after the first pass (the cost model's estimate, scaled by
 * one pace for all cells, put the undecided cells' next 4 pairs at 249 s where they took 166 s, and 167 s of a
 * 10-minute budget went unused). A pair of only some variants is priced from what each variant's JVM took.
 */
final class Pace {

    private final AbSides.Matched matched;
    private final double[] fullMsPerPair;
    private final Function<String, Optional<CellRecord>> candidateRecord;

    /**
     * @param fullMsPerPair what a pair of every variant of each cell took (by its index among the matched pairs)
     * @param candidateRecord the candidate's record of a cell as last written (empty: not known)
     */
    Pace(AbSides.Matched matched, double[] fullMsPerPair, Function<String, Optional<CellRecord>> candidateRecord) {
        this.matched = matched;
        this.fullMsPerPair = fullMsPerPair.clone();
        this.candidateRecord = candidateRecord;
    }

    /** What a pair of every variant of each cell takes (the first pass measured them all). */
    double[] fullMsPerPair() {
        return fullMsPerPair.clone();
    }

    /** What a round takes: one pair of every cell. */
    double roundMs() {
        return java.util.Arrays.stream(fullMsPerPair).sum();
    }

    /** What a pair of only these variants of cell {@code i} takes (null: all of them). */
    double pairMs(int i, List<String> variants) {
        return fullMsPerPair[i] * variantShare(i, variants, fullMsPerPair[i] / 2);
    }

    /** What confirming these variants of these cells takes: {@code pairs} pairs of each. */
    double confirmingMs(Map<Integer, List<String>> variantsByCell, int pairs) {
        double ms = 0;
        for (var entry : variantsByCell.entrySet()) {
            ms += pairMs(entry.getKey(), entry.getValue()) * pairs;
        }
        return ms;
    }

    /**
     * What share of a whole pair of cell {@code i} a pair of only these variants takes (null: all, 1): the block's
     * own cost (a container, the side's set-up: {@code blockMs}, what a whole block took, less its variants' JVMs) is
     * paid anyway, each variant adds what its JVM took ({@code processMs}, the median over the candidate's blocks).
     */
    private double variantShare(int i, List<String> variants, double blockMs) {
        AbSides.Pair pair = matched.pairs().get(i);
        if (variants == null
                || variants.size() >= pair.candidate().workload().variants().size()) {
            return 1;
        }
        Optional<CellRecord> record = candidateRecord.apply(pair.candidate().id());
        if (record.isEmpty()) {
            return 1;
        }
        double all = 0;
        double these = 0;
        for (Measurement m : record.get().measurements()) {
            double ms = m.medianOf("processMs").orElse(Double.NaN);
            if (!Double.isFinite(ms)) {
                return 1; // what a variant takes is not known: the whole pair's cost, on the safe side
            }
            all += ms;
            these += variants.contains(m.variant()) ? ms : 0;
        }
        double fixed = Math.max(0, blockMs - all);
        return all + fixed <= 0 ? 1 : Math.min(1, (fixed + these) / (fixed + all));
    }
}
