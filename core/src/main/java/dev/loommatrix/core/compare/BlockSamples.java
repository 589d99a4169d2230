package dev.loommatrix.core.compare;

import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.stats.NestedPaired;
import dev.loommatrix.core.stats.RatioInterval;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What an A/B run's measurements hold per block: the sides' values of a metric in each block, the pairs'
 * log-ratios, and each block's forks with their iterations — the samples the paired tests take.
 */
final class BlockSamples {

    private BlockSamples() {}

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

    /** The forks both sides measured in the blocks they share, their per-pair differences, and whether they fit. */
    static Forks forks(Measurement before, Measurement after, String metric) {
        Map<Integer, List<double[]>> b = iterationsByBlock(before, metric);
        Map<Integer, List<double[]>> a = iterationsByBlock(after, metric);
        List<Double> differences = new ArrayList<>();
        List<double[]> baselineForks = new ArrayList<>();
        List<double[]> candidateForks = new ArrayList<>();
        int fewest = Integer.MAX_VALUE;
        for (var entry : new TreeMap<>(b).entrySet()) {
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
            differences.add(mean(NestedPaired.forkMeans(candidate)) - mean(NestedPaired.forkMeans(entry.getValue())));
        }
        if (differences.isEmpty() || fewest < 2) {
            return Forks.NONE;
        }
        return described(differences, fewest, baselineForks, candidateForks);
    }

    /** The forks' differences with what the report says of them: the variance components, the modes if any. */
    private static Forks described(
            List<Double> differences, int fewest, List<double[]> baselineForks, List<double[]> candidateForks) {
        String modesText = modesOf("baseline", baselineForks)
                .or(() -> modesOf("candidate", candidateForks))
                .orElse(null);
        var components = NestedPaired.components(baselineForks);
        Comparison.Nested description = new Comparison.Nested(
                components.map(c -> Math.expm1(c.betweenForks())).orElse(null),
                components.map(c -> Math.expm1(c.withinForks())).orElse(null),
                components.map(NestedPaired.Components::iterationsPerFork).orElse(null),
                modesText);
        boolean usable = differences.size() >= NestedPaired.MIN_PAIRS
                && fewest >= NestedPaired.MIN_ITERATIONS
                && modesText == null;
        return new Forks(differences.stream().mapToDouble(Double::doubleValue).toArray(), usable, description);
    }

    /** A side's forks in two modes, in words; empty when they are in one. */
    private static Optional<String> modesOf(String side, List<double[]> forks) {
        return NestedPaired.modes(NestedPaired.forkMeans(forks))
                .map(m -> String.format(
                        Locale.ROOT,
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
        for (var entry : new TreeMap<>(b).entrySet()) {
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

    static boolean positive(double[] values) {
        return Arrays.stream(values).allMatch(v -> v > 0);
    }

    static double[] logs(double[] values) {
        return Arrays.stream(values).map(Math::log).toArray();
    }
}
