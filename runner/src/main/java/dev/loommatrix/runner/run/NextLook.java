package dev.loommatrix.runner.run;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.IntToLongFunction;

/**
 * The next look of a sequential A/B run (issue #30), decided before its data: which cells it measures, up to how
 * many pairs each, and whether it is the last. Without a budget it is the plan's next look. With one, when even the
 * worst case — every cell of the next look going on to the one after — cannot afford the look after the next, the
 * next is the last: it takes every pair the budget affords (room kept to confirm one cell's flag where it can be)
 * and tests at all the α left. What a pair costs is what that cell's pairs took so far.
 *
 * @param cells the indices of the cells it measures (undecided, and below its pairs)
 * @param pairs the pairs each of them has after it
 * @param last whether it is the last look (the plan's, or the budget's)
 * @param ms what measuring it should take
 * @param fits false when not one more pair fits the budget: the run stops before it
 */
public record NextLook(List<Integer> cells, int pairs, boolean last, long ms, boolean fits) {

    public NextLook {
        cells = List.copyOf(cells);
    }

    /**
     * @param looks the plan's looks (pairs per cell at each)
     * @param taken the index of the look just taken
     * @param maxPairs the most pairs the last look may give a cell (the plan's last; with a budget, as many more as
     *     it affords, up to this)
     * @param pairs each cell's pairs so far
     * @param msPerPair what a pair of each cell took so far
     * @param undecided the cells with a comparison still undecided
     * @param leftMs the budget left, if there is a budget
     * @param reserveMs the room kept to confirm one cell's flag
     */
    public static NextLook after(
            List<Integer> looks,
            int taken,
            int maxPairs,
            int[] pairs,
            double[] msPerPair,
            Set<Integer> undecided,
            OptionalLong leftMs,
            long reserveMs) {
        int target = looks.get(taken + 1);
        List<Integer> cells = new ArrayList<>();
        for (int i = 0; i < pairs.length; i++) {
            if (undecided.contains(i) && pairs[i] < target) {
                cells.add(i);
            }
        }
        // what measuring these cells up to t pairs each would take
        IntToLongFunction cost = t -> {
            double ms = 0;
            for (int i : cells) {
                ms += msPerPair[i] * Math.max(0, t - pairs[i]);
            }
            return (long) ms;
        };
        boolean last = taken + 2 >= looks.size();
        if (leftMs.isEmpty()) {
            return new NextLook(cells, target, last, cost.applyAsLong(target), true);
        }
        long left = leftMs.getAsLong();
        int least = cells.stream().mapToInt(i -> pairs[i]).min().orElse(target);
        if (cost.applyAsLong(target) + reserveMs > left) {
            // the plan's next look does not fit: the last look takes the pairs that do, room to confirm a flag kept
            // where it can be
            int fitting = mostPairsWithin(cost, least, target - 1, left - reserveMs);
            if (fitting <= least) {
                fitting = mostPairsWithin(cost, least, target - 1, left);
            }
            if (fitting <= least) {
                return new NextLook(cells, target, true, cost.applyAsLong(target), false);
            }
            return new NextLook(cells, fitting, true, cost.applyAsLong(fitting), true);
        }
        // worst case: every cell of this look going on to the one after it
        last = last || cost.applyAsLong(looks.get(taken + 2)) + reserveMs > left;
        if (last) {
            // the last look takes every pair the budget affords, up to the plan's most
            while (target < maxPairs && cost.applyAsLong(target + 1) + reserveMs <= left) {
                target++;
            }
        }
        return new NextLook(cells, target, last, cost.applyAsLong(target), true);
    }

    /**
     * The most pairs, at most {@code cap}, that every one of {@code cells} could reach within {@code limitMs}, were
     * they all to go on: the least of them when not one more pair of each fits.
     */
    public static int reachable(int[] pairs, double[] msPerPair, Set<Integer> cells, long limitMs, int cap) {
        int least = cells.stream().mapToInt(i -> pairs[i]).min().orElse(0);
        IntToLongFunction cost = t -> {
            double ms = 0;
            for (int i : cells) {
                ms += msPerPair[i] * Math.max(0, t - pairs[i]);
            }
            return (long) ms;
        };
        int t = least;
        while (t < cap && cost.applyAsLong(t + 1) <= limitMs) {
            t++;
        }
        return t;
    }

    /** The most pairs in (least, most] whose cost stays within {@code limitMs}; {@code least} when none does. */
    static int mostPairsWithin(IntToLongFunction cost, int least, int most, long limitMs) {
        for (int t = most; t > least; t--) {
            if (cost.applyAsLong(t) <= limitMs) {
                return t;
            }
        }
        return least;
    }
}
