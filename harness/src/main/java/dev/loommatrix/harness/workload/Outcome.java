package dev.loommatrix.harness.workload;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What one run of a workload measured.
 *
 * @param wallMs the timed section only (JVM start-up excluded)
 * @param metrics further workload-specific numbers (counts, throughput …)
 * @param ceiling set when the variant hit a resource limit; the ceiling is then the result
 */
public record Outcome(double wallMs, Map<String, Object> metrics, Optional<Ceiling> ceiling) {

    public Outcome {
        // Insertion order is kept: it is the order the record lists the metrics in.
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
    }

    public static Outcome of(double wallMs, Map<String, Object> metrics) {
        return new Outcome(wallMs, metrics, Optional.empty());
    }

    /** The number of threads that were running when creating one more failed, and why it failed. */
    public record Ceiling(long threads, String reason) {}
}
