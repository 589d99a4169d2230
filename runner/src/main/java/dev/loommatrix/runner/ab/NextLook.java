package dev.loommatrix.runner.ab;

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
 * @param onePairMore the cells that get one pair more than {@code pairs} at the budget's last look: what is left of
 *     the budget after a whole round for every cell, given to the cheapest cells first (an A/A run of the ab
 *     profile ended with 25–40 s of it unspent, less than a round of its seven cells)
 */
public record NextLook(List<Integer> cells, int pairs, boolean last, long ms, boolean fits, Set<Integer> onePairMore) {

    public NextLook {
        cells = List.copyOf(cells);
        onePairMore = Set.copyOf(onePairMore);
    }

    NextLook(List<Integer> cells, int pairs, boolean last, long ms, boolean fits) {
        this(cells, pairs, last, ms, fits, Set.of());
    }

    /** The pairs cell {@code i} has after this look. */
    public int pairsOf(int i) {
        return pairs + (onePairMore.contains(i) ? 1 : 0);
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
        IntToLongFunction cost = costUpTo(cells, pairs, msPerPair);
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
            long limit = cost.applyAsLong(fitting) + reserveMs <= left ? left - reserveMs : left;
            return lastWithSlack(cells, fitting, maxPairs, pairs, msPerPair, cost.applyAsLong(fitting), limit);
        }
        // worst case: every cell of this look going on to the one after it
        last = last || cost.applyAsLong(looks.get(taken + 2)) + reserveMs > left;
        if (last) {
            // the last look takes every pair the budget affords, up to the plan's most
            while (target < maxPairs && cost.applyAsLong(target + 1) + reserveMs <= left) {
                target++;
            }
            return lastWithSlack(cells, target, maxPairs, pairs, msPerPair, cost.applyAsLong(target), left - reserveMs);
        }
        return new NextLook(cells, target, last, cost.applyAsLong(target), true);
    }

    /**
     * The last look at {@code target} pairs a cell, costing {@code ms}, with what is left of {@code limitMs} beside
     * it given as one pair more to the cheapest cells first (none past {@code maxPairs}).
     */
    private static NextLook lastWithSlack(
            List<Integer> cells, int target, int maxPairs, int[] pairs, double[] msPerPair, long ms, long limitMs) {
        Set<Integer> more = new java.util.HashSet<>();
        double total = ms;
        if (target < maxPairs) {
            List<Integer> cheapestFirst = new ArrayList<>(cells);
            cheapestFirst.sort(java.util.Comparator.comparingDouble((Integer i) -> msPerPair[i]));
            for (int i : cheapestFirst) {
                if (pairs[i] < target + 1 && total + msPerPair[i] <= limitMs) {
                    more.add(i);
                    total += msPerPair[i];
                }
            }
        }
        return new NextLook(cells, target, true, (long) total, true, more);
    }

    /**
     * The most pairs, at most {@code cap}, that every one of {@code cells} could reach within {@code limitMs}, were
     * they all to go on: the least of them when not one more pair of each fits.
     */
    public static int reachable(int[] pairs, double[] msPerPair, Set<Integer> cells, long limitMs, int cap) {
        int least = cells.stream().mapToInt(i -> pairs[i]).min().orElse(0);
        IntToLongFunction cost = costUpTo(cells, pairs, msPerPair);
        int t = least;
        while (t < cap && cost.applyAsLong(t + 1) <= limitMs) {
            t++;
        }
        return t;
    }

    /** What measuring these cells up to t pairs each would take (a cell already there: nothing). */
    private static IntToLongFunction costUpTo(java.util.Collection<Integer> cells, int[] pairs, double[] msPerPair) {
        return t -> {
            double ms = 0;
            for (int i : cells) {
                ms += msPerPair[i] * Math.max(0, t - pairs[i]);
            }
            return (long) ms;
        };
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
