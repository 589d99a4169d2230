package dev.loommatrix.core.conclude;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A reason for a condition's conclusion that the cell itself measured (issue #51) — never one from JDK folklore: a
 * cause the run did not measure is not claimed; {@link Kind#UNMEASURED} says which evidence would tell.
 *
 * @param variant the variant the evidence is about
 * @param evidence where in the cell it is: {@code jfr} (the profile's JFR summary), {@code measurements} (the
 *     variants' numbers), or {@code environment} (what the JVM reported)
 * @param words the reason, said with its numbers
 */
public record Cause(Kind kind, String variant, String evidence, String words) {

    public enum Kind {
        /** Virtual threads parked while pinned to their carrier (JFR). */
        @JsonProperty("pinning")
        PINNING,
        /** One side collected much longer than the other (JFR), on the collector the JVM chose. */
        @JsonProperty("gc")
        GC,
        /** The JVM used (nearly) all the CPU it had (JFR). */
        @JsonProperty("cpu-bound")
        CPU_BOUND,
        /** A pool ran at its Little's-law bound: its threads, not the CPU, set its time. */
        @JsonProperty("pool-bound")
        POOL_BOUND,
        /** What a thread costs in resident memory, each side's (the footprint workload). */
        @JsonProperty("memory")
        MEMORY,
        /** A run so short that starting threads is as much as the work. */
        @JsonProperty("too-small")
        TOO_SMALL,
        /** No cause measured: what would tell. */
        @JsonProperty("unmeasured")
        UNMEASURED
    }
}
