package dev.loommatrix.runner.backend;

import dev.loommatrix.core.matrix.Iterations;
import dev.loommatrix.core.plan.Cell;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The JVM command line for one run of one variant: the same in a container and on a host. */
public final class HarnessCommand {

    /** The harness reads the default scheduler's pool; it lives in java.lang. */
    static final String ADD_OPENS = "--add-opens=java.base/java.lang=ALL-UNNAMED";

    private HarnessCommand() {}

    /**
     * Heap for the JVM under test unless the matrix sets one: 60 % of the cell's memory, leaving room for
     * thread stacks and metaspace.
     */
    public static long heapBytes(Cell cell) {
        return cell.memoryBytes() * 6 / 10;
    }

    /** Whether the matrix sizes the heap itself (jvmArgs or JAVA_TOOL_OPTIONS); then it is not derived. */
    static boolean setsHeap(Cell cell) {
        return setsHeap(cell, List.of());
    }

    /** The same, counting a user variant's own jvmArgs. */
    static boolean setsHeap(Cell cell, List<String> variantArgs) {
        List<String> given = new ArrayList<>(cell.allJvmArgs());
        given.addAll(variantArgs);
        given.addAll(List.of(cell.allEnv().getOrDefault("JAVA_TOOL_OPTIONS", "").split("\\s+")));
        return given.stream()
                .anyMatch(a -> a.startsWith("-Xmx")
                        || a.startsWith("-XX:MaxHeapSize=")
                        || a.startsWith("-XX:MaxRAMPercentage=")
                        || a.startsWith("-XX:MaxRAM="));
    }

    /** Whether the cell's forks can take turns: the harness's own workloads, iterated (nested) forks. */
    public static boolean takesTurns(Cell cell) {
        return cell.workload().user().isEmpty() && !cell.iterations().equals(Iterations.ONCE);
    }

    public static List<String> jvmArgs(Cell cell, List<String> backendArgs) {
        List<String> args = new ArrayList<>();
        args.add(ADD_OPENS);
        args.addAll(cellJvmArgs(cell, backendArgs));
        return args;
    }

    /**
     * What every JVM of the cell is started with, the harness's and the user's alike: the heap (unless the
     * matrix sizes it), the backend's flags, the scheduler settings of the cell, the matrix's jvmArgs.
     */
    public static List<String> cellJvmArgs(Cell cell, List<String> backendArgs) {
        return cellJvmArgs(cell, backendArgs, List.of());
    }

    /** The same for a user variant, whose own jvmArgs may size the heap. */
    static List<String> cellJvmArgs(Cell cell, List<String> backendArgs, List<String> variantArgs) {
        List<String> args = new ArrayList<>();
        if (!setsHeap(cell, variantArgs)) {
            args.add("-Xmx" + (heapBytes(cell) >> 20) + "m");
        }
        args.addAll(backendArgs);
        Map<String, String> scheduler = Map.of(
                "parallelism", cell.coordinates().parallelism(),
                "maxPoolSize", cell.coordinates().maxPoolSize(),
                "minRunnable", cell.coordinates().minRunnable());
        for (String key : List.of("parallelism", "maxPoolSize", "minRunnable")) {
            if (!scheduler.get(key).equals("auto")) {
                args.add("-Djdk.virtualThreadScheduler." + key + "=" + scheduler.get(key));
            }
        }
        args.addAll(cell.allJvmArgs());
        return args;
    }

    public static List<String> command(
            String java, String harnessJar, Cell cell, String variant, String recordsFile, List<String> backendArgs) {
        return command(java, harnessJar, cell, variant, recordsFile, backendArgs, Optional.empty());
    }

    /**
     * The same, its iterations taken by turns with another side's fork through the pipes in {@code turns}
     * ({@code --turns}, issue #30) when given and the cell's forks iterate; a fork that runs once has no turns.
     */
    public static List<String> command(
            String java,
            String harnessJar,
            Cell cell,
            String variant,
            String recordsFile,
            List<String> backendArgs,
            Optional<String> turns) {
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmArgs(cell, backendArgs));
        command.add("-jar");
        command.add(harnessJar);
        command.add(cell.workload().id());
        command.add("--variant");
        command.add(variant);
        cell.workload().params().entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(p -> {
                    command.add("--param");
                    command.add(p.getKey() + "=" + p.getValue());
                });
        if (!cell.iterations().equals(Iterations.ONCE)) {
            command.add("--iterations");
            command.add(cell.iterations().argument());
        }
        command.add("--out");
        command.add(recordsFile);
        if (turns.isPresent() && takesTurns(cell)) {
            command.add("--turns");
            command.add(turns.get());
        }
        return command;
    }
}
