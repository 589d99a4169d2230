package dev.loommatrix.runner.backend.container;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.CpuSet;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One cell's container, decided once: what runs, as whom, with which limits and which lock-down (no
 * network, read-only root, all capabilities dropped, no new privileges, uid 10001; an A/B pair in lockstep adds
 * its side's turns directory, two named pipes). The engine call
 * ({@link ContainerBackend}) and the {@code docker run} line kept beside the raw output both read it, so
 * the container a person re-runs by hand is the one the cell ran in.
 */
public record CellContainer(
        String image,
        String script,
        Map<String, String> env,
        Map<String, String> labels,
        BigDecimal cpus,
        long memoryBytes,
        long pids,
        Optional<CpuSet> cpuset,
        Optional<Path> turns) {

    public static final String USER = "10001:10001";
    public static final String NETWORK = "none";
    public static final String TMPFS_PATH = "/tmp";
    public static final String TMPFS_OPTIONS = "rw,exec,nosuid,size=268435456";
    public static final String SECURITY_OPT = "no-new-privileges";

    public CellContainer {
        env = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(env));
        labels = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    }

    /** @param turns an A/B pair's turns directory of this side, mounted at {@link CellScript#TURNS} (issue #30) */
    static CellContainer of(
            Cell cell, String runId, String image, String script, Optional<CpuSet> cpuset, Optional<Path> turns) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("dev.loommatrix.cell", cell.id());
        labels.put(ContainerBackend.RUN_LABEL, runId);
        return new CellContainer(
                image,
                script,
                cell.allEnv(),
                labels,
                cell.coordinates().cpus(),
                cell.memoryBytes(),
                cell.pids(),
                cpuset,
                turns);
    }

    List<String> command() {
        return List.of("sh", "-c", script);
    }

    /** The same container as a {@code docker run} argument list. */
    List<String> dockerRunArgs() {
        List<String> args = new ArrayList<>(List.of(
                "docker",
                "run",
                "--rm",
                "--cpus",
                cpus.toPlainString(),
                "--memory",
                String.valueOf(memoryBytes),
                "--memory-swap", // equal to memory: no swap, so OOM is OOM
                String.valueOf(memoryBytes),
                "--pids-limit",
                String.valueOf(pids)));
        cpuset.ifPresent(set -> args.addAll(List.of("--cpuset-cpus", set.toString())));
        args.addAll(List.of(
                "--network",
                NETWORK,
                "--read-only",
                "--tmpfs",
                TMPFS_PATH + ":" + TMPFS_OPTIONS,
                "--cap-drop",
                "ALL",
                "--security-opt",
                SECURITY_OPT,
                "--user",
                USER,
                "--volume",
                CellScript.OUT));
        turns.ifPresent(dir -> args.addAll(List.of("--volume", dir + ":" + CellScript.TURNS)));
        labels.forEach((k, v) -> args.addAll(List.of("--label", k + "=" + v)));
        env.forEach((k, v) -> args.addAll(List.of("--env", k + "=" + v)));
        args.add(image);
        args.addAll(command());
        return args;
    }
}
