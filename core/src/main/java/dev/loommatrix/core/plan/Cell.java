package dev.loommatrix.core.plan;

import dev.loommatrix.core.matrix.JdkEntry;
import dev.loommatrix.core.matrix.WorkloadSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One point of the matrix, with everything needed to run it: the JDK entry, the workload with its
 * variants, the limits, and what include entries added (jvmArgs, env).
 */
public record Cell(
        Coordinates coordinates,
        JdkEntry jdk,
        WorkloadSpec workload,
        List<String> jvmArgs,
        Map<String, String> env,
        int repetitions,
        int warmup,
        dev.loommatrix.core.matrix.Iterations iterations,
        Duration timeout,
        long memoryBytes,
        long pids,
        dev.loommatrix.core.matrix.Profiling profiling) {

    public Cell {
        jvmArgs = List.copyOf(jvmArgs);
        env = Map.copyOf(env);
        profiling = profiling == null ? dev.loommatrix.core.matrix.Profiling.OFF : profiling;
    }

    /** This cell with another workload definition (its variants narrowed, say); everything else as it is. */
    public Cell withWorkload(WorkloadSpec other) {
        return new Cell(
                coordinates,
                jdk,
                other,
                jvmArgs,
                env,
                repetitions,
                warmup,
                iterations,
                timeout,
                memoryBytes,
                pids,
                profiling);
    }

    /** A cell that profiles nothing. */
    public Cell(
            Coordinates coordinates,
            JdkEntry jdk,
            WorkloadSpec workload,
            List<String> jvmArgs,
            Map<String, String> env,
            int repetitions,
            int warmup,
            dev.loommatrix.core.matrix.Iterations iterations,
            Duration timeout,
            long memoryBytes,
            long pids) {
        this(
                coordinates,
                jdk,
                workload,
                jvmArgs,
                env,
                repetitions,
                warmup,
                iterations,
                timeout,
                memoryBytes,
                pids,
                dev.loommatrix.core.matrix.Profiling.OFF);
    }

    public String id() {
        return coordinates.cellId();
    }

    /** The JDK entry's jvmArgs followed by those an include entry added. */
    public List<String> allJvmArgs() {
        List<String> args = new ArrayList<>(jdk.jvmArgs());
        args.addAll(jvmArgs);
        return args;
    }

    /** The JDK entry's env, its javaToolOptions policy, then the include entry's env (last wins). */
    public Map<String, String> allEnv() {
        Map<String, String> all = new LinkedHashMap<>(jdk.env());
        jdk.javaToolOptions().ifPresent(options -> all.put("JAVA_TOOL_OPTIONS", options));
        all.putAll(env);
        return all;
    }

    /**
     * The iterations each fork will measure of the metric it is judged by, as planned: a JMH suite's measurement
     * iterations (JMH's default where the entry leaves them to the suite), a built-in workload's measured
     * iterations, and one for a program, a service or a built-in service (one window per fresh server).
     */
    public int measuredIterationsPerFork() {
        if (workload.user().isPresent()) {
            return workload.user().get().artifact() instanceof dev.loommatrix.core.matrix.UserWorkload.Jmh jmh
                    ? jmh.iterations().orElse(CostModel.JMH_ITERATIONS)
                    : 1;
        }
        boolean service = dev.loommatrix.core.matrix.Workloads.find(workload.id())
                .filter(dev.loommatrix.core.matrix.Workloads.Definition::service)
                .isPresent();
        return service ? 1 : iterations.measure();
    }
}
