package dev.loommatrix.core.matrix;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A validated matrix.yaml (schema 1) with the chosen profile already applied. The axis lists keep
 * the file's order: "first listed value" matters for include.
 */
public record Matrix(
        Path file,
        Optional<String> profile,
        List<JdkEntry> jdks,
        List<String> os,
        List<BigDecimal> cpus,
        List<String> cpuset,
        List<String> parallelism,
        List<String> maxPoolSize,
        List<String> minRunnable,
        List<WorkloadSpec> workloads,
        int repetitions,
        int warmup,
        Iterations iterations,
        Duration timeout,
        long memoryBytes,
        long pids,
        List<AxisEntry> exclude,
        List<AxisEntry> include,
        Optional<String> id,
        Profiling profiling) {

    public static final int SCHEMA = 1;

    public Matrix {
        jdks = List.copyOf(jdks);
        os = List.copyOf(os);
        cpus = List.copyOf(cpus);
        cpuset = List.copyOf(cpuset);
        parallelism = List.copyOf(parallelism);
        maxPoolSize = List.copyOf(maxPoolSize);
        minRunnable = List.copyOf(minRunnable);
        workloads = List.copyOf(workloads);
        exclude = List.copyOf(exclude);
        include = List.copyOf(include);
    }

    public Optional<JdkEntry> jdk(String id) {
        return jdks.stream().filter(j -> j.id().equals(id)).findFirst();
    }

    public Optional<WorkloadSpec> workload(String id) {
        return workloads.stream().filter(w -> w.id().equals(id)).findFirst();
    }
}
