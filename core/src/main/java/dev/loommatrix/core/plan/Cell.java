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
}
