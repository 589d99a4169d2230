package dev.loommatrix.core.matrix;

/**
 * What a cell collects to explain its numbers (issue #20), from extra JVM runs after each variant's timed
 * repetitions — never from the timed ones, so profiling cannot disturb a number.
 *
 * @param jfr one JFR recording per variant (HotSpot's profile settings, virtual-thread pinning at any
 *     duration), summarized into the cell record and kept with the cell's raw output
 */
public record Profiling(boolean jfr) {

    /** Nothing collected: the default, and the quick profile's. */
    public static final Profiling OFF = new Profiling(false);

    public boolean any() {
        return jfr;
    }
}
