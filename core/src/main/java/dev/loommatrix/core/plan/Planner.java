package dev.loommatrix.core.plan;

import dev.loommatrix.core.matrix.AxisEntry;
import dev.loommatrix.core.matrix.JdkEntry;
import dev.loommatrix.core.matrix.Matrix;
import dev.loommatrix.core.matrix.WorkloadSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Expands a matrix into cells the way GitHub Actions expands {@code strategy.matrix}: the cross
 * product of the axes (in the contract's order), minus every combination an {@code exclude} entry
 * matches, then {@code include}: an entry extends each original combination whose axis values it
 * would not overwrite (adding its jvmArgs/env); an entry that extends none adds one new combination,
 * taking each unnamed axis's first listed value.
 */
public final class Planner {

    private Planner() {}

    public static List<Cell> plan(Matrix matrix) {
        List<Combination> product = crossProduct(matrix);
        product.removeIf(c -> matrix.exclude().stream().anyMatch(entry -> matches(entry, c.coordinates)));
        product.addAll(include(matrix, product));
        List<Cell> cells = new ArrayList<>();
        for (Combination c : product) {
            cells.add(cell(matrix, c));
        }
        return cells;
    }

    /** Every combination of the axes' values, in the contract's order (the last axis varies fastest). */
    private static List<Combination> crossProduct(Matrix matrix) {
        List<Combination> product = new ArrayList<>();
        for (JdkEntry jdk : matrix.jdks()) {
            for (String os : matrix.os()) {
                for (BigDecimal cpus : matrix.cpus()) {
                    for (String cpuset : matrix.cpuset()) {
                        for (String par : matrix.parallelism()) {
                            for (String max : matrix.maxPoolSize()) {
                                for (String minr : matrix.minRunnable()) {
                                    for (WorkloadSpec workload : matrix.workloads()) {
                                        product.add(new Combination(new Coordinates(
                                                jdk.id(),
                                                jdk.vm().id(),
                                                jdk.version(),
                                                os,
                                                cpus,
                                                cpuset,
                                                par,
                                                max,
                                                minr,
                                                workload.id())));
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return product;
    }

    /**
     * Applies the include entries: each extends the combinations of {@code product} it matches; the new
     * combinations of those that match none are returned, one per distinct set of coordinates.
     */
    private static List<Combination> include(Matrix matrix, List<Combination> product) {
        List<Combination> added = new ArrayList<>();
        for (AxisEntry entry : matrix.include()) {
            boolean extended = false;
            for (Combination combination : product) {
                if (matches(entry, combination.coordinates)) {
                    combination.extend(entry);
                    extended = true;
                }
            }
            if (!extended) {
                Coordinates coordinates = newCombination(matrix, entry);
                Combination existing = added.stream()
                        .filter(c -> c.coordinates.equals(coordinates))
                        .findFirst()
                        .orElse(null);
                if (existing == null) {
                    existing = new Combination(coordinates);
                    added.add(existing);
                }
                existing.extend(entry);
            }
        }
        return added;
    }

    private static Cell cell(Matrix matrix, Combination c) {
        JdkEntry jdk = matrix.jdk(c.coordinates.jdk()).orElseThrow();
        WorkloadSpec workload = matrix.workload(c.coordinates.workload()).orElseThrow();
        return new Cell(
                c.coordinates,
                jdk,
                workload,
                c.jvmArgs,
                c.env,
                matrix.repetitions(),
                workload.searchesCapacity() ? 0 : matrix.warmup(),
                workload.iterations()
                        .orElse(
                                dev.loommatrix.core.matrix.Workloads.measuredOnce(workload.id())
                                        ? dev.loommatrix.core.matrix.Iterations.ONCE
                                        : matrix.iterations()),
                matrix.timeout(),
                matrix.memoryBytes(),
                matrix.pids(),
                matrix.profiling());
    }

    /** An entry matches when every axis it names has the combination's value (extra keys don't count). */
    static boolean matches(AxisEntry entry, Coordinates coordinates) {
        Map<String, String> axes = coordinates.axisValues();
        return entry.axes().entrySet().stream()
                .allMatch(e -> axes.get(e.getKey()).equals(e.getValue()));
    }

    private static Coordinates newCombination(Matrix matrix, AxisEntry entry) {
        JdkEntry jdk =
                matrix.jdk(entry.value("jdk").orElse(matrix.jdks().get(0).id())).orElseThrow();
        return new Coordinates(
                jdk.id(),
                jdk.vm().id(),
                jdk.version(),
                entry.value("os").orElse(matrix.os().get(0)),
                entry.value("cpus").map(BigDecimal::new).orElse(matrix.cpus().get(0)),
                entry.value("cpuset").orElse(matrix.cpuset().get(0)),
                entry.value("parallelism").orElse(matrix.parallelism().get(0)),
                entry.value("maxPoolSize").orElse(matrix.maxPoolSize().get(0)),
                entry.value("minRunnable").orElse(matrix.minRunnable().get(0)),
                entry.value("workload").orElse(matrix.workloads().get(0).id()));
    }

    /** A combination being built: its coordinates and what include entries added to it. */
    private static final class Combination {
        final Coordinates coordinates;
        final List<String> jvmArgs = new ArrayList<>();
        final Map<String, String> env = new LinkedHashMap<>();

        Combination(Coordinates coordinates) {
            this.coordinates = coordinates;
        }

        void extend(AxisEntry entry) {
            jvmArgs.addAll(entry.jvmArgs());
            env.putAll(entry.env());
        }
    }
}
