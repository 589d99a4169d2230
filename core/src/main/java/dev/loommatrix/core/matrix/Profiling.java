package dev.loommatrix.core.matrix;

/**
 * What a cell collects to explain its numbers (issue #20), from extra JVM runs after each variant's timed
 * repetitions — never from the timed ones, so profiling cannot disturb a number.
 *
 * @param jfr one JFR recording per variant (HotSpot's profile settings, virtual-thread pinning at any
 *     duration), summarized into the cell record and kept with the cell's raw output
 * @param flame CPU and wall-clock flame graphs per variant from async-profiler (Linux)
 */
public record Profiling(boolean jfr, boolean flame) {

    /** Nothing collected: the default, and the quick profile's. */
    public static final Profiling OFF = new Profiling(false, false);

    public boolean any() {
        return jfr || flame;
    }
}
