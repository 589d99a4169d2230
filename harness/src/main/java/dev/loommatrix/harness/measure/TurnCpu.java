package dev.loommatrix.harness.measure;

import java.util.Optional;

/**
 * The CPU where each turn of a fork in lockstep begins (issue #30): on JDK 21, none — a thread sets its own CPU
 * affinity only through native code, which the Java 21 platform reaches only by a preview API. The JDK 22+ build
 * of this class ({@code src/main/java22}, in the jar's {@code META-INF/versions/22}) moves each turn's thread to
 * one CPU; here the scheduler places it, as it places a fork alone.
 */
final class TurnCpu {

    private TurnCpu() {}

    /** Why turns cannot begin on one CPU here. */
    static String whyNot() {
        return Runtime.version().feature() < 22
                ? "a JVM before 22 cannot set a thread's CPU"
                : "this harness was built without its JDK 22+ classes";
    }

    /** The CPU turns begin on: none on JDK 21. */
    static Optional<TurnCpu> here() {
        return Optional.empty();
    }

    int cpu() {
        throw new IllegalStateException("no CPU to move to on JDK 21");
    }

    /** Moves the calling thread to {@link #cpu}: never reached on JDK 21. */
    boolean move() {
        return false;
    }
}
