package dev.loommatrix.runner.backend.container;

import dev.loommatrix.runner.host.CellCpu;
import dev.loommatrix.runner.host.CgroupCpu;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * The CPU of every container a cell runs (issue #32), for telling its own work from other work on the host: its one
 * container, or a service cell's load generator and the server of each repetition. A container's cgroup goes with
 * it, so what a removed container used is carried on: the sum only grows. Empty while no container of the cell can
 * be read (before its first starts, after its last is gone): such an interval says nothing of other work.
 */
public final class ContainerCpu implements CellCpu {

    /** A container's counters as its cgroup has them: CPU used, and time throttled, cumulative nanoseconds. */
    record Counters(OptionalLong usage, OptionalLong throttled) {}

    private final Function<String, Counters> cgroup;
    /** Each live container's last counters read (zero until its cgroup is there). */
    private final Map<String, long[]> live = new LinkedHashMap<>();

    private long endedUsage;
    private long endedThrottled;

    ContainerCpu() {
        this(id -> new Counters(CgroupCpu.usageNanos(id), CgroupCpu.throttledNanos(id)));
    }

    ContainerCpu(Function<String, Counters> cgroup) {
        this.cgroup = cgroup;
    }

    /** A container of the cell, from its creation on (its counters start at zero). */
    public synchronized void add(String containerId) {
        live.putIfAbsent(containerId, new long[2]);
    }

    /** A container of the cell about to be removed, or gone: what it used stays counted. */
    public synchronized void remove(String containerId) {
        long[] last = live.remove(containerId);
        if (last != null) {
            update(containerId, last);
            endedUsage += last[0];
            endedThrottled += last[1];
        }
    }

    @Override
    public synchronized OptionalLong nanos() {
        return sum(0, endedUsage, Counters::usage);
    }

    @Override
    public synchronized OptionalLong throttledNanos() {
        return sum(1, endedThrottled, Counters::throttled);
    }

    /** The live containers' counter {@code i} read now, plus the removed ones'; empty when no live one has it. */
    private OptionalLong sum(int i, long ended, Function<Counters, OptionalLong> which) {
        boolean read = false;
        long sum = ended;
        for (var container : live.entrySet()) {
            long[] last = container.getValue();
            OptionalLong now = which.apply(cgroup.apply(container.getKey()));
            if (now.isPresent()) {
                read = true;
                last[i] = Math.max(last[i], now.getAsLong()); // never backwards
            }
            sum += last[i];
        }
        return read ? OptionalLong.of(sum) : OptionalLong.empty();
    }

    /** Reads a container's counters into {@code last}, never backwards. */
    private void update(String id, long[] last) {
        Counters now = cgroup.apply(id);
        now.usage().ifPresent(u -> last[0] = Math.max(last[0], u));
        now.throttled().ifPresent(t -> last[1] = Math.max(last[1], t));
    }

    @Override
    public String source() {
        return "the cgroups of the cell's containers, a service cell's load generator's among them (cpuacct.usage, or"
                + " cpu.stat on cgroup v2)";
    }
}
