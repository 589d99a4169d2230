package dev.loommatrix.core.conclude;

import dev.loommatrix.core.matrix.Contrast;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.stats.MetricDescriptor;
import dev.loommatrix.core.stats.Speedup;
import java.util.Optional;

/**
 * The footprint workload answers "how many bytes does a thread cost?", not how fast 2,000 threads park (its timed
 * metric): it is concluded on the resident memory a thread adds, or — where resident memory fell while threads were
 * started in some repetition (virtual threads' stacks went into heap pages already resident while the JVM gave some
 * of its own back, benchmarks/results/2026-11-26-footprint-rss/) — on the heap a thread holds, and says which.
 */
final class Footprints {

    private Footprints() {}

    static final String WORKLOAD = "footprint";

    static final MetricDescriptor RSS_PER_THREAD =
            new MetricDescriptor("rssBytesPerThread", "B", MetricDescriptor.Direction.LOWER_IS_BETTER);

    static final MetricDescriptor HEAP_PER_THREAD =
            new MetricDescriptor("heapBytesPerThread", "B", MetricDescriptor.Direction.LOWER_IS_BETTER);

    /** The subject's bytes per thread against the reference's, on the metric that holds in every repetition. */
    static Optional<Speedup> contrast(CellRecord cell, Contrast contrast) {
        Optional<Measurement> subject = variant(cell, contrast.subject());
        Optional<Measurement> reference = contrast.reference().flatMap(r -> variant(cell, r));
        if (subject.isEmpty() || reference.isEmpty()) {
            return Optional.empty();
        }
        MetricDescriptor metric = rssFell(subject.get()) || rssFell(reference.get()) ? HEAP_PER_THREAD : RSS_PER_THREAD;
        double[] s = subject.get().values(metric.name());
        double[] r = reference.get().values(metric.name());
        if (s.length == 0 || r.length == 0) {
            return Optional.empty();
        }
        return Optional.of(Speedup.of(
                subject.get().variant(),
                reference.get().variant(),
                Optional.empty(),
                metric,
                s,
                r,
                (cell.cellId() + "/" + metric.name()).hashCode()));
    }

    /** Resident memory fell while the threads were started in some repetition: no RSS footprint at this count. */
    static boolean rssFell(Measurement m) {
        return m.samples().stream()
                .anyMatch(s -> s.metric("rssBytes").filter(rss -> rss < 0).isPresent());
    }

    private static Optional<Measurement> variant(CellRecord cell, String name) {
        return cell.measurements().stream()
                .filter(m -> m.variant().equals(name))
                .findFirst();
    }
}
