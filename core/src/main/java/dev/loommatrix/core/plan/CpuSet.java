package dev.loommatrix.core.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A set of CPU numbers, read and written the way Linux does ({@code "0,2-3"}): a cell's cpuset axis
 * value, the affinity a host run gets, and the {@code Cpus_allowed_list} the JVM reports back — compared
 * as sets, so "0,1" and "0-1" agree.
 */
public record CpuSet(SortedSet<Integer> cpus) {

    public CpuSet {
        cpus = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(cpus));
    }

    public static CpuSet parse(String list) {
        SortedSet<Integer> cpus = new TreeSet<>();
        for (String range : list.trim().split(",")) {
            String[] ends = range.trim().split("-");
            int from = Integer.parseInt(ends[0].trim());
            int to = ends.length == 1 ? from : Integer.parseInt(ends[1].trim());
            for (int cpu = from; cpu <= to; cpu++) {
                cpus.add(cpu);
            }
        }
        return new CpuSet(cpus);
    }

    /** CPUs 0 … n-1. */
    public static CpuSet first(int n) {
        SortedSet<Integer> cpus = new TreeSet<>();
        for (int cpu = 0; cpu < n; cpu++) {
            cpus.add(cpu);
        }
        return new CpuSet(cpus);
    }

    public int size() {
        return cpus.size();
    }

    public int highest() {
        return cpus.last();
    }

    /** Linux's list form, ranges collapsed: {0, 1, 3} → "0-1,3". */
    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        Integer start = null;
        Integer previous = null;
        for (int cpu : cpus) {
            if (start == null) {
                start = cpu;
            } else if (cpu != previous + 1) {
                parts.add(start.equals(previous) ? String.valueOf(start) : start + "-" + previous);
                start = cpu;
            }
            previous = cpu;
        }
        if (start != null) {
            parts.add(start.equals(previous) ? String.valueOf(start) : start + "-" + previous);
        }
        return String.join(",", parts);
    }

    /** The hex affinity mask Windows' {@code start /AFFINITY} takes: {0,1} → 3, {1,3} → A. */
    public String windowsMask() {
        long mask = 0;
        for (int cpu : cpus) {
            mask |= 1L << cpu;
        }
        return Long.toHexString(mask).toUpperCase(Locale.ROOT);
    }
}
