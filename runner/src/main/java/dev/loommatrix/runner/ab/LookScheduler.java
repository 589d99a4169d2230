package dev.loommatrix.runner.ab;

import dev.loommatrix.core.compare.Comparison;
import dev.loommatrix.core.compare.SequentialPlan;
import dev.loommatrix.core.plan.Cell;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * The looks after the first pass (issue #30): after each look, which cells get how many more pairs, which
 * comparisons are measured no more, and when measuring stops — every comparison decided, none left that could be,
 * the budget spent, the plan's or the budget's last look taken. Pure: it decides from the plan, what each cell's
 * pairs took ({@link Pace}), the pairs each cell has, the budget left and the comparisons of the look just taken;
 * {@link AbRun} measures what it says.
 */
final class LookScheduler {

    /** Why measuring ended, as {@code compare.json}'s {@code ab.sequential.ended} says it. */
    static final String DECIDED = "decided";

    static final String BUDGET = "budget";
    static final String FUTILE = "futile";
    static final String LAST_LOOK = "last-look";

    private final AbRun.Settings settings;
    private final AbSides.Matched matched;

    LookScheduler(AbRun.Settings settings, AbSides.Matched matched) {
        this.settings = settings;
        this.matched = matched;
    }

    /** What to do after a look. */
    sealed interface Decision {
        /** Every comparison is decided, or measured no more: {@code ended} says which. */
        record Done(String ended) implements Decision {}

        /** None of the {@code undecided} comparisons could be decided within {@code most} pairs: stop ("futile"). */
        record Futile(Map<String, String> stopped, int undecided, int most) implements Decision {}

        /** Not one more pair of the next look fits the {@code leftMs} of the budget: stop ("budget"). */
        record OutOfBudget(Map<String, String> stopped, NextLook next, long leftMs) implements Decision {}

        /**
         * Take the next look: its cells' pairs ({@code next}), each measuring only these variants (null: all); the
         * comparisons measured no more could not be decided within {@code most} pairs.
         */
        record Measure(Map<String, String> stopped, NextLook next, Map<Integer, List<String>> variants, int most)
                implements Decision {}
    }

    /**
     * Whether the first look is the last: the plan has one, or not one more pair of every cell fits the budget after
     * it (otherwise the next look — made the last, if it must be, with the pairs that fit — spends the α left).
     */
    boolean firstIsLast(long elapsedMs, Pace pace) {
        boolean last = settings.plan().looks().size() == 1;
        if (!last && settings.budget().isPresent()) {
            last = elapsedMs + pace.roundMs() > settings.budget().get().toMillis();
        }
        return last;
    }

    /** Why measuring ends when the first look is the last: the budget made it so, or it was the plan's only one. */
    String endedAtFirst(boolean last) {
        return last && settings.plan().looks().size() > 1 ? BUDGET : LAST_LOOK;
    }

    /**
     * After look {@code look} (from 0), whose comparisons are {@code comparisons}: what to do next.
     *
     * @param stopped the comparisons measured no more so far ("cell series" → why)
     * @param pairs the pairs each cell has, by its index among the matched pairs
     * @param leftMs what is left of the budget, if there is one
     */
    Decision after(
            int look,
            List<Comparison> comparisons,
            Map<String, String> stopped,
            int[] pairs,
            Pace pace,
            OptionalLong leftMs) {
        List<Comparison> undecided = comparisons.stream()
                .filter(c -> !SequentialPlan.decided(c, settings.threshold()))
                .filter(c -> !stopped.containsKey(seriesKey(c)))
                .toList();
        if (undecided.isEmpty()) {
            return new Decision.Done(stopped.isEmpty() ? DECIDED : FUTILE);
        }
        List<Comparison> flagged =
                comparisons.stream().filter(LookScheduler::isFlagged).toList();
        int most = mostPairs(look, undecided, pairs, pace, leftMs, confirmReserveMs(pace, flagged, undecided));
        Map<String, String> futile = new TreeMap<>();
        List<Comparison> live = new ArrayList<>();
        double mostLevel = settings.plan().level(look + 1, true);
        for (Comparison c : undecided) {
            var halfWidth = SequentialPlan.futileHalfWidth(c, most, mostLevel, settings.threshold());
            if (halfWidth.isPresent()) {
                futile.put(seriesKey(c), futileWhy(c, most, halfWidth.getAsDouble(), pairs[indexOf(c.cellId())]));
            } else {
                live.add(c);
            }
        }
        if (live.isEmpty()) {
            return new Decision.Futile(futile, undecided.size(), most);
        }
        // each cell measures only the variants of its comparisons still live (every variant is a JVM of its own; a
        // suite's benchmarks share their variant's)
        Map<Integer, List<String>> variants = liveVariants(matched, live);
        double[] msPerPair = new double[pairs.length];
        for (int i = 0; i < pairs.length; i++) {
            msPerPair[i] = pace.pairMs(i, variants.get(i));
        }
        NextLook next = NextLook.after(
                settings.plan().looks(),
                look,
                settings.lastLookPairs(),
                pairs,
                msPerPair,
                variants.keySet(),
                leftMs,
                confirmReserveMs(pace, flagged, live));
        if (!next.fits()) {
            return new Decision.OutOfBudget(futile, next, leftMs.orElse(0));
        }
        return new Decision.Measure(futile, next, variants, most);
    }

    /**
     * The most pairs an undecided comparison's cell can still get — futility asks whether it could be decided within
     * them: the budget's last look's, were every undecided cell to go on, else the plan's most (a cheap cell the
     * budget can take past the plan's last: as far as it could go were every undecided cell to go on). A comparison
     * that could not clear the threshold either side at them is measured no more — the budget goes to the
     * comparisons that can be decided (an A/A run of the ab profile spent a third of each round on echo-server,
     * mass-start virtual and thread-local pool:cpus, 10–45 % detectable whatever they got).
     */
    private int mostPairs(
            int look, List<Comparison> undecided, int[] pairs, Pace pace, OptionalLong leftMs, long reserveMs) {
        Set<Integer> cells = liveVariants(matched, undecided).keySet();
        double[] fullMsPerPair = pace.fullMsPerPair();
        NextLook whole = NextLook.after(
                settings.plan().looks(),
                look,
                settings.lastLookPairs(),
                pairs,
                fullMsPerPair,
                cells,
                leftMs,
                reserveMs);
        if (whole.last() && whole.fits()) {
            return whole.pairs();
        }
        return Math.max(
                settings.plan().maxPairs(),
                NextLook.reachable(
                        pairs, fullMsPerPair, cells, leftMs.orElse(0) - reserveMs, settings.lastLookPairs()));
    }

    /**
     * The room kept to confirm flags (issue #30): {@code confirmBlocks} pairs of every cell with a comparison flagged
     * so far (its flagged variants': a confirmation measures only them), and of the dearest comparison still
     * undecided (its own variant's: one more flag). A whole pair of the dearest cell, kept before, left 58–63 s of
     * an A/A run's 600 unspent, and did not cover two cells flagged.
     */
    private long confirmReserveMs(Pace pace, List<Comparison> flagged, List<Comparison> undecided) {
        double dearest = 0;
        for (Comparison c : undecided) {
            dearest = Math.max(dearest, pace.confirmingMs(liveVariants(matched, List.of(c)), settings.confirmBlocks()));
        }
        return (long) (pace.confirmingMs(liveVariants(matched, flagged), settings.confirmBlocks()) + dearest);
    }

    /** The cells to confirm, each with its flagged variants (a confirmation measures only them). */
    Map<Integer, List<String>> toConfirm(List<Comparison> comparisons) {
        return liveVariants(
                matched, comparisons.stream().filter(LookScheduler::isFlagged).toList());
    }

    /**
     * Why measuring ended, once it has: decided when the last look (the plan's or the budget's) left every
     * comparison decided, else as the looks left it ({@code endedSoFar}).
     */
    String ended(String endedSoFar, int look, boolean last, List<Comparison> comparisons) {
        boolean lastTaken = last || look + 1 == settings.plan().looks().size();
        return lastTaken && comparisons.stream().allMatch(c -> SequentialPlan.decided(c, settings.threshold()))
                ? DECIDED
                : endedSoFar;
    }

    /** Why a comparison is measured no more, in the report's words. */
    private String futileWhy(Comparison c, int most, double halfWidth, int pairs) {
        return String.format(
                Locale.ROOT,
                "at its noise (%.1f %% a pair) its interval would still be ±%.1f %% at %d pairs, too wide to clear ±%.0f"
                        + " %% either side from %+.1f %%; stopped after %d pairs",
                c.noise() * 100,
                Math.expm1(halfWidth) * 100,
                most,
                settings.threshold() * 100,
                (c.ratio() - 1) * 100,
                pairs);
    }

    /** The index of a cell among the matched pairs. */
    private int indexOf(String cellId) {
        for (int i = 0; i < matched.pairs().size(); i++) {
            if (matched.pairs().get(i).candidate().id().equals(cellId)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no such cell: " + cellId);
    }

    /**
     * Per cell index of these comparisons, the variants to measure: those of the comparisons, in the cell's order.
     * Every variant is a JVM of its own — a built-in workload's, a program's, a JMH suite's run (its benchmarks
     * share it: a variant with one live benchmark is measured with all of them) — so a variant decided or stopped
     * is measured no more. Null (the whole cell) only when no comparison names one of the cell's variants.
     */
    static Map<Integer, List<String>> liveVariants(AbSides.Matched matched, List<Comparison> comparisons) {
        Map<Integer, List<String>> out = new TreeMap<>();
        for (int i = 0; i < matched.pairs().size(); i++) {
            Cell cell = matched.pairs().get(i).candidate();
            List<String> named = comparisons.stream()
                    .filter(c -> c.cellId().equals(cell.id()))
                    .map(Comparison::variant)
                    .toList();
            if (named.isEmpty()) {
                continue;
            }
            List<String> variants =
                    cell.workload().variants().stream().filter(named::contains).toList();
            out.put(i, variants.isEmpty() ? null : variants);
        }
        return out;
    }

    /** "cell series": a comparison's key in the report's lists. */
    static String seriesKey(Comparison c) {
        return c.cellId() + " " + c.series();
    }

    static boolean isFlagged(Comparison c) {
        return c.verdict() == Comparison.Verdict.regression || c.verdict() == Comparison.Verdict.improvement;
    }
}
