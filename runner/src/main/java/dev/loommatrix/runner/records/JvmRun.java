package dev.loommatrix.runner.records;

import java.util.ArrayList;
import java.util.List;

/** One fresh JVM run of a user workload's variant: the JVM the driver started and the JMH forks it started. */
public record JvmRun(AgentRecord host, List<AgentRecord> forks) {
    public JvmRun {
        forks = List.copyOf(forks);
    }

    /** Every JVM of the run, forks first, as they ended. */
    List<AgentRecord> all() {
        List<AgentRecord> all = new ArrayList<>(forks);
        all.add(host);
        return all;
    }
}
