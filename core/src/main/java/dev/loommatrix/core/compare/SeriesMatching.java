package dev.loommatrix.core.compare;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.Measurement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Which series two runs share: their cells paired by id, each cell's measurements by variant (and a user workload's
 * benchmark with its parameters); what only one side has, and what both have but measured differently.
 */
final class SeriesMatching {

    private SeriesMatching() {}

    /** A baseline and a candidate measurement of the same series of the same cell. */
    record Pairing(String cellId, Measurement before, Measurement after) {}

    /**
     * The two runs matched: their usable cells by id, the pairs to compare, the series on one side only, and those
     * both have but that measured different things.
     */
    record Matched(
            Map<String, CellRecord> before,
            Map<String, CellRecord> after,
            List<Pairing> pairings,
            List<String> onlyBefore,
            List<String> onlyAfter,
            List<CompareReport.NotComparable> unlike) {}

    static Matched match(List<CellRecord> baseline, List<CellRecord> candidate, Comparer.Phase phase) {
        Map<String, CellRecord> before = byId(baseline);
        Map<String, CellRecord> after = byId(candidate);
        Matched matched =
                new Matched(before, after, new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (var entry : before.entrySet()) {
            CellRecord c = after.get(entry.getKey());
            if (c == null) {
                matched.onlyBefore().add(entry.getKey());
            } else {
                matchSeries(entry.getValue(), c, phase, matched);
            }
        }
        after.keySet().stream().filter(id -> !before.containsKey(id)).forEach(matched.onlyAfter()::add);
        return matched;
    }

    /** One cell both sides have: its series paired, listed as one-sided, or listed as not comparable. */
    private static void matchSeries(CellRecord b, CellRecord c, Comparer.Phase phase, Matched into) {
        Map<String, Measurement> candidateSeries = bySeries(c, phase);
        Map<String, Measurement> baselineSeries = bySeries(b, phase);
        baselineSeries.forEach((series, mb) -> {
            Measurement mc = candidateSeries.get(series);
            if (mc == null) {
                into.onlyBefore().add(b.cellId() + " " + series);
            } else {
                (phase == Comparer.Phase.STEADY
                                ? unlikeness(mb, mc)
                                : unlikeness(mb, mc).filter(SeriesMatching::notDesign))
                        .ifPresentOrElse(
                                why -> into.unlike().add(new CompareReport.NotComparable(b.cellId(), series, why)),
                                () -> into.pairings().add(new Pairing(b.cellId(), mb, mc)));
            }
        });
        candidateSeries.keySet().stream()
                .filter(series -> !baselineSeries.containsKey(series))
                .forEach(series -> into.onlyAfter().add(c.cellId() + " " + series));
    }

    /**
     * Why two measurements of the same cell and variant did not measure the same thing, if they did not: the
     * workload's parameters differ (a pull request that changes the quick profile's), the variant's own
     * {@code @Param} values differ, or the metric they are judged by does. Such a pair is listed, never
     * compared: its "change" would be the definition's.
     */
    static Optional<String> unlikeness(Measurement before, Measurement after) {
        if (!before.params().equals(after.params())) {
            return Optional.of(
                    "parameters differ: " + new TreeMap<>(before.params()) + " → " + new TreeMap<>(after.params()));
        }
        var vb = before.benchmark().map(x -> x.variantParams()).orElse(Map.of());
        var va = after.benchmark().map(x -> x.variantParams()).orElse(Map.of());
        if (!vb.equals(va)) {
            return Optional.of("the variant's @Param values differ: " + vb + " → " + va);
        }
        if (before.iterations().isPresent() != after.iterations().isPresent()) {
            // one side's value is a cold single run, the other's the median of warm iterations
            return Optional.of(DESIGN_DIFFERS + describe(before) + " → " + describe(after)
                    + " (compare --phase cold-start compares their first iterations)");
        }
        if (!before.metric().equals(after.metric())) {
            return Optional.of("judged by different metrics: "
                    + before.metric().name() + " (" + before.metric().unit() + ") → "
                    + after.metric().name() + " (" + after.metric().unit() + ")");
        }
        return Optional.empty();
    }

    private static final String DESIGN_DIFFERS = "iterations per fork differ: ";

    /** A reason that is only the forks' design, which a cold-start comparison does not mind. */
    private static boolean notDesign(String why) {
        return !why.startsWith(DESIGN_DIFFERS);
    }

    private static String describe(Measurement m) {
        return m.iterations()
                .map(it -> it.warmup() + " warmup + " + it.measure() + " measured")
                .orElse("one cold run");
    }

    /**
     * A cell's measurements by variant (and, for a user workload, benchmark with its parameters); for the cold
     * start, each judged by its forks' first iterations.
     */
    private static Map<String, Measurement> bySeries(CellRecord cell, Comparer.Phase phase) {
        Map<String, Measurement> map = new LinkedHashMap<>();
        for (Measurement m : cell.measurements()) {
            if (phase == Comparer.Phase.STEADY) {
                map.putIfAbsent(m.series(), m);
            } else if (m.benchmark().isEmpty()) {
                map.putIfAbsent(m.series(), m.coldStartView());
            }
        }
        return map;
    }

    private static Map<String, CellRecord> byId(List<CellRecord> cells) {
        Map<String, CellRecord> map = new LinkedHashMap<>();
        cells.stream()
                .filter(c -> c.status() == CellStatus.OK || !c.measurements().isEmpty())
                .sorted(Comparator.comparing(CellRecord::cellId))
                .forEach(c -> map.put(c.cellId(), c));
        return map;
    }
}
