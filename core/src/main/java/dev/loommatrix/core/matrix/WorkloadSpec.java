package dev.loommatrix.core.matrix;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A workload as the matrix asks for it: its variants (run in the same cell) and parameters. A built-in
 * workload is one of the catalogue's ids ({@link Workloads}); a user workload carries the user's code.
 *
 * @param iterations a built-in workload's own iterations inside each JVM, over the matrix's (e.g. fewer for a
 *     workload whose one run already takes seconds)
 */
public record WorkloadSpec(
        String id,
        List<String> variants,
        Map<String, Long> params,
        Optional<UserWorkload> user,
        Optional<Iterations> iterations) {

    public WorkloadSpec {
        variants = List.copyOf(variants);
        params = Map.copyOf(params);
        iterations = iterations == null ? Optional.empty() : iterations;
    }

    /** A user workload (its suite or program decides its own iterations). */
    public WorkloadSpec(String id, List<String> variants, Map<String, Long> params, Optional<UserWorkload> user) {
        this(id, variants, params, user, Optional.empty());
    }

    /** A built-in workload of the catalogue, with the matrix's iterations. */
    public WorkloadSpec(String id, List<String> variants, Map<String, Long> params) {
        this(id, variants, params, Optional.empty(), Optional.empty());
    }

    /**
     * A capacity search (issue #52), built in or a service's {@code capacity:} load. Its repetitions run no warmup
     * repetition before them: each is a whole search whose every window has its own warmup and whose validation has
     * a fresh server of its own, so a search thrown away would cost minutes and warm nothing that is measured.
     */
    public boolean searchesCapacity() {
        return id.equals(Workloads.SPRING_BOOT_CAPACITY)
                || user.map(u -> u.artifact() instanceof UserWorkload.Service s
                                && s.load().model() instanceof ServiceLoad.Capacity)
                        .orElse(false);
    }
}
