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

    /**
     * The workload's JMH micro case for this variant, run after the timed section and after the
     * record's GC/CPU deltas were taken, so it never disturbs them. Empty where there is none or the
     * parameters turn it off ({@code jmhIterations: 0}).
     */
    default Map<String, Object> micro(Variant variant, Params params) {
        return Map.of();
    }

    /**
     * Runs one JMH benchmark with the workload's {@code jmh*} parameters ({@link
     * dev.loommatrix.harness.jmh.JmhRun}); nothing when {@code jmhIterations} is 0 or absent.
     */
    static Map<String, Object> jmh(
            Params params, Class<?> benchmark, String method, Map<String, String> jmhParams, String scoreName) {
        if (!params.values().containsKey("jmhIterations") || params.get("jmhIterations") == 0) {
            return Map.of();
        }
        var settings = new dev.loommatrix.harness.jmh.JmhRun.Settings(
                params.getInt("jmhWarmupIterations"), params.getInt("jmhIterations"), params.get("jmhIterationMs"));
        return dev.loommatrix.harness.jmh.JmhRun.run(benchmark, method, jmhParams, settings, scoreName);
    }

    /** Whether JFR pinned events are the point of this workload (recorded then even though JFR costs CPU). */
    default boolean recordsPinnedEvents() {
        return false;
    }

    /** Whether this variant runs its tasks on virtual threads (then the carriers used are reported). */
    default boolean usesVirtualThreads(Variant variant) {
        return variant instanceof Variant.Virtual;
    }

    default boolean accepts(Variant variant) {
        return variants().contains(variant.name())
                || (variant instanceof Variant.Pool && variants().contains("pool:*"));
    }
}
