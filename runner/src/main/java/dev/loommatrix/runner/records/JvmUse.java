package dev.loommatrix.runner.records;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What some JVMs used, as the agent saw them: what a user workload's sample carries beside its score. */
final class JvmUse {

    private JvmUse() {}

    /**
     * Their totals (CPU, GC, pinned parks) and peaks (carriers, resident memory), and how many forks they were.
     */
    static Map<String, Object> of(List<AgentRecord> jvms, boolean forks) {
        Map<String, Object> use = new LinkedHashMap<>();
        for (String sum : List.of("cpuMs", "gcCount", "gcMs", "pinnedEvents", "pinnedMs")) {
            double[] values = values(jvms, sum);
            if (values.length > 0) {
                use.put(sum, exact(Arrays.stream(values).sum()));
            }
        }
        for (String peak : List.of("carriers", "peakRssBytes")) {
            double[] values = values(jvms, peak);
            if (values.length > 0) {
                use.put(peak, exact(Arrays.stream(values).max().orElseThrow()));
            }
        }
        if (forks) {
            use.put("forks", jvms.size());
        }
        jvms.stream()
                .flatMap(r -> r.pinnedEventsUnavailable().stream())
                .findFirst()
                .ifPresent(why -> use.put("pinnedEventsUnavailable", why));
        return use;
    }

    /** A count stays an integer in the file, as the agent wrote it. */
    private static Number exact(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? (Number) (long) value : (Number) value;
    }

    private static double[] values(List<AgentRecord> jvms, String metric) {
        return jvms.stream()
                .map(r -> r.metrics().get(metric))
                .filter(v -> v instanceof Number)
                .mapToDouble(v -> ((Number) v).doubleValue())
                .toArray();
    }
}
