package dev.loommatrix.harness.workload;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/** One experiment of the catalogue. It runs once per JVM; the runner repeats JVMs. */
public interface Workload {

    String id();

    /** Parameter names and defaults; the defaults reproduce the seed experiment at its published scale. */
    Map<String, Long> defaults();

    /** The variant names this workload accepts; {@code pool:*} stands for every pool size. */
    Set<String> variants();

    /** The smallest wall time physics allows for this variant, where the catalogue defines one. */
    OptionalDouble lowerBoundMs(Variant variant, Params params);

    /** Runs the workload once. Must not print anything while timing. */
    Outcome run(Variant variant, Params params) throws InterruptedException;

    /** Whether this variant runs its tasks on virtual threads (then the carriers used are reported). */
    default boolean usesVirtualThreads(Variant variant) {
        return variant instanceof Variant.Virtual;
    }

    default boolean accepts(Variant variant) {
        return variants().contains(variant.name())
                || (variant instanceof Variant.Pool && variants().contains("pool:*"));
    }
}
