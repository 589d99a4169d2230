package dev.loommatrix.runner.plan;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/** Where a cell sits in the matrix: one value per axis, plus the JDK's VM and version for readers. */
public record Coordinates(
        String jdk,
        String vm,
        int version,
        String os,
        BigDecimal cpus,
        String parallelism,
        String maxPoolSize,
        String minRunnable,
        String workload) {

    /** The stable slug: {@code temurin-21.linux.cpus-2.par-auto.max-auto.minr-auto.sleep-bound}. */
    public String cellId() {
        return String.join(
                ".",
                jdk,
                os,
                "cpus-" + cpus.toPlainString(),
                "par-" + parallelism,
                "max-" + maxPoolSize,
                "minr-" + minRunnable,
                workload);
    }

    /** Axis name → value, in the contract's axis order; what include/exclude entries match against. */
    public Map<String, String> axisValues() {
        Map<String, String> axes = new LinkedHashMap<>();
        axes.put("jdk", jdk);
        axes.put("os", os);
        axes.put("cpus", cpus.toPlainString());
        axes.put("parallelism", parallelism);
        axes.put("maxPoolSize", maxPoolSize);
        axes.put("minRunnable", minRunnable);
        axes.put("workload", workload);
        return axes;
    }
}
