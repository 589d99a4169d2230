package dev.loommatrix.runner.records;

import dev.loommatrix.core.capacity.CapacityResult;
import dev.loommatrix.core.capacity.CapacitySearch;
import dev.loommatrix.core.matrix.ServiceLoad;
import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.result.Benchmark;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a capacity search's repetition becomes (issue #52): one sample whose judged metric is the capacity, with
 * the outcome, every tried level and what limited the capacity beside it. A search that found no capacity
 * (generator-limited, inconclusive, failed) leaves the sample without one and says why as the variant's problem —
 * a generator-limited search makes it invalid, as any rate the generator could not offer does.
 */
final class CapacityResults {

    /** A server busier than this share of its CPU quota at its capacity is taken as CPU-bound. */
    static final double CPU_BOUND = 0.85;

    /** A capacity within this share of the pool's Little's-law bound is taken as set by the pool. */
    static final double AT_THE_BOUND = 0.80;

    private CapacityResults() {}

    static void add(
            UserWorkload.Service service,
            String variant,
            LoadLine load,
            int index,
            Map<String, Object> common,
            double serverCpus,
            BenchmarkSeries out) {
        CapacityLine line = load.capacity().orElseThrow();
        CapacityResult result = line.result();
        ServiceLoad.Capacity model = (ServiceLoad.Capacity) service.load().model();
        if (!result.outcome().found()) {
            out.problem((result.outcome() == CapacityResult.Outcome.GENERATOR_LIMITED ? CellAssembler.INVALID : "")
                    + "run " + (index + 1) + ": the capacity search found none ("
                    + result.outcome().words()
                    + "): " + result.why());
        }
        Map<String, Object> sample = new LinkedHashMap<>(common);
        Map<String, LoadReport> reports = new LinkedHashMap<>();
        load.levels().forEach(r -> reports.put(r.level(), r));
        // the service at its capacity: the validation window's figures, on its fresh server
        Optional<LoadReport> atCapacity = result.capacity().map(c -> reports.get(CapacityLine.level(c, true)));
        atCapacity.ifPresent(r -> sample.putAll(r.metrics()));
        result.capacity().ifPresent(c -> sample.put(ServiceLoad.CAPACITY.name(), c));
        sample.put(
                dev.loommatrix.core.conclude.Findings.CAPACITY_OUTCOME,
                result.outcome().words());
        sample.put("capacityWhy", result.why());
        result.firstFailing().ifPresent(f -> sample.put("capacityFirstFailingPerSecond", f));
        sample.put("capacityPrecision", model.precision());
        sample.put("capacityTried", tried(result, reports, line.serverCpuSeconds(), serverCpus));
        Double bound = service.throughputBounds().get(variant);
        if (bound != null) {
            sample.put("throughputBoundPerSecond", bound);
        }
        Optional<Double> cpuShare = atCapacity.flatMap(r -> cpuShare(r, line.serverCpuSeconds(), serverCpus));
        cpuShare.ifPresent(s -> sample.put("serverCpuShareAtCapacity", s));
        limitedBy(result, cpuShare, Optional.ofNullable(bound), reports, serverCpus)
                .ifPresent(words -> sample.put("capacityLimitedBy", words));
        Map<String, String> units = new LinkedHashMap<>();
        units.put(ServiceLoad.CAPACITY.name(), ServiceLoad.CAPACITY.unit());
        ServiceLoad.METRICS.forEach(m -> units.put(m.name(), m.unit()));
        Benchmark benchmark = new Benchmark(
                service.load().requests(),
                Optional.empty(),
                Map.of("load", model.levels().getFirst()),
                units,
                Map.of());
        out.add(benchmark, ServiceLoad.CAPACITY, sample);
    }

    /** Every window in the order run: the rate, the verdict and why, and what the generator measured. */
    private static List<Map<String, Object>> tried(
            CapacityResult result, Map<String, LoadReport> reports, Map<String, Double> cpu, double serverCpus) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (CapacitySearch.Step step : result.steps()) {
            String level = CapacityLine.level(step.rate(), step.validation());
            Map<String, Object> tried = new LinkedHashMap<>();
            tried.put("rate", step.rate());
            tried.put("validation", step.validation());
            tried.put("verdict", step.verdict().name().toLowerCase(Locale.ROOT).replace('_', '-'));
            tried.put("why", step.why());
            LoadReport report = reports.get(level);
            if (report != null) {
                tried.put("achievedRate", report.achievedRate());
                tried.put("throughputPerSecond", report.throughput());
                for (var p : List.of("50", "99", "99.9", "100")) {
                    Double ms = report.latencyMs().get(p);
                    if (ms != null) {
                        tried.put(key(p), ms);
                    }
                }
                tried.put("errors", report.errors());
                tried.put("generatorCpuShare", report.generatorCpuShare());
                cpuShare(report, cpu, serverCpus).ifPresent(s -> tried.put("serverCpuShare", s));
            }
            out.add(tried);
        }
        return out;
    }

    private static String key(String percentile) {
        return switch (percentile) {
            case "100" -> "latencyMaxMs";
            case "99.9" -> "latencyP999Ms";
            default -> "latencyP" + percentile + "Ms";
        };
    }

    /** The server's CPU use in a window as a share of its quota. */
    private static Optional<Double> cpuShare(LoadReport report, Map<String, Double> cpu, double serverCpus) {
        Double seconds = cpu.get(report.level());
        return seconds == null || report.seconds() <= 0 || serverCpus <= 0
                ? Optional.empty()
                : Optional.of(seconds / report.seconds() / serverCpus);
    }

    /**
     * Why the capacity is where it is, in a reader's words: the CPU quota (the server busy near all of it at the
     * capacity), the pool (the capacity near its Little's-law bound), or the errors at the first failing rate;
     * empty when none of them explains it.
     */
    static Optional<String> limitedBy(
            CapacityResult result,
            Optional<Double> cpuShare,
            Optional<Double> poolBound,
            Map<String, LoadReport> reports,
            double serverCpus) {
        if (result.capacity().isEmpty()) {
            return Optional.empty();
        }
        double capacity = result.capacity().get();
        List<String> why = new ArrayList<>();
        if (cpuShare.isPresent() && cpuShare.get() >= CPU_BOUND) {
            why.add(String.format(
                    Locale.ROOT,
                    "the CPU: the server used %.0f %% of its %s CPU%s at the capacity",
                    100 * cpuShare.get(),
                    plain(serverCpus),
                    serverCpus == 1 ? "" : "s"));
        }
        if (poolBound.isPresent() && capacity >= AT_THE_BOUND * poolBound.get()) {
            why.add(String.format(
                    Locale.ROOT,
                    "the pool: threads ÷ handler time bound it at %.0f requests/s (Little's law)",
                    poolBound.get()));
        }
        result.firstFailing()
                .map(f -> reports.get(CapacityLine.level(f, false)))
                .filter(r -> r.errorCount() > 0)
                .ifPresent(r -> {
                    // The most frequent kind first, whatever order the generator reported them in.
                    List<String> kinds = r.errors().entrySet().stream()
                            .sorted(Map.Entry.<String, Long>comparingByValue()
                                    .reversed()
                                    .thenComparing(Map.Entry.comparingByKey()))
                            .map(e -> e.getValue() + " " + e.getKey())
                            .toList();
                    why.add("errors at "
                            + ServiceLoad.Open.level(result.firstFailing().get()) + ": " + String.join(", ", kinds));
                });
        return why.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", why));
    }

    private static String plain(double x) {
        return x == Math.rint(x) ? String.valueOf((long) x) : String.valueOf(x);
    }
}
