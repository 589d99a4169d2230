package dev.loommatrix.core.result;

import dev.loommatrix.core.stats.MetricDescriptor;
import dev.loommatrix.core.stats.Speedup;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The speedups of a cell, computed once when the record is made. A built-in workload: virtual threads
 * against each other variant. A user workload: every variant against the baseline its entry names, for
 * each benchmark (a JMH benchmark with its parameters) the two variants both measured.
 *
 * <p>When the forks ran the workload more than once, a built-in workload's speedups come twice: on the
 * steady state (the judged metric, first) and on the cold start ({@code coldStartMs}, after all of those) —
 * how a freshly started service compares, and how a warm one does.
 */
public final class Speedups {

    private Speedups() {}

    public static List<Speedup> of(String cellId, List<Measurement> measurements) {
        return of(cellId, measurements, Optional.empty());
    }

    public static List<Speedup> of(String cellId, List<Measurement> measurements, Optional<String> baseline) {
        List<Speedup> out = new ArrayList<>();
        if (baseline.isPresent()) {
            for (Measurement reference : measurements) {
                if (!reference.variant().equals(baseline.get())) {
                    continue;
                }
                for (Measurement subject : measurements) {
                    if (subject != reference
                            && !subject.variant().equals(baseline.get())
                            && subject.benchmarkLabel().equals(reference.benchmarkLabel())) {
                        add(out, cellId, subject, reference);
                    }
                }
            }
            return out;
        }
        Optional<Measurement> virtual = measurements.stream()
                .filter(m -> m.variant().equals(Speedup.VIRTUAL))
                .findFirst();
        if (virtual.isEmpty()) {
            return out;
        }
        for (Measurement other : measurements) {
            if (other != virtual.get()) {
                add(out, cellId, virtual.get(), other);
            }
        }
        for (Measurement other : measurements) {
            if (other != virtual.get()
                    && virtual.get().coldStart().isPresent()
                    && other.coldStart().isPresent()) {
                long seed = (cellId + "/cold/" + other.series()).hashCode();
                out.add(Speedup.of(
                        virtual.get().variant(),
                        other.variant(),
                        Optional.empty(),
                        MetricDescriptor.COLD_START_MS,
                        virtual.get().values(Measurement.COLD_START),
                        other.values(Measurement.COLD_START),
                        seed));
            }
        }
        return out;
    }

    /** How many times better {@code subject} is than {@code reference}, when both have numbers. */
    private static void add(List<Speedup> out, String cellId, Measurement subject, Measurement reference) {
        double[] s = subject.judged();
        double[] r = reference.values(subject.metric().name());
        if (s.length == 0 || r.length == 0) {
            return;
        }
        long seed = (cellId + "/" + reference.series()).hashCode();
        out.add(Speedup.of(
                subject.variant(),
                reference.variant(),
                subject.benchmark().map(Benchmark::label),
                subject.metric(),
                s,
                r,
                seed));
    }
}
