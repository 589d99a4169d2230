package dev.loommatrix.core.conclude;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.stats.MetricDescriptor;
import dev.loommatrix.core.stats.Speedup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The same variant compared with itself along one axis, everything else equal (issue #51: "primes-io ≥ 40× on JDK
 * 21 and ≥ 29× on 25 are against different baselines, yet read as '21 is better'"): the subject on each JDK against
 * the first JDK, at each CPU limit against the first, at each scheduler setting against the JDK's default — each
 * with its own interval and class, so "which JDK?" and "which setting?" are answered by a measured contrast.
 */
public final class AxisSteps {

    private AxisSteps() {}

    /** The axes a variant is compared along, and the value each is compared from when the cells hold it. */
    static final List<String> AXES = List.of("jdk", "cpus", "parallelism", "maxPoolSize", "minRunnable");

    /**
     * One step: {@code variant} at {@code to} against itself at {@code from} on {@code axis}, the other axes at
     * {@code at}; its ratio above 1 means better at {@code to}.
     */
    public record Step(
            String axis,
            String variant,
            String from,
            String to,
            Map<String, String> at,
            String fromCell,
            String toCell,
            Finding.Contrasted contrast) {
        public Step {
            at = Map.copyOf(at);
        }
    }

    /**
     * Every step of the subject variant among these cells (valid ones only; a user's benchmark by its label), along
     * each axis on which they differ.
     */
    public static List<Step> of(List<CellRecord> cells, String variant, Optional<String> benchmark, double threshold) {
        List<Step> out = new ArrayList<>();
        for (String axis : AXES) {
            Map<Map<String, String>, Map<String, CellRecord>> groups = new LinkedHashMap<>();
            for (CellRecord cell : cells) {
                Map<String, String> rest =
                        new LinkedHashMap<>(cell.coordinates().axisValues());
                String value = rest.remove(axis);
                rest.remove("workload");
                groups.computeIfAbsent(rest, k -> new LinkedHashMap<>()).putIfAbsent(value, cell);
            }
            groups.forEach((at, byValue) -> {
                if (byValue.size() < 2) {
                    return;
                }
                String from = from(axis, byValue);
                CellRecord base = byValue.get(from);
                byValue.forEach((to, cell) -> {
                    if (!to.equals(from)) {
                        step(axis, variant, benchmark, from, to, at, base, cell, threshold)
                                .ifPresent(out::add);
                    }
                });
            });
        }
        return out;
    }

    /** A scheduler setting is compared with the JDK's default ("auto"); a JDK or a CPU limit with the first. */
    private static String from(String axis, Map<String, CellRecord> byValue) {
        if (!axis.equals("jdk") && !axis.equals("cpus") && byValue.containsKey("auto")) {
            return "auto";
        }
        return byValue.keySet().iterator().next();
    }

    private static Optional<Step> step(
            String axis,
            String variant,
            Optional<String> benchmark,
            String from,
            String to,
            Map<String, String> at,
            CellRecord base,
            CellRecord cell,
            double threshold) {
        Optional<Measurement> before = base.measurement(variant, benchmark.orElse(""));
        Optional<Measurement> after = cell.measurement(variant, benchmark.orElse(""));
        if (before.isEmpty() || after.isEmpty()) {
            return Optional.empty();
        }
        // footprint is concluded on the resident bytes a thread adds, so it steps on them too (not on its time)
        boolean footprint = base.coordinates().workload().equals(Footprints.WORKLOAD);
        if (footprint && (Footprints.rssFell(before.get()) || Footprints.rssFell(after.get()))) {
            return Optional.empty();
        }
        MetricDescriptor metric =
                footprint ? Footprints.RSS_PER_THREAD : before.get().metric();
        double[] x = before.get().values(metric.name());
        double[] y = after.get().values(metric.name());
        if (x.length == 0 || y.length == 0) {
            return Optional.empty();
        }
        Speedup s = Speedup.of(to, from, benchmark, metric, y, x, (base.cellId() + "→" + cell.cellId()).hashCode());
        double low = s.ci95().isEmpty() ? s.ratio() : s.ci95().get(0);
        double high = s.ci95().isEmpty() ? s.ratio() : s.ci95().get(1);
        Finding.Contrasted c = new Finding.Contrasted(
                to,
                from,
                s.metric(),
                s.ratio(),
                low,
                high,
                Optional.ofNullable(s.ciLevel()),
                s.ci95().isEmpty() ? Conclusion.CANNOT_TELL : Conclusion.of(low, high, threshold));
        return Optional.of(new Step(axis, variant, from, to, at, base.cellId(), cell.cellId(), c));
    }
}
