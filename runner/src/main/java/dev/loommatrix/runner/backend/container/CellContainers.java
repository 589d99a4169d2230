package dev.loommatrix.runner.backend.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Volume;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The engine's one-container cells while they run: each created with the cell's limits and lock-down, started,
 * awaited, and removed with its volume; the running ones (several with --parallel-cells) killed on Ctrl-C.
 */
final class CellContainers {

    private final DockerClient docker;
    private final Set<String> running = ConcurrentHashMap.newKeySet();

    CellContainers(DockerClient docker) {
        this.docker = docker;
    }

    /** Creates the cell's container: its quota, memory (no swap) and pids, no network, read-only, uid 10001. */
    String create(CellContainer container) {
        HostConfig host = HostConfig.newHostConfig()
                .withNanoCPUs(container.cpus().movePointRight(9).longValueExact())
                .withMemory(container.memoryBytes())
                .withMemorySwap(container.memoryBytes()) // equal to memory: no swap, so OOM is OOM
                .withPidsLimit(container.pids())
                .withCpusetCpus(container.cpuset().map(Object::toString).orElse(null))
                .withNetworkMode(CellContainer.NETWORK)
                .withReadonlyRootfs(true)
                .withTmpFs(Map.of(CellContainer.TMPFS_PATH, CellContainer.TMPFS_OPTIONS))
                .withBinds(container.turns().stream()
                        .map(dir -> new Bind(dir.toString(), new Volume(CellScript.TURNS)))
                        .toList())
                .withCapDrop(Capability.ALL)
                .withSecurityOpts(List.of(CellContainer.SECURITY_OPT));
        List<String> env = new ArrayList<>();
        container.env().forEach((k, v) -> env.add(k + "=" + v));
        return docker.createContainerCmd(container.image())
                .withCmd(container.command())
                .withUser(CellContainer.USER)
                .withEnv(env)
                .withVolumes(new Volume(CellScript.OUT))
                .withLabels(container.labels())
                .withHostConfig(host)
                .exec()
                .getId();
    }

    /** Starts a created container, from now on killed by {@link #killAll}. */
    void start(String id) {
        running.add(id);
        docker.startContainerCmd(id).exec();
    }

    /** The container's exit code, or empty when it still ran after {@code timeoutMs}. */
    Optional<Integer> awaitExit(String id, long timeoutMs) throws InterruptedException {
        try (var callback = docker.waitContainerCmd(id).start()) {
            return Optional.of(callback.awaitStatusCode(timeoutMs, TimeUnit.MILLISECONDS));
        } catch (com.github.dockerjava.api.exception.DockerClientException timeout) {
            return Optional.empty();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Removes the container and its volume, whatever state it is in. */
    void remove(String id) {
        running.remove(id);
        try {
            docker.removeContainerCmd(id)
                    .withForce(true)
                    .withRemoveVolumes(true)
                    .exec();
        } catch (RuntimeException ignored) {
            // the engine may be gone; nothing left to clean through it
        }
    }

    /** Ctrl-C: every running cell container killed; each cell's run then sees it end and cleans up. */
    void killAll() {
        for (String id : List.copyOf(running)) {
            try {
                docker.killContainerCmd(id).exec();
            } catch (RuntimeException e) {
                // already gone
            }
        }
    }
}
