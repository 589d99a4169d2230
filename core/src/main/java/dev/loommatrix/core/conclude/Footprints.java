package dev.loommatrix.core.conclude;

import dev.loommatrix.core.matrix.Contrast;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.stats.MetricDescriptor;
import dev.loommatrix.core.stats.Speedup;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The footprint workload answers "how many bytes does a thread cost?", not how fast its threads park (its timed
 * metric): it is concluded on the resident memory a thread adds. Where resident memory fell while a variant's threads
 * were started in some repetition (virtual threads' stacks went into heap pages already resident while the JVM gave
 * some of its own back, benchmarks/results/2026-11-26-footprint-rss/), there is no such figure at that thread count:
 * the condition cannot tell, and says so with what was measured — never the heap per thread against a platform
 * thread's, whose stack is not in the heap at all.
 */
final class Footprints {

    private Footprints() {}

    static final String WORKLOAD = "footprint";

    static final MetricDescriptor RSS_PER_THREAD =
            new MetricDescriptor("rssBytesPerThread", "B", MetricDescriptor.Direction.LOWER_IS_BETTER);

    static final MetricDescriptor HEAP_PER_THREAD =
            new MetricDescriptor("heapBytesPerThread", "B", MetricDescriptor.Direction.LOWER_IS_BETTER);

    /** The subject's resident bytes per thread against the reference's; empty where that is not measured. */
    static Optional<Speedup> contrast(CellRecord cell, Contrast contrast) {
        Optional<Measurement> subject = cell.measurement(contrast.subject());
        Optional<Measurement> reference = contrast.reference().flatMap(cell::measurement);
        if (subject.isEmpty() || reference.isEmpty() || rssFell(subject.get()) || rssFell(reference.get())) {
            return Optional.empty();
        }
        double[] s = subject.get().values(RSS_PER_THREAD.name());
        double[] r = reference.get().values(RSS_PER_THREAD.name());
        if (s.length == 0 || r.length == 0) {
            return Optional.empty();
        }
        return Optional.of(Speedup.of(
                subject.get().variant(),
                reference.get().variant(),
                Optional.empty(),
                RSS_PER_THREAD,
                s,
                r,
                (cell.cellId() + "/" + RSS_PER_THREAD.name()).hashCode()));
    }

    /**
     * What a thread costs each side, where the contrast is on resident bytes per thread: the figures the ratio is made
     * of, in the unit a capacity plan needs ("virtual 3.8 KiB resident a thread, platform 38.5 KiB").
     */
    static Optional<Cause> memory(CellRecord cell, Finding.Contrasted h) {
        if (!h.metric().equals(RSS_PER_THREAD.name())) {
            return Optional.empty();
        }
        Optional<Double> subject = cell.measurement(h.subject()).flatMap(m -> m.medianOf(RSS_PER_THREAD.name()));
        Optional<Double> reference = cell.measurement(h.reference()).flatMap(m -> m.medianOf(RSS_PER_THREAD.name()));
        if (subject.isEmpty() || reference.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Cause(
                Cause.Kind.MEMORY,
                h.subject(),
                "measurements",
                "memory: each thread added " + kib(subject.get()) + " resident in " + h.subject() + ", "
                        + kib(reference.get()) + " in " + h.reference()
                        + " (the medians of the repetitions: the process's resident memory grown while the threads"
                        + " were started, divided by their number)"));
    }

    /**
     * Why a footprint cell has no bytes-per-thread contrast, with what it did measure: the variants whose resident
     * memory fell, and each variant's figure that holds (resident bytes per thread, else heap bytes per thread).
     */
    static Optional<String> unmeasured(CellRecord cell) {
        List<Measurement> fell =
                cell.measurements().stream().filter(Footprints::rssFell).toList();
        if (fell.isEmpty()) {
            return Optional.empty();
        }
        String which = fell.stream()
                .map(m -> m.variant() + " (" + m.repetitionsWhereResidentMemoryFell() + " of "
                        + m.samples().size() + " repetitions)")
                .collect(Collectors.joining(", "));
        String figures = cell.measurements().stream()
                .map(m -> rssFell(m)
                        ? m.medianOf(HEAP_PER_THREAD.name())
                                .map(b -> m.variant() + " " + kib(b) + " of heap a thread")
                                .orElse(m.variant() + " no figure")
                        : m.medianOf(RSS_PER_THREAD.name())
                                .map(b -> m.variant() + " " + kib(b) + " resident a thread")
                                .orElse(m.variant() + " no figure"))
                .collect(Collectors.joining(", "));
        return Optional.of("resident memory fell while the threads were started in " + which
                + ": at this thread count there is no resident footprint to compare (measured, and not comparable"
                + " with each other: " + figures + "); more threads — the built-in default is 100,000 — would tell");
    }

    private static String kib(double bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f KiB", bytes / 1024);
    }

    /** Resident memory fell while the threads were started in some repetition: no RSS footprint at this count. */
    static boolean rssFell(Measurement m) {
        return m.repetitionsWhereResidentMemoryFell() > 0;
    }
}
