package dev.loommatrix.core.matrix;

import java.util.List;
import java.util.Map;

/** A workload as the matrix asks for it: its variants (run in the same cell) and parameters. */
public record WorkloadSpec(String id, List<String> variants, Map<String, Long> params) {

    public WorkloadSpec {
        variants = List.copyOf(variants);
        params = Map.copyOf(params);
    }
}
