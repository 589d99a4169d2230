package dev.loommatrix.core.compare;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.stats.MannWhitney;
import dev.loommatrix.core.stats.MetricDescriptor;
import dev.loommatrix.core.stats.RatioInterval;
import dev.loommatrix.core.stats.SignedRank;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pairs two runs' cells by id and variant (and a user workload's benchmark) and decides, per pair, whether the candidate regressed.
 *
 * <p>A regression must be both <em>significant</em> — a two-sided Mann-Whitney U test on the repetition
 * samples (exact permutation p for small samples, ties included: {@link MannWhitney}), with
 * Benjamini–Hochberg control of the false discovery rate across all comparisons at {@code alpha} — and
 * <em>large</em>: the ratio of medians beyond the threshold in the bad direction. So a noisy cell whose
 * median moved by chance is not flagged (not significant), nor is a real but small shift (within the
 * threshold). Where the sample sizes and the number of comparisons make significance impossible (3 vs 3
 * cannot go below p = 0.1; 5 vs 5 among more than 6 comparisons cannot pass BH), the verdict is
 * {@code inconclusive}, never a silent "unchanged".
 */
public final class Comparer {

    private Comparer() {}

    /**
     * Which state of the JVM a comparison is about. {@code STEADY}: each fork's value (the median of its measured
     * iterations, or its one run). {@code COLD_START}: each fork's first iteration — {@code coldStartMs} where the
     * forks ran more than one, else their one run, which is a cold start too; user workloads have no cold start
     * of ours (their iterations are their own) and are left out.
     */
    public enum Phase {
        STEADY,
        COLD_START
    }

    public static CompareReport compare(
            String baselineId,
            List<CellRecord> baseline,
            String candidateId,
            List<CellRecord> candidate,
            double threshold,
            double alpha) {
        return compare(baselineId, baseline, candidateId, candidate, threshold, alpha, Phase.STEADY);
    }

    public static CompareReport compare(
            String baselineId,
            List<CellRecord> baseline,
            String candidateId,
            List<CellRecord> candidate,
            double threshold,
            double alpha,
            Phase phase) {
        Map<String, CellRecord> before = byId(baseline);
        Map<String, CellRecord> after = byId(candidate);
        List<Pairing> pairings = new ArrayList<>();
        List<String> onlyBefore = new ArrayList<>();
        List<String> onlyAfter = new ArrayList<>();
        List<CompareReport.NotComparable> unlike = new ArrayList<>();
        for (var entry : before.entrySet()) {
            CellRecord b = entry.getValue();
            CellRecord c = after.get(entry.getKey());
            if (c == null) {
                onlyBefore.add(entry.getKey());
                continue;
            }
            Map<String, Measurement> candidateSeries = bySeries(c, phase);
            Map<String, Measurement> baselineSeries = bySeries(b, phase);
            baselineSeries.forEach((series, mb) -> {
                Measurement mc = candidateSeries.get(series);
                if (mc == null) {
                    onlyBefore.add(b.cellId() + " " + series);
                } else {
                    (phase == Phase.STEADY
                                    ? unlikeness(mb, mc)
                                    : unlikeness(mb, mc).filter(Comparer::notDesign))
                            .ifPresentOrElse(
                                    why -> unlike.add(new CompareReport.NotComparable(b.cellId(), series, why)),
                                    () -> pairings.add(new Pairing(b.cellId(), mb, mc)));
                }
            });
            candidateSeries.keySet().stream()
                    .filter(series -> !baselineSeries.containsKey(series))
                    .forEach(series -> onlyAfter.add(c.cellId() + " " + series));
        }
        after.keySet().stream().filter(id -> !before.containsKey(id)).forEach(onlyAfter::add);

        // The number of comparisons is known before any is made: which test a pair gets (paired where the
        // pairing can reach significance among this many) depends on it, never on the data.
        long m = Math.max(1, pairings.size());
        List<Comparison> raw = pairings.stream()
                .map(p -> compare(
                        p.cellId(), p.before(), p.after(), p.before().metric(), alpha / m, threshold, 1 - alpha))
                .toList();
        List<Comparison> decided = decide(raw, threshold, alpha);
        int regressions = (int) decided.stream()
                .filter(c -> c.verdict() == Comparison.Verdict.regression)
                .count();
        int improvements = (int) decided.stream()
                .filter(c -> c.verdict() == Comparison.Verdict.improvement)
                .count();
        return new CompareReport(
                CompareReport.SCHEMA_VERSION,
                baselineId,
                candidateId,
                threshold,
                alpha,
                decided,
                regressions,
                improvements,
                onlyBefore,
                onlyAfter,
                unlike,
                repetitionsNeeded(
                        alpha,
                        decided.stream().filter(c -> !Double.isNaN(c.pValue())).count()),
                resolution(pairings, decided, alpha),
                null,
                headlines(before, after, phase),
                disturbed(before, after, pairings));
    }

    /** The compared cells measured beside other work, on either side (issue #32). */
    static List<CompareReport.Disturbed> disturbed(
            Map<String, CellRecord> before, Map<String, CellRecord> after, List<Pairing> pairings) {
        List<CompareReport.Disturbed> out = new ArrayList<>();
        pairings.stream().map(Pairing::cellId).distinct().sorted().forEach(id -> {
            for (var side : List.of(Map.entry("baseline", before), Map.entry("candidate", after))) {
                CellRecord cell = side.getValue().get(id);
                if (cell != null) {
                    cell.execution()
                            .interference()
                            .flatMap(dev.loommatrix.core.result.Interference::disturbed)
                            .ifPresent(figure -> out.add(new CompareReport.Disturbed(id, side.getKey(), figure)));
                }
            }
        });
        return out;
    }

    /** Each cell both sides have, with the candidate's headline contrast: its value before and after. */
    static List<CompareReport.Headline> headlines(
            Map<String, CellRecord> before, Map<String, CellRecord> after, Phase phase) {
        List<CompareReport.Headline> out = new ArrayList<>();
        for (var entry : after.entrySet()) {
            CellRecord c = entry.getValue();
            CellRecord b = before.get(entry.getKey());
            if (b == null || c.contrast().isEmpty()) {
                continue;
            }
            var contrast = c.contrast().get();
            var baselineSide = headlineValue(b, contrast, phase);
            var candidateSide = headlineValue(c, contrast, phase);
            if (baselineSide.isEmpty() && candidateSide.isEmpty()) {
                continue;
            }
            out.add(new CompareReport.Headline(
                    c.cellId(),
                    contrast.words(),
                    contrast.kind() == dev.loommatrix.core.matrix.Contrast.Kind.SPEEDUP ? "speedup" : "efficiency",
                    contrast.subject(),
                    contrast.reference(),
                    baselineSide,
                    candidateSide));
        }
        out.sort(java.util.Comparator.comparing(CompareReport.Headline::cellId));
        return out;
    }

    /**
     * A cell's value of a headline as the dashboard's tile shows it: the recorded speedup of the subject over the
     * reference in the phase compared (the first benchmark's, for a user workload), or the subject's efficiency
     * against its bound (a load test's throughput efficiency).
     */
    public static java.util.Optional<CompareReport.Side> headlineValue(
            CellRecord cell, dev.loommatrix.core.matrix.Contrast contrast, Phase phase) {
        if (contrast.kind() == dev.loommatrix.core.matrix.Contrast.Kind.SPEEDUP) {
            boolean cold = phase == Phase.COLD_START;
            return cell.speedups().stream()
                    .filter(s -> s.over().equals(contrast.subject())
                            && contrast.reference().map(s.variant()::equals).orElse(false)
                            && s.metric().equals(dev.loommatrix.core.stats.MetricDescriptor.COLD_START_MS.name())
                                    == cold)
                    .findFirst()
                    .map(s -> new CompareReport.Side(s.ratio(), s.ci95()));
        }
        return cell.measurement(contrast.subject())
                .flatMap(m -> m.efficiency().or(() -> m.medianOf("throughputEfficiency")))
                .map(v -> new CompareReport.Side(v, null));
    }

    /** A baseline and a candidate measurement of the same series of the same cell. */
    private record Pairing(String cellId, Measurement before, Measurement after) {}

    /**
     * Why two measurements of the same cell and variant did not measure the same thing, if they did not: the
     * workload's parameters differ (a pull request that changes the quick profile's), the variant's own
     * {@code @Param} values differ, or the metric they are judged by does. Such a pair is listed, never
     * compared: its "change" would be the definition's.
     */
    static java.util.Optional<String> unlikeness(Measurement before, Measurement after) {
        if (!before.params().equals(after.params())) {
            return java.util.Optional.of("parameters differ: " + new java.util.TreeMap<>(before.params()) + " → "
                    + new java.util.TreeMap<>(after.params()));
        }
        var vb = before.benchmark().map(x -> x.variantParams()).orElse(Map.of());
        var va = after.benchmark().map(x -> x.variantParams()).orElse(Map.of());
        if (!vb.equals(va)) {
            return java.util.Optional.of("the variant's @Param values differ: " + vb + " → " + va);
        }
        if (before.iterations().isPresent() != after.iterations().isPresent()) {
            // one side's value is a cold single run, the other's the median of warm iterations
            return java.util.Optional.of(DESIGN_DIFFERS + describe(before) + " → " + describe(after)
                    + " (compare --phase cold-start compares their first iterations)");
        }
        if (!before.metric().equals(after.metric())) {
            return java.util.Optional.of("judged by different metrics: "
                    + before.metric().name() + " (" + before.metric().unit() + ") → "
                    + after.metric().name() + " (" + after.metric().unit() + ")");
        }
        return java.util.Optional.empty();
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
    private static Map<String, Measurement> bySeries(CellRecord cell, Phase phase) {
        Map<String, Measurement> map = new LinkedHashMap<>();
        for (Measurement m : cell.measurements()) {
            if (phase == Phase.STEADY) {
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

    /**
     * One comparison. Measurements of an A/B run (both with {@link Measurement#blocks()}) pair block k of
     * the baseline with block k of the candidate, which ran back to back: when the signed-rank test on the
     * pairs' log-ratios can reach {@code loneLevel} (α / m) it is used, with its interval at {@code
     * intervalLevel}, else Mann-Whitney on the samples.
     */
    private static Comparison compare(
            String cellId,
            Measurement before,
            Measurement after,
            MetricDescriptor metric,
            double loneLevel,
            double threshold,
            double intervalLevel) {
        double[] x = before.values(metric.name());
        double[] y = after.values(metric.name());
        double bm = RatioInterval.median(x);
        double cm = RatioInterval.median(y);
        long seed = (cellId + "/" + before.series()).hashCode();
        boolean abRun = before.blocks().isPresent() && after.blocks().isPresent();
        double[] d = abRun ? pairedLogRatios(before, after, metric.name()) : new double[0];
        // the nested model where every fork of every pair measured iterations and no side's forks split into
        // two modes; else the fork-level signed-rank test where pairing can reach α / m; else Mann-Whitney
        Forks forks = abRun ? forks(before, after, metric.name()) : Forks.NONE;
        java.util.Optional<dev.loommatrix.core.stats.NestedPaired.Result> nested = forks.usable()
                ? dev.loommatrix.core.stats.NestedPaired.test(forks.differences(), intervalLevel)
                : java.util.Optional.empty();
        boolean paired = nested.isEmpty() && d.length > 0 && SignedRank.smallestP(d.length) <= loneLevel;
        double p;
        double ratio;
        RatioInterval.Result ci;
        if (nested.isPresent()) {
            p = nested.get().pValue();
            ratio = Math.exp(nested.get().meanLogRatio());
            ci = new RatioInterval.Result(
                    nested.get().interval().stream().map(Math::exp).toList(), intervalLevel);
        } else if (paired) {
            p = SignedRank.pValue(d);
            ratio = Math.exp(SignedRank.hodgesLehmann(d));
            // at the level of the test (95 % at α = 5 %; a sequential look's 1 − α / J)
            RatioInterval.Result logInterval = SignedRank.interval(d, intervalLevel);
            ci = new RatioInterval.Result(
                    logInterval.bounds().stream().map(Math::exp).toList(), logInterval.level());
        } else {
            p = MannWhitney.pValue(x, y);
            ratio = cm / bm;
            ci = RatioInterval.of(x, y, seed);
        }
        Double detectable = null;
        Double noise = null;
        if (nested.isPresent()) {
            detectable = Math.max(
                    threshold,
                    Math.expm1(dev.loommatrix.core.stats.NestedPaired.detectableShift(nested.get(), loneLevel)));
            noise = Math.expm1(nested.get().sdLogRatio());
        } else if (abRun && x.length > 0 && y.length > 0 && positive(x) && positive(y)) {
            // what this run could resolve is said for every comparison of an A/B run
            double shift = paired ? Resolving.pairedShift(d, loneLevel) : Resolving.unpairedShift(x, y, loneLevel);
            detectable = Double.isNaN(shift) ? null : Math.max(threshold, Math.expm1(shift));
            noise = Math.expm1(
                    paired ? Resolving.spread(d) : Math.hypot(Resolving.spread(logs(x)), Resolving.spread(logs(y))));
        }
        // Provisional; decide() knows how many comparisons there are and gives every verdict.
        return new Comparison(
                cellId,
                before.variant(),
                metric.name(),
                metric.higherIsBetter(),
                new Comparison.Side(x.length, bm),
                new Comparison.Side(y.length, cm),
                ratio,
                ci.bounds(),
                p,
                Double.NaN,
                Comparison.Verdict.unchanged,
                before.benchmark().map(dev.loommatrix.core.result.Benchmark::label),
                Double.isNaN(ci.level()) ? null : ci.level(),
                nested.isPresent() ? Comparison.NESTED_T : paired ? Comparison.SIGNED_RANK : Comparison.MANN_WHITNEY,
                nested.isPresent() ? Integer.valueOf(nested.get().pairs()) : paired ? Integer.valueOf(d.length) : null,
                detectable,
                noise,
                null,
                forks.description());
    }

    /**
     * An A/B comparison's forks with their iterations: per pair both sides measured, each side's forks (a JMH
     * fork, or a built-in workload's fresh JVM) and each fork's measured iterations of the judged metric.
     *
     * @param differences per pair, the candidate's mean of log iterations less the baseline's (the forks of a
     *     side in one block averaged)
     * @param usable whether the nested model applies: at least 4 pairs, 3 iterations in every fork, and no side's
     *     forks in two modes
     */
    record Forks(double[] differences, boolean usable, Comparison.Nested description) {
        static final Forks NONE = new Forks(new double[0], false, null);
    }

    static Forks forks(Measurement before, Measurement after, String metric) {
        Map<Integer, List<double[]>> b = iterationsByBlock(before, metric);
        Map<Integer, List<double[]>> a = iterationsByBlock(after, metric);
        List<Double> differences = new ArrayList<>();
        List<double[]> baselineForks = new ArrayList<>();
        List<double[]> candidateForks = new ArrayList<>();
        int fewest = Integer.MAX_VALUE;
        for (var entry : new java.util.TreeMap<>(b).entrySet()) {
            List<double[]> candidate = a.get(entry.getKey());
            if (candidate == null || candidate.isEmpty() || entry.getValue().isEmpty()) {
                continue;
            }
            for (List<double[]> side : List.of(entry.getValue(), candidate)) {
                for (double[] fork : side) {
                    fewest = Math.min(fewest, fork.length);
                    if (!positive(fork)) {
                        return Forks.NONE;
                    }
                }
            }
            baselineForks.addAll(entry.getValue());
            candidateForks.addAll(candidate);
            differences.add(mean(dev.loommatrix.core.stats.NestedPaired.forkMeans(candidate))
                    - mean(dev.loommatrix.core.stats.NestedPaired.forkMeans(entry.getValue())));
        }
        if (differences.isEmpty() || fewest < 2) {
            return Forks.NONE;
        }
        String modesText = modesOf("baseline", baselineForks)
                .or(() -> modesOf("candidate", candidateForks))
                .orElse(null);
        var components = dev.loommatrix.core.stats.NestedPaired.components(baselineForks);
        Comparison.Nested description = new Comparison.Nested(
                components.map(c -> Math.expm1(c.betweenForks())).orElse(null),
                components.map(c -> Math.expm1(c.withinForks())).orElse(null),
                components
                        .map(dev.loommatrix.core.stats.NestedPaired.Components::iterationsPerFork)
                        .orElse(null),
                modesText);
        boolean usable = differences.size() >= dev.loommatrix.core.stats.NestedPaired.MIN_PAIRS
                && fewest >= dev.loommatrix.core.stats.NestedPaired.MIN_ITERATIONS
                && modesText == null;
        return new Forks(differences.stream().mapToDouble(Double::doubleValue).toArray(), usable, description);
    }

    /** A side's forks in two modes, in words; empty when they are in one. */
    private static java.util.Optional<String> modesOf(String side, List<double[]> forks) {
        return dev.loommatrix.core.stats.NestedPaired.modes(dev.loommatrix.core.stats.NestedPaired.forkMeans(forks))
                .map(m -> String.format(
                        java.util.Locale.ROOT,
                        "the %s's forks in two modes: %d near %.4g, %d near %.4g (not averaged: the fork-level test is"
                                + " used)",
                        side,
                        m.low(),
                        Math.exp(m.lowMedian()),
                        m.high(),
                        Math.exp(m.highMedian())));
    }

    private static double mean(double[] values) {
        return Arrays.stream(values).average().orElse(Double.NaN);
    }

    /**
     * A measurement's forks per A/B block, each fork its measured iterations of the judged metric: a JMH
     * benchmark's {@code iterations} (per fork, its scores), a built-in workload's {@code iterationsWallMs} past
     * its warmup when judged by {@code wallMs}. Empty when the samples keep no iterations of that metric.
     */
    static Map<Integer, List<double[]>> iterationsByBlock(Measurement m, String metric) {
        Map<Integer, List<double[]>> out = new LinkedHashMap<>();
        List<Integer> blocks = m.blocks().orElse(List.of());
        boolean jmh = m.benchmark().isPresent();
        int warmup = m.iterations().map(it -> it.warmup()).orElse(0);
        for (int i = 0; i < m.samples().size() && i < blocks.size(); i++) {
            var facts = m.samples().get(i).facts();
            List<double[]> forks = new ArrayList<>();
            if (jmh && facts.get("iterations") instanceof List<?> perFork) {
                for (Object fork : perFork) {
                    if (fork instanceof List<?> values) {
                        forks.add(numbers(values));
                    }
                }
            } else if (!jmh && metric.equals("wallMs") && facts.get("iterationsWallMs") instanceof List<?> values) {
                double[] all = numbers(values);
                if (all.length > warmup) {
                    forks.add(Arrays.copyOfRange(all, warmup, all.length));
                }
            }
            if (forks.isEmpty()) {
                return Map.of();
            }
            out.computeIfAbsent(blocks.get(i), k -> new ArrayList<>()).addAll(forks);
        }
        return out;
    }

    private static double[] numbers(List<?> values) {
        return values.stream()
                .filter(Number.class::isInstance)
                .mapToDouble(v -> ((Number) v).doubleValue())
                .toArray();
    }

    /**
     * ln(candidate / baseline) per block both sides measured, in block order; each side's value in a
     * block is the median of its samples there (a JMH run's forks, say). Empty when any value is not
     * positive (a log-ratio is then not defined).
     */
    static double[] pairedLogRatios(Measurement before, Measurement after, String metric) {
        Map<Integer, double[]> b = byBlock(before, metric);
        Map<Integer, double[]> a = byBlock(after, metric);
        List<Double> out = new ArrayList<>();
        for (var entry : new java.util.TreeMap<>(b).entrySet()) {
            double[] candidate = a.get(entry.getKey());
            if (candidate == null) {
                continue;
            }
            double vb = RatioInterval.median(entry.getValue());
            double va = RatioInterval.median(candidate);
            if (!(vb > 0 && va > 0)) {
                return new double[0];
            }
            out.add(Math.log(va) - Math.log(vb));
        }
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** A measurement's values of one metric per A/B block. */
    static Map<Integer, double[]> byBlock(Measurement m, String metric) {
        Map<Integer, List<Double>> values = new LinkedHashMap<>();
        List<Integer> blocks = m.blocks().orElse(List.of());
        for (int i = 0; i < m.samples().size() && i < blocks.size(); i++) {
            int block = blocks.get(i);
            m.samples().get(i).metric(metric).ifPresent(v -> values.computeIfAbsent(block, k -> new ArrayList<>())
                    .add(v));
        }
        Map<Integer, double[]> out = new LinkedHashMap<>();
        values.forEach(
                (k, v) -> out.put(k, v.stream().mapToDouble(Double::doubleValue).toArray()));
        return out;
    }

    /**
     * The run's own noise, for an A/B run: the baseline against itself — its odd blocks' median against its
     * even blocks' — per comparison, and the median detectable change. Null when no comparison has blocks.
     */
    static CompareReport.Resolution resolution(List<Pairing> pairings, List<Comparison> decided, double alpha) {
        List<Double> aToA = new ArrayList<>();
        for (Pairing p : pairings) {
            if (p.before().blocks().isEmpty()) {
                continue;
            }
            var blocks = new java.util.TreeMap<>(
                    byBlock(p.before(), p.before().metric().name()));
            List<Double> odd = new ArrayList<>();
            List<Double> even = new ArrayList<>();
            int k = 0;
            for (double[] values : blocks.values()) {
                (k++ % 2 == 0 ? even : odd).add(RatioInterval.median(values));
            }
            double mo = RatioInterval.median(
                    odd.stream().mapToDouble(Double::doubleValue).toArray());
            double me = RatioInterval.median(
                    even.stream().mapToDouble(Double::doubleValue).toArray());
            if (odd.size() >= 2 && even.size() >= 2 && mo > 0 && me > 0) {
                aToA.add(Math.abs(Math.expm1(Math.abs(Math.log(mo / me)))));
            }
        }
        if (aToA.isEmpty()) {
            return null;
        }
        // a comparison that could detect no change at all (its test cannot reach α / m: no detectable, but a noise)
        // counts as the least able, +∞; left out, it made the median look better than the run was
        double[] detectable = decided.stream()
                .filter(c -> c.detectable() != null || c.detectsNothing())
                .mapToDouble(c -> c.detectsNothing() ? Double.POSITIVE_INFINITY : c.detectable())
                .toArray();
        double detectableMedian = detectable.length == 0 ? Double.NaN : RatioInterval.median(detectable);
        int pairsNeeded = SequentialPlan.pairsNeeded(alpha, decided.size());
        return new CompareReport.Resolution(
                aToA.size(),
                RatioInterval.median(
                        aToA.stream().mapToDouble(Double::doubleValue).toArray()),
                aToA.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN),
                Double.isFinite(detectableMedian) ? detectableMedian : null,
                pairsNeeded);
    }

    private static boolean positive(double[] values) {
        return Arrays.stream(values).allMatch(v -> v > 0);
    }

    private static double[] logs(double[] values) {
        return Arrays.stream(values).map(Math::log).toArray();
    }

    /**
     * Benjamini–Hochberg over the comparisons that have a p-value, then each verdict. A comparison is
     * {@code inconclusive} when its sample sizes could not reach significance even as the only real change
     * among {@code m} comparisons: its smallest attainable p (complete separation) above α / m, the level
     * BH asks of a lone discovery. With 5 repetitions a side that is m ≤ 6; the report says how many
     * repetitions this many comparisons need ({@link #repetitionsNeeded}).
     */
    static List<Comparison> decide(List<Comparison> raw, double threshold, double alpha) {
        double[] adjusted =
                benjaminiHochberg(raw.stream().mapToDouble(Comparison::pValue).toArray());
        long m = raw.stream().filter(c -> !Double.isNaN(c.pValue())).count();
        List<Comparison> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            Comparison c = raw.get(i);
            boolean reachable = Comparison.NESTED_T.equals(c.test())
                    ? c.pairs() != null && c.pairs() >= 2
                    : Comparison.SIGNED_RANK.equals(c.test())
                            ? SignedRank.smallestP(c.pairs()) <= alpha / Math.max(1, m)
                            : canReach(c.baseline().n(), c.candidate().n(), alpha, Math.max(1, m));
            Comparison.Verdict verdict = reachable ? c.verdict() : Comparison.Verdict.inconclusive;
            if (verdict != Comparison.Verdict.inconclusive) {
                boolean significant = adjusted[i] <= alpha;
                double worse = c.higherIsBetter() ? 1 / c.ratio() : c.ratio(); // > 1 means worse
                if (significant && worse > 1 + threshold) {
                    verdict = Comparison.Verdict.regression;
                } else if (significant && 1 / worse > 1 + threshold) {
                    verdict = Comparison.Verdict.improvement;
                } else {
                    verdict = Comparison.Verdict.unchanged;
                }
            }
            out.add(c.withAdjusted(adjusted[i], verdict));
        }
        return out;
    }

    /**
     * Benjamini–Hochberg (1995) step-up adjusted p-values; NaN entries stay NaN and do not count
     * towards the number of tests.
     */
    static double[] benjaminiHochberg(double[] p) {
        Integer[] order = java.util.stream.IntStream.range(0, p.length)
                .filter(i -> !Double.isNaN(p[i]))
                .boxed()
                .sorted(Comparator.comparingDouble(i -> p[i]))
                .toArray(Integer[]::new);
        double[] adjusted = new double[p.length];
        Arrays.fill(adjusted, Double.NaN);
        int m = order.length;
        double running = 1.0;
        for (int rank = m; rank >= 1; rank--) {
            int i = order[rank - 1];
            running = Math.min(running, p[i] * m / rank);
            adjusted[i] = running;
        }
        return adjusted;
    }

    /**
     * Whether samples of these sizes could be found significant among {@code m} comparisons: the exact
     * test's smallest p-value, 2 / C(n1 + n2, n1) (complete separation, no ties), at most α / m.
     */
    static boolean canReach(int n1, int n2, double alpha, long m) {
        return n1 >= 1 && n2 >= 1 && MannWhitney.smallestP(n1, n2) <= alpha / m;
    }

    /** Repetitions per side with which a change could be detected among {@code m} comparisons at all. */
    public static int repetitionsNeeded(double alpha, long m) {
        return MannWhitney.repetitionsToReach(alpha / Math.max(1, m));
    }
}
