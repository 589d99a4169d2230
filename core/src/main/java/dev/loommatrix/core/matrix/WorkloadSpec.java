package dev.loommatrix.core.matrix;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A workload as the matrix asks for it: its variants (run in the same cell) and parameters. A built-in
 * workload is one of the catalogue's ids ({@link Workloads}); a user workload carries the user's code.
 */
public record WorkloadSpec(String id, List<String> variants, Map<String, Long> params, Optional<UserWorkload> user) {

    public WorkloadSpec {
        variants = List.copyOf(variants);
        params = Map.copyOf(params);
    }

    /** A built-in workload of the catalogue. */
    public WorkloadSpec(String id, List<String> variants, Map<String, Long> params) {
        this(id, variants, params, Optional.empty());
    }
}
