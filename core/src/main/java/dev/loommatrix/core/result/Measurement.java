package dev.loommatrix.core.result;

import dev.loommatrix.core.matrix.Iterations;
import dev.loommatrix.core.stats.MetricDescriptor;
import dev.loommatrix.core.stats.RatioInterval;
import dev.loommatrix.core.stats.Summary;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One variant of a cell: every repetition's sample, the summary of {@code wallMs}, and the lower bound
 * where the workload has one. {@code efficiency} = lowerBoundMs / median wallMs (1.0 = as fast as
 * physics allows).
 *
 * @param metric the metric this variant is judged by (speedups, compare, trends): its name, unit and
 *     direction; files written before it existed get the catalogue's (see {@link CellRecord})
 * @param blocks in an A/B run, the block each sample ran in (parallel to {@code samples}): block k of the
 *     baseline and block k of the candidate ran back to back on the same machine, so compare pairs them;
 *     absent outside A/B runs
 * @param iterations how each fork (each repetition, a fresh JVM) ran the workload when it ran it more than
 *     once: {@code warmup} iterations left out, then {@code measure} iterations whose median is the sample's
 *     {@code wallMs} (the steady state); absent when every fork ran it once, cold
 * @param coldStart the summary of each fork's first iteration ({@code coldStartMs}): the cold start, its own
 *     statistic, never averaged with the steady state; absent when the forks ran once (their only value is
 *     the cold start, in {@code summary})
 */
public record Measurement(
        String variant,
        Map<String, Long> params,
        MetricDescriptor metric,
        List<Sample> samples,
        Optional<Summary> summary,
        Optional<Summary> processSummary,
        Optional<Double> lowerBoundMs,
        Optional<Double> efficiency,
        Optional<Ceiling> ceiling,
        Optional<String> error,
        Optional<Benchmark> benchmark,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                Optional<List<Integer>> blocks,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                Optional<Iterations> iterations,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                Optional<Summary> coldStart) {

    /** The sample metric holding a fork's first iteration when it ran more than one. */
    public static final String COLD_START = "coldStartMs";

    /** The sample fact that is false for a fork whose measured iterations still trend (Mann-Kendall). */
    public static final String STEADY = "steady";

    public Measurement {
        samples = List.copyOf(samples);
        params = Map.copyOf(params);
        benchmark = benchmark == null ? Optional.empty() : benchmark;
        blocks = blocks == null ? Optional.empty() : blocks.map(List::copyOf);
        iterations = iterations == null ? Optional.empty() : iterations;
        coldStart = coldStart == null ? Optional.empty() : coldStart;
        if (blocks.isPresent() && blocks.get().size() != samples.size()) {
            throw new IllegalArgumentException(
                    blocks.get().size() + " block numbers for " + samples.size() + " samples");
        }
    }

    /** A measurement outside an A/B run. */
    public Measurement(
            String variant,
            Map<String, Long> params,
            MetricDescriptor metric,
            List<Sample> samples,
            Optional<Summary> summary,
            Optional<Summary> processSummary,
            Optional<Double> lowerBoundMs,
            Optional<Double> efficiency,
            Optional<Ceiling> ceiling,
            Optional<String> error,
            Optional<Benchmark> benchmark) {
        this(
                variant,
                params,
                metric,
                samples,
                summary,
                processSummary,
                lowerBoundMs,
                efficiency,
                ceiling,
                error,
                benchmark,
                Optional.empty(),
                Optional.empty(),
                Optional.empty());
    }

    /** A built-in workload's measurement: one per variant, no benchmark name. */
    public Measurement(
            String variant,
            Map<String, Long> params,
            MetricDescriptor metric,
            List<Sample> samples,
            Optional<Summary> summary,
            Optional<Summary> processSummary,
            Optional<Double> lowerBoundMs,
            Optional<Double> efficiency,
            Optional<Ceiling> ceiling,
            Optional<String> error) {
        this(
                variant,
                params,
                metric,
                samples,
                summary,
                processSummary,
                lowerBoundMs,
                efficiency,
                ceiling,
                error,
                Optional.empty());
    }

    /**
     * What this measurement is within its cell: the variant, and for a user workload the benchmark with its
     * parameters. Compare, speedups and history pair measurements by it.
     */
    public String series() {
        return benchmark.map(b -> variant + " · " + b.label()).orElse(variant);
    }

    /** The benchmark part of {@link #series()} ("" for a built-in workload): the key speedups pair variants on. */
    public String benchmarkLabel() {
        return benchmark.map(Benchmark::label).orElse("");
    }

    /**
     * How many repetitions saw the process's resident memory fall while their threads were started (the footprint
     * workload): virtual threads' stacks went into heap pages already resident while the JVM gave some of its own
     * back, so those repetitions have no resident bytes per thread (benchmarks/results/2026-11-26-footprint-rss/).
     */
    public long repetitionsWhereResidentMemoryFell() {
        return samples.stream()
                .filter(s -> s.metric("rssBytes").filter(rss -> rss < 0).isPresent())
                .count();
    }

    /** The median of a numeric sample metric, if every sample has it. */
    public Optional<Double> medianOf(String metric) {
        double[] values = values(metric);
        if (values.length == 0 || values.length < samples.size()) {
            return Optional.empty();
        }
        return Optional.of(RatioInterval.median(values));
    }

    /** The numeric values of one sample metric, in repetition order (samples without it are skipped). */
    public double[] values(String metric) {
        return samples.stream()
                .flatMap(s -> s.metric(metric).stream())
                .mapToDouble(Double::doubleValue)
                .toArray();
    }

    /** The values of the metric this variant is judged by. */
    public double[] judged() {
        return values(metric.name());
    }

    /** This measurement judged by another metric (files from before the descriptor was recorded). */
    Measurement judgedBy(MetricDescriptor other) {
        return new Measurement(
                variant,
                params,
                other,
                samples,
                summary,
                processSummary,
                lowerBoundMs,
                efficiency,
                ceiling,
                error,
                benchmark,
                blocks,
                iterations,
                coldStart);
    }

    /** This measurement with the design of its forks: how many iterations each ran, and its cold starts' summary. */
    public Measurement withIterations(Iterations design) {
        double[] cold = values(COLD_START);
        return new Measurement(
                variant,
                params,
                metric,
                samples,
                summary,
                processSummary,
                lowerBoundMs,
                efficiency,
                ceiling,
                error,
                benchmark,
                blocks,
                Optional.of(design),
                cold.length == 0 ? Optional.empty() : Optional.of(Summary.of(cold)));
    }

    /**
     * This measurement judged by its cold starts: {@code coldStartMs} where the forks ran more than one
     * iteration; where they ran once, that run was the cold start and it stays judged by {@code wallMs}.
     */
    public Measurement coldStartView() {
        if (iterations.isPresent()) {
            return judgedBy(MetricDescriptor.COLD_START_MS);
        }
        // one run per fork: that run was the cold start, named so that it pairs with a fork's first iteration
        List<Sample> cold = samples.stream()
                .map(s -> s.metric(MetricDescriptor.WALL_MS.name())
                        .map(v -> s.with(COLD_START, v))
                        .orElse(s))
                .toList();
        return new Measurement(
                variant,
                params,
                MetricDescriptor.COLD_START_MS,
                cold,
                summary,
                processSummary,
                lowerBoundMs,
                efficiency,
                ceiling,
                error,
                benchmark,
                blocks,
                iterations,
                summary);
    }

    /** How many forks' measured iterations still trended (their sample says {@code steady: false}). */
    public long notSteadyForks() {
        return samples.stream()
                .filter(s -> Boolean.FALSE.equals(s.facts().get(STEADY)))
                .count();
    }

    /**
     * What the summary rests on, in words: "5 forks" (one cold run each), or "3 forks × 10 iterations (+2
     * warmup)" — the forks are the independent samples; a fork's iterations make its one value.
     */
    public String basis() {
        int forks = summary.map(Summary::n).orElse(samples.size());
        String text = forks + (forks == 1 ? " fork" : " forks");
        if (iterations.isPresent()) {
            Iterations it = iterations.get();
            text += " × " + it.measure() + (it.measure() == 1 ? " iteration" : " iterations")
                    + (it.warmup() > 0 ? " (+" + it.warmup() + " warmup)" : "");
        }
        return text;
    }

    /**
     * One series' measurements from the blocks of an A/B run, in block order, as one: the samples one after
     * another with the block each came from, the summaries and efficiency of them all, the lowest thread
     * ceiling, the first error.
     *
     * @param summarized the sample metric the summary is of ({@code wallMs} for a built-in workload, the
     *     judged metric for a user's)
     */
    public static Measurement ofBlocks(List<Integer> blockNumbers, List<Measurement> parts, String summarized) {
        if (parts.isEmpty() || parts.size() != blockNumbers.size()) {
            throw new IllegalArgumentException("one measurement per block, at least one");
        }
        Measurement first = parts.get(0);
        List<Sample> samples = new java.util.ArrayList<>();
        List<Integer> blocks = new java.util.ArrayList<>();
        Optional<Double> lowerBound = Optional.empty();
        Optional<Ceiling> ceiling = Optional.empty();
        Optional<String> error = Optional.empty();
        for (int i = 0; i < parts.size(); i++) {
            Measurement part = parts.get(i);
            int block = blockNumbers.get(i);
            samples.addAll(part.samples());
            part.samples().forEach(s -> blocks.add(block));
            lowerBound = lowerBound.or(part::lowerBoundMs);
            if (part.ceiling().isPresent()
                    && (ceiling.isEmpty()
                            || part.ceiling().get().threads() < ceiling.get().threads())) {
                ceiling = part.ceiling();
            }
            error = error.or(() -> part.error().map(e -> "block " + block + ": " + e));
        }
        Measurement all = new Measurement(
                first.variant(),
                first.params(),
                first.metric(),
                samples,
                Optional.empty(),
                Optional.empty(),
                lowerBound,
                Optional.empty(),
                ceiling,
                error,
                first.benchmark(),
                Optional.of(blocks),
                Optional.empty(),
                Optional.empty());
        double[] summarizedValues = all.values(summarized);
        double[] process = all.values("processMs");
        Optional<Summary> summary =
                summarizedValues.length == 0 ? Optional.empty() : Optional.of(Summary.of(summarizedValues));
        Measurement withSummaries = new Measurement(
                all.variant(),
                all.params(),
                all.metric(),
                samples,
                summary,
                process.length == 0 ? Optional.empty() : Optional.of(Summary.of(process)),
                lowerBound,
                lowerBound.flatMap(lb -> summary.map(s -> lb / s.median())),
                ceiling,
                error,
                all.benchmark(),
                Optional.of(blocks),
                Optional.empty(),
                Optional.empty());
        return first.iterations().map(withSummaries::withIterations).orElse(withSummaries);
    }

    /** The thread count reached when a resource limit stopped thread creation. */
    public record Ceiling(long threads, String reason) {}
}
