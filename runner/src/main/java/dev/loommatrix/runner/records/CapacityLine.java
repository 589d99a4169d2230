package dev.loommatrix.runner.records;

import dev.loommatrix.core.capacity.CapacityResult;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One repetition of a capacity search (issue #52), as the runner keeps it beside the windows' load reports.
 *
 * @param result the outcome, the capacity if one was found, and every window's verdict in the order run
 * @param servers the server JVMs the repetition started: the search's, and the validation's when it ran (the
 *     records file holds a line for each; the results read them as one run)
 * @param serverCpuSeconds the server's CPU time in each measured window, by the window's level name, where the
 *     engine could read it: against the cell's CPU quota it says whether the CPU set the capacity
 */
public record CapacityLine(CapacityResult result, int servers, Map<String, Double> serverCpuSeconds) {
    public CapacityLine {
        serverCpuSeconds = java.util.Collections.unmodifiableMap(
                new LinkedHashMap<>(serverCpuSeconds == null ? Map.of() : serverCpuSeconds));
    }

    /** A window's level name: the rate, and whether it ran on the validation's fresh server. */
    public static String level(double rate, boolean validation) {
        return dev.loommatrix.core.matrix.ServiceLoad.Open.level(rate) + (validation ? " on a fresh server" : "");
    }
}
