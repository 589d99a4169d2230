package dev.loommatrix.core.plan;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Where a cell sits in the matrix: one value per axis, plus the JDK's VM and version for readers. */
public record Coordinates(
        String jdk,
        String vm,
        int version,
        String os,
        BigDecimal cpus,
        String cpuset,
        String parallelism,
        String maxPoolSize,
        String minRunnable,
        String workload) {

    public Coordinates {
        cpuset = cpuset == null ? ALL_CPUS : cpuset; // cell files written before the cpuset axis existed
    }

    /** No cpuset: the CPU quota alone limits the cell. */
    public static final String ALL_CPUS = "all";

    /**
     * The stable slug: {@code temurin-21.linux.cpus-2.par-auto.max-auto.minr-auto.sleep-bound}. A cpuset
     * other than "all" adds a segment after cpus ({@code cpus-2.cpuset-0_2-3}, commas as underscores),
     * so ids of matrices without a cpuset axis never change.
     */
    public String cellId() {
        List<String> parts = new ArrayList<>(List.of(jdk, os, "cpus-" + cpus.toPlainString()));
        if (!cpuset.equals(ALL_CPUS)) {
            parts.add("cpuset-" + cpuset.replace(',', '_'));
        }
        parts.addAll(List.of("par-" + parallelism, "max-" + maxPoolSize, "minr-" + minRunnable, workload));
        return String.join(".", parts);
    }

    /**
     * The CPU quota in whole CPUs, rounded up as HotSpot rounds a quota (1.5 → 2): how many CPUs a cell is pinned to
     * and its JVM told of where no cgroup limits it, and how many a placement gives it.
     */
    public int wholeCpus() {
        return wholeCpus(cpus);
    }

    /** A CPU quota in whole CPUs, rounded up (see {@link #wholeCpus()}). */
    public static int wholeCpus(BigDecimal quota) {
        return quota.setScale(0, java.math.RoundingMode.CEILING).intValueExact();
    }

    /** The cell's cpuset; empty for "all". */
    public java.util.Optional<CpuSet> cpuSet() {
        return cpuset.equals(ALL_CPUS) ? java.util.Optional.empty() : java.util.Optional.of(CpuSet.parse(cpuset));
    }

    /** Axis name → value, in the contract's axis order; what include/exclude entries match against. */
    public Map<String, String> axisValues() {
        Map<String, String> axes = new LinkedHashMap<>();
        axes.put("jdk", jdk);
        axes.put("os", os);
        axes.put("cpus", cpus.toPlainString());
        axes.put("cpuset", cpuset);
        axes.put("parallelism", parallelism);
        axes.put("maxPoolSize", maxPoolSize);
        axes.put("minRunnable", minRunnable);
        axes.put("workload", workload);
        return axes;
    }
}
