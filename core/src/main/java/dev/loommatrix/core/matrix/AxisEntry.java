package dev.loommatrix.core.matrix;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One {@code include} or {@code exclude} entry: values for some axes (as written, e.g. cpus "1.5"), and
 * for include what it adds to the combinations it extends or creates.
 *
 * @param axes axis name → value, only axes the entry names, in the order written
 */
public record AxisEntry(Map<String, String> axes, List<String> jvmArgs, Map<String, String> env) {

    /** The axes of the cross product, in the contract's order. */
    public static final List<String> AXES =
            List.of("jdk", "os", "cpus", "cpuset", "parallelism", "maxPoolSize", "minRunnable", "workload");

    public AxisEntry {
        for (String axis : axes.keySet()) {
            if (!AXES.contains(axis)) {
                throw new IllegalArgumentException("not an axis: " + axis);
            }
        }
        axes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(axes));
        jvmArgs = List.copyOf(jvmArgs);
        env = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(env));
    }

    public Optional<String> value(String axis) {
        return Optional.ofNullable(axes.get(axis));
    }
}
