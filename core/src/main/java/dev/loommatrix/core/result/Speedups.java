package dev.loommatrix.core.result;

import dev.loommatrix.core.matrix.Contrast;
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
            for (Measurement reference : measurements) {
                if (!reference.variant().equals(baseline.get())) {
                    continue;
                }
                for (Measurement subject : measurements) {
                    if (subject != reference
                            && !subject.variant().equals(baseline.get())
                            && subject.benchmarkLabel().equals(reference.benchmarkLabel())) {
                        addColdStart(out, cellId, subject, reference);
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
            if (other != virtual.get()) {
                addColdStart(out, cellId, virtual.get(), other);
            }
        }
        return out;
    }

    /** The cold start's speedup, when both variants' forks iterated (else their one run is the judged metric's). */
    private static void addColdStart(List<Speedup> out, String cellId, Measurement subject, Measurement reference) {
        if (subject.coldStart().isEmpty() || reference.coldStart().isEmpty()) {
            return;
        }
        long seed = (cellId + "/cold/" + reference.series()).hashCode();
        out.add(Speedup.of(
                subject.variant(),
                reference.variant(),
                subject.benchmark().map(Benchmark::label),
                MetricDescriptor.COLD_START_MS,
                subject.values(Measurement.COLD_START),
                reference.values(Measurement.COLD_START),
                seed));
    }

    /**
     * A declared contrast as this cell's measurements let it stand: the fastest other variant named (by the
     * steady-state median of the judged metric, in its direction; a user workload's first benchmark); empty
     * when the cell did not measure the subject, or has no other variant to compare it with.
     */
    public static Optional<Contrast> resolve(Contrast declared, List<Measurement> measurements) {
        List<Measurement> subjects = measurements.stream()
                .filter(m -> m.variant().equals(declared.subject()))
                .toList();
        if (subjects.isEmpty()) {
            return Optional.empty();
        }
        if (!declared.fastestOther()) {
            return Optional.of(declared);
        }
        return fastestOther(measurements, declared.subject(), subjects.get(0).benchmarkLabel())
                .map(m -> declared.resolvedTo(m.variant()));
    }

    /**
     * The fastest variant other than {@code subject} on one benchmark (its label): the best steady-state median of
     * its judged metric, in that metric's direction.
     */
    public static Optional<Measurement> fastestOther(List<Measurement> measurements, String subject, String label) {
        return measurements.stream()
                .filter(m -> !m.variant().equals(subject) && m.benchmarkLabel().equals(label))
                .filter(m -> m.medianOf(m.metric().name()).isPresent())
                .min(java.util.Comparator.comparingDouble(m -> {
                    double median = m.medianOf(m.metric().name()).orElseThrow();
                    return m.metric().higherIsBetter() ? -median : median;
                }));
    }

    /**
     * How many times better {@code subject} is than {@code reference} on the subject's judged metric, as a cell's
     * speedups are computed (the same seed: the same interval in every report); empty without numbers on both sides.
     */
    public static Optional<Speedup> between(String cellId, Measurement subject, Measurement reference) {
        List<Speedup> one = new ArrayList<>();
        add(one, cellId, subject, reference);
        return one.stream().findFirst();
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
