package dev.loommatrix.runner.backend.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.StreamType;
import com.github.dockerjava.api.model.Volume;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.runner.backend.UserCommand;
import dev.loommatrix.runner.backend.service.ServiceHost;
import dev.loommatrix.runner.backend.service.ServicePlacement;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * A service cell on a Docker engine: a network of the cell's own with no route out ({@code --internal}), the
 * generator's container on it for the whole cell (oha on CPUs of its own), and per repetition a fresh server
 * container under the cell's quota, memory, pids and lock-down — the same as every cell's, except that its
 * network is the cell's network instead of none.
 */
public final class ContainerServiceHost implements ServiceHost {

    private static final String SCRATCH = "/tmp";

    private final DockerClient docker;
    private final Cell cell;
    private final String runId;
    private final String serverImage;
    private final ServicePlacement placement;
    private final Path rawDir;
    private final int port;
    private final String network;
    private final String generator;
    /** The cell's containers' CPU: the generator's and each server's count as the cell's own work (issue #32). */
    private final ContainerCpu own;

    private volatile String serverIp = "";

    private ContainerServiceHost(
            DockerClient docker,
            Cell cell,
            String runId,
            String serverImage,
            ServicePlacement placement,
            Path rawDir,
            int port,
            String network,
            String generator,
            ContainerCpu own) {
        this.docker = docker;
        this.cell = cell;
        this.runId = runId;
        this.serverImage = serverImage;
        this.placement = placement;
        this.rawDir = rawDir;
        this.port = port;
        this.network = network;
        this.generator = generator;
        this.own = own;
    }

    /**
     * Creates the cell's network and starts its generator container; {@code own} learns of each container the cell
     * runs, so that their CPU is the cell's own work.
     */
    public static ContainerServiceHost open(
            DockerClient docker,
            Cell cell,
            String runId,
            String serverImage,
            String generatorImage,
            ServicePlacement placement,
            Path rawDir,
            int port,
            ContainerCpu own) {
        Map<String, String> labels = labels(cell, runId);
        String name = "loom-" + Integer.toHexString((runId + "/" + cell.id()).hashCode()) + "-"
                + Long.toHexString(System.nanoTime() & 0xffffff);
        String network = docker.createNetworkCmd()
                .withName(name)
                .withDriver("bridge")
                .withInternal(true) // no route out: the cell talks to itself only
                .withLabels(labels)
                .exec()
                .getId();
        try {
            HostConfig host = lockedDown(HostConfig.newHostConfig())
                    .withCpusetCpus(placement.generator().map(Object::toString).orElse(null))
                    .withNetworkMode(network);
            String id = docker.createContainerCmd(generatorImage)
                    .withCmd("sleep", "infinity")
                    // a volume, not the tmpfs: what oha keeps there is copied out through the engine's archive API
                    .withVolumes(new Volume(CellScript.OUT))
                    .withUser(CellContainer.USER)
                    .withLabels(with(labels, "dev.loommatrix.role", "load-generator"))
                    .withHostConfig(host)
                    .exec()
                    .getId();
            own.add(id);
            docker.startContainerCmd(id).exec();
            return new ContainerServiceHost(
                    docker, cell, runId, serverImage, placement, rawDir, port, network, id, own);
        } catch (RuntimeException e) {
            docker.removeNetworkCmd(network).exec();
            throw e;
        }
    }

    private static HostConfig lockedDown(HostConfig host) {
        return host.withReadonlyRootfs(true)
                .withTmpFs(Map.of(CellContainer.TMPFS_PATH, CellContainer.TMPFS_OPTIONS))
                .withCapDrop(Capability.ALL)
                .withSecurityOpts(List.of(CellContainer.SECURITY_OPT));
    }

    private static Map<String, String> labels(Cell cell, String runId) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("dev.loommatrix.cell", cell.id());
        labels.put(ContainerBackend.RUN_LABEL, runId);
        return labels;
    }

    private static Map<String, String> with(Map<String, String> labels, String key, String value) {
        Map<String, String> out = new LinkedHashMap<>(labels);
        out.put(key, value);
        return out;
    }

    @Override
    public Server start(String variant, int run, UserCommand.Launch launch) {
        HostConfig host = lockedDown(HostConfig.newHostConfig())
                .withNanoCPUs(cell.coordinates().cpus().movePointRight(9).longValueExact())
                .withMemory(cell.memoryBytes())
                .withMemorySwap(cell.memoryBytes()) // no swap: OOM is OOM
                .withPidsLimit(cell.pids())
                .withCpusetCpus(placement.server().map(Object::toString).orElse(null))
                .withNetworkMode(network);
        List<String> env = new ArrayList<>();
        cell.allEnv().forEach((k, v) -> env.add(k + "=" + v));
        launch.env().forEach((k, v) -> env.add(k + "=" + v));
        String id = docker.createContainerCmd(serverImage)
                .withCmd(launch.command())
                .withUser(CellContainer.USER)
                .withEnv(env)
                .withVolumes(new Volume(CellScript.OUT))
                .withWorkingDir(CellScript.OUT)
                .withLabels(with(
                        with(labels(cell, runId), "dev.loommatrix.role", "service"), "dev.loommatrix.variant", variant))
                .withHostConfig(host)
                .exec()
                .getId();
        own.add(id);
        docker.startContainerCmd(id).exec();
        var networks =
                docker.inspectContainerCmd(id).exec().getNetworkSettings().getNetworks();
        serverIp = networks.values().stream()
                .map(n -> n.getIpAddress())
                .filter(ip -> ip != null && !ip.isBlank())
                .findFirst()
                .orElse("");
        return new ContainerServer(id);
    }

    private final class ContainerServer implements Server {
        private final String id;
        private boolean stopped;

        ContainerServer(String id) {
            this.id = id;
        }

        @Override
        public boolean alive() {
            return Boolean.TRUE.equals(
                    docker.inspectContainerCmd(id).exec().getState().getRunning());
        }

        @Override
        public Optional<Integer> exitCode() {
            var state = docker.inspectContainerCmd(id).exec().getState();
            if (Boolean.TRUE.equals(state.getRunning()) || state.getExitCodeLong() == null) {
                return Optional.empty();
            }
            return Optional.of(state.getExitCodeLong().intValue());
        }

        /**
         * The container's CPU time from its own cgroup ({@code cpu.stat}'s {@code usage_usec} under cgroup v2,
         * {@code cpuacct.usage} under v1): every process of the server, as the quota counts it.
         */
        @Override
        public Optional<Double> cpuSeconds() throws InterruptedException {
            String script = "if [ -r /sys/fs/cgroup/cpu.stat ]; then awk '$1==\"usage_usec\"{print $2/1e6}' "
                    + "/sys/fs/cgroup/cpu.stat; else awk '{print $1/1e9}' /sys/fs/cgroup/cpuacct/cpuacct.usage; fi";
            Optional<String> out = exec(id, script, Duration.ofSeconds(10));
            try {
                return out.map(o -> Double.parseDouble(o.strip()));
            } catch (NumberFormatException unreadable) {
                return Optional.empty();
            }
        }

        @Override
        public String stop() throws IOException, InterruptedException {
            if (stopped) {
                return "";
            }
            stopped = true;
            try {
                // SIGTERM, 30 s to run the shutdown hooks (the agent writes its record), then SIGKILL
                docker.stopContainerCmd(id).withTimeout(30).exec();
            } catch (RuntimeException alreadyStopped) {
                // it had exited
            }
            String log = ContainerOutput.logs(docker, id, 2000);
            // the server's /out volume, appended to the cell's raw files (one server a repetition adds its lines)
            ContainerOutput.copyOut(docker, id, rawDir, ContainerOutput.Into.APPENDING);
            own.remove(id);
            docker.removeContainerCmd(id)
                    .withForce(true)
                    .withRemoveVolumes(true)
                    .exec();
            return log;
        }
    }

    @Override
    public Optional<String> generator(String script, Duration timeout) throws InterruptedException {
        return exec(generator, script, timeout);
    }

    /** Runs a bash script in one of the cell's containers; what it printed to stdout, or empty if it overran. */
    private Optional<String> exec(String container, String script, Duration timeout) throws InterruptedException {
        String exec = docker.execCreateCmd(container)
                .withCmd("bash", "-c", script)
                .withAttachStdout(true)
                .withAttachStderr(true)
                .exec()
                .getId();
        StringBuilder out = new StringBuilder();
        boolean done = docker.execStartCmd(exec)
                .exec(new ResultCallback.Adapter<Frame>() {
                    @Override
                    public void onNext(Frame frame) {
                        if (frame.getStreamType() == StreamType.STDOUT || frame.getStreamType() == StreamType.RAW) {
                            out.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
                        }
                    }
                })
                .awaitCompletion(timeout.toMillis(), TimeUnit.MILLISECONDS);
        return done ? Optional.of(out.toString()) : Optional.empty();
    }

    @Override
    public String keep() {
        return CellScript.OUT;
    }

    @Override
    public boolean fetch(String path, Path target) throws IOException {
        try (InputStream archive =
                        docker.copyArchiveFromContainerCmd(generator, path).exec();
                TarArchiveInputStream tar = new TarArchiveInputStream(archive)) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextTarEntry()) != null) {
                if (entry.isFile()) {
                    Files.copy(tar, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    return true;
                }
            }
            return false;
        } catch (com.github.dockerjava.api.exception.NotFoundException e) {
            return false;
        }
    }

    @Override
    public String serverAddress() {
        return serverIp + ":" + port;
    }

    @Override
    public String oha() {
        return GeneratorImage.OHA_IN_IMAGE;
    }

    @Override
    public String scratch() {
        return SCRATCH;
    }

    @Override
    public ServicePlacement placement() {
        return placement;
    }

    @Override
    public void close() {
        own.remove(generator);
        try {
            docker.removeContainerCmd(generator)
                    .withForce(true)
                    .withRemoveVolumes(true)
                    .exec();
        } catch (RuntimeException ignored) {
            // already gone
        }
        try {
            docker.removeNetworkCmd(network).exec();
        } catch (RuntimeException ignored) {
            // a leftover network is removed with the run's leftovers
        }
    }
}
