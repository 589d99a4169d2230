package dev.loommatrix.runner.backend.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.HostConfig;
import com.github.dockerjava.api.model.Volume;
import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.CpuSet;
import dev.loommatrix.runner.backend.ContainerEngine;
import dev.loommatrix.runner.backend.Execution;
import dev.loommatrix.runner.backend.HarnessCommand;
import dev.loommatrix.runner.backend.ProfileRun;
import dev.loommatrix.runner.backend.service.Oha;
import dev.loommatrix.runner.backend.service.SeedServices;
import dev.loommatrix.runner.backend.service.ServiceCell;
import dev.loommatrix.runner.backend.service.ServiceCells;
import dev.loommatrix.runner.backend.service.ServicePlacement;
import dev.loommatrix.runner.host.CellCpu;
import dev.loommatrix.runner.records.Attestation;
import dev.loommatrix.runner.records.CellAssembler;
import dev.loommatrix.runner.records.CellOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.testcontainers.dockerclient.DockerClientProviderStrategy;

/**
 * One container per cell: the cell's CPU quota, memory (no swap) and pids limits, no network, a
 * read-only root file system, uid 10001, all capabilities dropped, no-new-privileges. Results land in
 * the {@code /out} volume and are copied out after the container ends — also when it failed, so
 * finished variants are kept.
 */
public final class ContainerBackend implements ContainerEngine {

    private final DockerClient docker;
    private final CellImages images;
    private final int hostCpus;
    /** The engine's own ID (docker info): which engine a run measures on, for its measurement lock. */
    private final String engineId;
    /** Why the engine's containers do not run on this host's kernel, if they do not (see {@link #elsewhere}). */
    private final Optional<String> elsewhere;
    /** Containers now running (several with --parallel-cells), so Ctrl-C can kill them all. */
    private final java.util.Set<String> running = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Each running cell's containers, for reading their cgroups' CPU use (issue #32). */
    private final Map<String, ContainerCpu> cellContainers = new java.util.concurrent.ConcurrentHashMap<>();

    private ContainerBackend(DockerClient docker, Optional<java.nio.file.Path> harness) {
        this.docker = docker;
        this.images = new CellImages(docker, harness);
        var info = docker.infoCmd().exec();
        this.hostCpus = info.getNCPU();
        this.engineId = String.valueOf(info.getId());
        this.elsewhere = elsewhere(
                String.valueOf(info.getName()),
                String.valueOf(info.getKernelVersion()),
                thisHostName(),
                System.getProperty("os.version"));
    }

    @Override
    public String engineId() {
        return engineId;
    }

    /**
     * Why this engine's containers cannot share this host's named pipes, if they cannot (issue #30: an A/B pair
     * in lockstep bind-mounts its turns directory, and the pipes in it work only where the containers run on this
     * host's kernel). A remote engine (DOCKER_HOST tcp://…), Docker Desktop's VM and a runner that itself runs in
     * a container beside the engine all resolve the mount somewhere else: the harness would find no pipes there
     * and refuse, failing the cell. Empty where the engine's name and kernel are this host's.
     */
    @Override
    public Optional<String> whyNotThisHost() {
        return elsewhere;
    }

    /**
     * The engine is on this host when {@code docker info} gives this host's name (the daemon reports its own host's:
     * a remote server's, "docker-desktop" in Docker Desktop's VM, the host's where this runner runs in a container)
     * and this host's kernel (a VM that took this host's name still has its own kernel).
     */
    public static Optional<String> elsewhere(
            String engineName, String engineKernel, String hostName, String hostKernel) {
        if (!engineName.equalsIgnoreCase(hostName)) {
            return Optional.of("the Docker engine runs on " + engineName + ", not this host (" + hostName + ")");
        }
        if (!engineKernel.equals(hostKernel)) {
            return Optional.of("the Docker engine's kernel (" + engineKernel + ") is not this host's (" + hostKernel
                    + "): its containers run in a VM");
        }
        return Optional.empty();
    }

    /** This host's name as the kernel holds it (what dockerd reports as its own), else as Java resolves it. */
    private static String thisHostName() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
        } catch (IOException | RuntimeException e) {
            try {
                return java.net.InetAddress.getLocalHost().getHostName();
            } catch (IOException unknown) {
                return "this host";
            }
        }
    }

    /** {@code prune}'s view of this engine: its images, containers and networks, by what runs used. */
    public EnginePrune pruning() {
        return new EnginePrune(docker, ImageUses.of(engineId));
    }

    /**
     * Connects through Testcontainers' discovery strategies (DOCKER_HOST, ~/.testcontainers.properties,
     * the local socket …); empty when no engine answers. The strategies are used directly rather than
     * through {@code DockerClientFactory.client()}, which would start the Ryuk reaper and probe the
     * gateway with an alpine container — both pulled from a registry, which hangs on an offline host.
     * This backend removes its own containers, so it needs no reaper.
     */
    public static Optional<ContainerBackend> connect() {
        return connect(Optional.empty());
    }

    /** @param harness another build of the harness for the cells' images (an A/B run's side), else this runner's */
    public static Optional<ContainerBackend> connect(Optional<java.nio.file.Path> harness) {
        try {
            List<DockerClientProviderStrategy> strategies = new ArrayList<>();
            ServiceLoader.load(DockerClientProviderStrategy.class).forEach(strategies::add);
            DockerClientProviderStrategy strategy = DockerClientProviderStrategy.getFirstValidStrategy(strategies);
            return Optional.of(new ContainerBackend(strategy.getDockerClient(), harness));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The running cell's containers' cgroups, read from the host: their CPU use and throttling (v1 or v2) — a service
     * cell's load generator's container among them, its CPU the cell's own work.
     */
    @Override
    public CellCpu cellCpu(String cellId) {
        return containersOf(cellId);
    }

    private ContainerCpu containersOf(String cellId) {
        return cellContainers.computeIfAbsent(cellId, id -> new ContainerCpu());
    }

    @Override
    public String name() {
        return "container";
    }

    /** Makes sure the cell's image exists (building it if needed); the reason when it cannot. */
    @Override
    public Optional<String> imageProblem(Cell cell) throws InterruptedException {
        try {
            image(cell);
            return Optional.empty();
        } catch (CellImages.ImageUnavailable e) {
            return Optional.of(e.getMessage());
        }
    }

    private CellImages.CellImage image(Cell cell) throws CellImages.ImageUnavailable, InterruptedException {
        if (cell.jdk().image().isEmpty()) {
            throw new CellImages.ImageUnavailable(
                    "jdk '" + cell.jdk().id() + "' has no image for the container backend");
        }
        try {
            CellImages.CellImage image = images.prepare(cell.jdk().image().get());
            if (cell.workload().user().isPresent()) {
                image = images.withUserFiles(
                        image, cell.workload().user().get().artifact().files(), CellScript.containerFiles(cell));
            }
            return image;
        } catch (RuntimeException e) {
            // The engine went away (or refuses): this cell fails with that reason, the run goes on and
            // every finished cell keeps its file. Not cached: the engine may come back.
            throw new CellImages.ImageUnavailable("Docker engine error: " + e.getMessage());
        }
    }

    @Override
    public int hostCpus() {
        return hostCpus;
    }

    /** Images already in this engine's {@link ImageUses} for a run ("run id\ntag"): the file is written once each. */
    private final java.util.Set<String> recorded = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * Notes in the engine's {@link ImageUses} that a run uses these images, so {@code prune} keeps them while the run
     * is among the newest. Not recording is no reason to fail a cell: prune then keeps fewer, never removes a live
     * run's (it leaves every image alone while a run measures on the engine).
     */
    private void recordUse(String runId, List<String> tags) {
        List<String> fresh =
                tags.stream().filter(t -> !recorded.contains(runId + "\n" + t)).toList();
        if (fresh.isEmpty()) {
            return;
        }
        try {
            ImageUses.of(engineId).record(runId, fresh);
            fresh.forEach(t -> recorded.add(runId + "\n" + t));
        } catch (IOException | RuntimeException e) {
            // see above: prune keeps fewer images of this run, nothing else changes
        }
    }

    /** The label every cell container carries: the run it belongs to (for {@link #stopLeftovers}). */
    public static final String RUN_LABEL = "dev.loommatrix.run";

    /** A placement becomes the container's cpuset, attested like a cpuset axis value. */
    @Override
    public Execution run(Cell cell, Assignment assignment) throws InterruptedException {
        try {
            return runCell(cell, assignment, containersOf(cell.id()));
        } finally {
            cellContainers.remove(cell.id()); // the next attempt counts afresh (its reader keeps this one)
        }
    }

    private Execution runCell(Cell cell, Assignment assignment, ContainerCpu own) throws InterruptedException {
        Path rawDir = assignment.rawDir();
        List<String> variantOrder = assignment.variantOrder();
        Optional<CpuSet> placement = assignment.placement();
        String driver = "hyperfine (in container)";
        Optional<Cell> runnable = SeedServices.asRun(cell);
        if (runnable.isEmpty()) {
            return new Execution(
                    new CellOutcome.Skipped(SeedServices.missing()), name(), driver, variantOrder, Optional.empty());
        }
        cell = runnable.get();
        CellImages.CellImage image;
        try {
            image = image(cell);
        } catch (CellImages.ImageUnavailable e) {
            return new Execution(
                    new CellOutcome.Failed(e.getMessage(), "", List.of(), Optional.empty()),
                    name(),
                    driver,
                    variantOrder,
                    Optional.empty());
        }
        recordUse(assignment.runId(), image.uses());
        if (ServiceCells.isService(cell)) {
            return runService(cell, assignment, image, own);
        }
        // an A/B pair in lockstep (issue #30): the side's turns directory, its pipes shared with this host's kernel
        Optional<Path> turns = assignment.turns().filter(t -> HarnessCommand.takesTurns(runnable.get()));
        String script = CellScript.forContainer(cell, variantOrder, List.of(), turns.isPresent());
        Optional<CpuSet> cpuset = cell.coordinates().cpuSet().or(() -> placement);
        Attestation.Expectation expected = expectation(cell, hostCpus, cpuset);

        String containerId = null;
        CellAssembler.Ending ending;
        Map<String, String> variantErrors = new LinkedHashMap<>();
        try {
            Files.createDirectories(rawDir);
            CellContainer container = CellContainer.of(cell, assignment.runId(), image.tag(), script, cpuset, turns);
            containerId = create(container);
            // kept with the raw output: a person can run the cell by hand, and the runner-overhead
            // benchmark replays exactly these containers without the runner
            dev.loommatrix.core.result.Json.writeAtomically(
                    rawDir.resolve("docker-run.json"), container.dockerRunArgs());
            running.add(containerId);
            own.add(containerId);
            docker.startContainerCmd(containerId).exec();
            Optional<Integer> exit = awaitExit(containerId, cell.timeout().toMillis());
            if (exit.isEmpty()) {
                docker.killContainerCmd(containerId).exec();
            }
            InspectContainerResponse state =
                    docker.inspectContainerCmd(containerId).exec();
            String logs = logs(containerId);
            Files.writeString(rawDir.resolve("cell.log"), logs);
            copyOut(containerId, rawDir);
            readFailedVariants(rawDir)
                    .forEach(v -> variantErrors.put(v, "hyperfine reported a failing JVM run (see the cell log)"));
            String tail = CellAssembler.logTail(rawDir);
            if (exit.isEmpty()) {
                ending = new CellAssembler.Ending.TimedOut(
                        "timed out after " + cell.timeout().toSeconds() + " s; container killed", tail);
            } else if (Boolean.TRUE.equals(state.getState().getOOMKilled())) {
                ending = new CellAssembler.Ending.Crashed(
                        "OOMKilled: the container exceeded its memory limit of " + (cell.memoryBytes() >> 20) + " MiB",
                        tail);
            } else if (exit.get() != 0 && variantErrors.isEmpty()) {
                ending = new CellAssembler.Ending.Crashed(
                        "container exited with code " + exit.get() + signal(exit.get()), tail);
            } else {
                ending = new CellAssembler.Ending.Completed();
            }
        } catch (IOException | RuntimeException e) {
            // The engine went away or refused: an outcome of this cell, not the end of the run.
            ending = new CellAssembler.Ending.Crashed(
                    "Docker engine error: " + e.getMessage(), CellAssembler.logTail(rawDir));
        } finally {
            if (containerId != null) {
                running.remove(containerId);
                own.remove(containerId);
                try {
                    docker.removeContainerCmd(containerId)
                            .withForce(true)
                            .withRemoveVolumes(true)
                            .exec();
                } catch (RuntimeException ignored) {
                    // the engine may be gone; nothing left to clean through it
                }
            }
        }
        CellOutcome outcome = CellAssembler.assemble(
                cell,
                rawDir,
                variantOrder,
                variantErrors,
                expected,
                Optional.of(image.baseImage()),
                Optional.of(image.baseDigest()),
                ending);
        return new Execution(
                outcome,
                name(),
                driver,
                variantOrder,
                Optional.empty(),
                ProfileRun.read(
                        cell, rawDir, variantOrder, cell.profiling().flame() ? images.noFlame() : Optional.empty()));
    }

    /**
     * A service cell (issue #28): the server in a fresh container per repetition, oha in a container of its own on
     * CPUs the server's quota does not cover, both on a network of the cell's with no route out.
     */
    private Execution runService(Cell cell, Assignment assignment, CellImages.CellImage image, ContainerCpu own)
            throws InterruptedException {
        Path rawDir = assignment.rawDir();
        String driver = "oha " + Oha.VERSION + " (load generator container)";
        Optional<Path> oha = Oha.binary();
        if (oha.isEmpty()) {
            return new Execution(
                    new CellOutcome.Skipped(Oha.missing()),
                    name(),
                    driver,
                    assignment.variantOrder(),
                    Optional.empty());
        }
        ServicePlacement placement = ServicePlacement.of(cell, hostCpus);
        Attestation.Expectation expected = expectation(cell, hostCpus, placement.server());
        Map<String, String> variantErrors = new LinkedHashMap<>();
        CellAssembler.Ending ending = new CellAssembler.Ending.Completed();
        try {
            Files.createDirectories(rawDir);
            String generatorImage = GeneratorImage.prepare(docker, image.tag(), oha.get());
            recordUse(assignment.runId(), List.of(generatorImage));
            UserWorkload.Service service =
                    (UserWorkload.Service) cell.workload().user().orElseThrow().artifact();
            try (ContainerServiceHost host = ContainerServiceHost.open(
                    docker,
                    cell,
                    assignment.runId(),
                    image.tag(),
                    generatorImage,
                    placement,
                    rawDir,
                    service.port(),
                    own)) {
                variantErrors.putAll(ServiceCell.run(
                        cell, assignment.variantOrder(), host, rawDir, CellScript.userPaths(cell), List.of()));
            }
        } catch (IOException | RuntimeException e) {
            ending = new CellAssembler.Ending.Crashed(
                    "Docker engine error: " + e.getMessage(), CellAssembler.logTail(rawDir));
        }
        CellOutcome outcome = CellAssembler.assemble(
                cell,
                rawDir,
                assignment.variantOrder(),
                variantErrors,
                expected,
                Optional.of(image.baseImage()),
                Optional.of(image.baseDigest()),
                ending);
        return new Execution(
                outcome,
                name(),
                driver + "; generator on " + placement.words(),
                assignment.variantOrder(),
                Optional.empty());
    }

    /**
     * What the JVM should see: processors from the quota by the VM's rounding, capped by the cpuset's
     * size and the host's CPUs; the cgroup limits as asked; with a cpuset, exactly those CPUs allowed.
     */
    public static Attestation.Expectation expectation(Cell cell, int hostCpus) {
        return expectation(cell, hostCpus, cell.coordinates().cpuSet());
    }

    public static Attestation.Expectation expectation(Cell cell, int hostCpus, Optional<CpuSet> cpuset) {
        int processors = Attestation.processorsForQuota(
                cell.jdk().vm(), cell.coordinates().cpus(), hostCpus);
        String rule = cell.jdk().vm().id() + " derives processors from the quota "
                + cell.coordinates().cpus().toPlainString()
                + (cell.jdk().vm() == dev.loommatrix.core.matrix.JdkEntry.Vm.HOTSPOT
                        ? " rounded up"
                        : " rounded down (min 1)")
                + ", at most the host's " + hostCpus;
        if (cpuset.isPresent()) {
            processors = Math.min(processors, cpuset.get().size());
            rule += " and the cpuset's " + cpuset.get().size();
        }
        return new Attestation.Expectation(
                processors,
                rule,
                Optional.of(cell.coordinates().cpus()),
                Optional.of(cell.memoryBytes()),
                Optional.of(cell.pids()),
                cpuset.map(Object::toString));
    }

    @Override
    public void cancel() {
        for (String id : List.copyOf(running)) {
            try {
                docker.killContainerCmd(id).exec();
            } catch (RuntimeException e) {
                // already gone
            }
        }
    }

    @Override
    public void stopLeftovers(String runId, Path rawDir) {
        try {
            for (var container : docker.listContainersCmd()
                    .withShowAll(true)
                    .withLabelFilter(Map.of(RUN_LABEL, runId))
                    .exec()) {
                docker.removeContainerCmd(container.getId())
                        .withForce(true)
                        .withRemoveVolumes(true)
                        .exec();
            }
            // a service cell's network (issue #28)
            for (var network : docker.listNetworksCmd()
                    .withFilter("label", List.of(RUN_LABEL + "=" + runId))
                    .exec()) {
                docker.removeNetworkCmd(network.getId()).exec();
            }
        } catch (RuntimeException e) {
            // the engine is gone: nothing of ours can be running in it either
        }
    }

    private String create(CellContainer container) {
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
                        .map(dir ->
                                new com.github.dockerjava.api.model.Bind(dir.toString(), new Volume(CellScript.TURNS)))
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

    private Optional<Integer> awaitExit(String id, long timeoutMs) throws InterruptedException {
        try (var callback = docker.waitContainerCmd(id).start()) {
            return Optional.of(callback.awaitStatusCode(timeoutMs, TimeUnit.MILLISECONDS));
        } catch (com.github.dockerjava.api.exception.DockerClientException timeout) {
            return Optional.empty();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private String logs(String id) throws InterruptedException {
        return logs(docker, id, 400);
    }

    /** The last {@code tail} lines a container printed, stdout and stderr as they came. */
    public static String logs(DockerClient docker, String id, int tail) throws InterruptedException {
        StringBuilder text = new StringBuilder();
        docker.logContainerCmd(id)
                .withStdOut(true)
                .withStdErr(true)
                .withTail(tail)
                .exec(new ResultCallback.Adapter<Frame>() {
                    @Override
                    public void onNext(Frame frame) {
                        text.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
                    }
                })
                .awaitCompletion(30, TimeUnit.SECONDS);
        return text.toString();
    }

    /** Copies the /out volume (docker cp works on stopped containers) into the cell's raw directory. */
    private void copyOut(String id, Path rawDir) throws IOException {
        try (InputStream archive = docker.copyArchiveFromContainerCmd(id, CellScript.OUT + "/.")
                        .exec();
                TarArchiveInputStream tar = new TarArchiveInputStream(archive)) {
            TarArchiveEntry entry;
            while ((entry = tar.getNextTarEntry()) != null) {
                if (!entry.isFile()) {
                    continue;
                }
                Path name = Path.of(entry.getName()).getFileName();
                Path target = rawDir.resolve(name.toString()).normalize();
                if (target.startsWith(rawDir)) {
                    Files.copy(tar, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static List<String> readFailedVariants(Path rawDir) throws IOException {
        Path file = rawDir.resolve("failed-variants");
        return Files.isRegularFile(file)
                ? Files.readAllLines(file).stream().filter(l -> !l.isBlank()).toList()
                : List.of();
    }

    static String signal(int exitCode) {
        return switch (exitCode) {
            case 137 -> " (SIGKILL)";
            case 139 -> " (SIGSEGV)";
            case 143 -> " (SIGTERM)";
            case 134 -> " (SIGABRT)";
            default -> exitCode > 128 ? " (signal " + (exitCode - 128) + ")" : "";
        };
    }
}
