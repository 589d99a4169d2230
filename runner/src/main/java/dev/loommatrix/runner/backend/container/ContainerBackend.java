package dev.loommatrix.runner.backend.container;

import com.github.dockerjava.api.DockerClient;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.CpuSet;
import dev.loommatrix.runner.backend.ContainerEngine;
import dev.loommatrix.runner.backend.Execution;
import dev.loommatrix.runner.backend.service.SeedServices;
import dev.loommatrix.runner.backend.service.ServiceCells;
import dev.loommatrix.runner.host.CellCpu;
import dev.loommatrix.runner.records.Attestation;
import dev.loommatrix.runner.records.CellOutcome;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import org.testcontainers.dockerclient.DockerClientProviderStrategy;

/**
 * One container per cell: the cell's CPU quota, memory (no swap) and pids limits, no network, a
 * read-only root file system, uid 10001, all capabilities dropped, no-new-privileges. Results land in
 * the {@code /out} volume and are copied out after the container ends — also when it failed, so
 * finished variants are kept. The engine's facts, images and leftovers are here; a cell's run is
 * {@link OneContainerCell} or {@link ContainerServiceCell}, its limits {@link ContainerLimits}.
 */
public final class ContainerBackend implements ContainerEngine {

    private final DockerClient docker;
    private final CellImages images;
    private final int hostCpus;
    /** The engine's own ID (docker info): which engine a run measures on, for its measurement lock. */
    private final String engineId;
    /** Why the engine's containers do not run on this host's kernel, if they do not (see {@link #elsewhere}). */
    private final Optional<String> elsewhere;
    /** One-container cells now running (several with --parallel-cells), so Ctrl-C can kill them all. */
    private final CellContainers containers;
    /** Each running cell's containers, for reading their cgroups' CPU use (issue #32). */
    private final Map<String, ContainerCpu> cellContainers = new java.util.concurrent.ConcurrentHashMap<>();

    private final ImageUseRecorder uses;

    private ContainerBackend(DockerClient docker, Optional<java.nio.file.Path> harness) {
        this.docker = docker;
        this.images = new CellImages(docker, harness);
        var info = docker.infoCmd().exec();
        this.hostCpus = info.getNCPU();
        this.engineId = String.valueOf(info.getId());
        this.elsewhere = elsewhere(
                String.valueOf(info.getName()),
                String.valueOf(info.getKernelVersion()),
                EngineLocation.thisHostName(),
                System.getProperty("os.version"));
        this.containers = new CellContainers(docker);
        this.uses = new ImageUseRecorder(engineId);
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

    /** See {@link EngineLocation#elsewhere}. */
    public static Optional<String> elsewhere(
            String engineName, String engineKernel, String hostName, String hostKernel) {
        return EngineLocation.elsewhere(engineName, engineKernel, hostName, hostKernel);
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
        Optional<Cell> runnable = SeedServices.asRun(cell);
        if (runnable.isEmpty()) {
            return new Execution(
                    new CellOutcome.Skipped(SeedServices.missing()),
                    name(),
                    OneContainerCell.DRIVER,
                    assignment.variantOrder(),
                    Optional.empty());
        }
        cell = runnable.get();
        CellImages.CellImage image;
        try {
            image = image(cell);
        } catch (CellImages.ImageUnavailable e) {
            return new Execution(
                    new CellOutcome.Failed(e.getMessage(), "", List.of(), Optional.empty()),
                    name(),
                    OneContainerCell.DRIVER,
                    assignment.variantOrder(),
                    Optional.empty());
        }
        uses.record(assignment.runId(), image.uses());
        if (ServiceCells.isService(cell)) {
            return new ContainerServiceCell(docker, uses, name(), hostCpus).run(cell, assignment, image, own);
        }
        return new OneContainerCell(docker, containers, name(), hostCpus, images.noFlame())
                .run(cell, assignment, image, own);
    }

    /**
     * What the JVM should see: processors from the quota by the VM's rounding, capped by the cpuset's
     * size and the host's CPUs; the cgroup limits as asked; with a cpuset, exactly those CPUs allowed.
     */
    public static Attestation.Expectation expectation(Cell cell, int hostCpus) {
        return expectation(cell, hostCpus, cell.coordinates().cpuSet());
    }

    public static Attestation.Expectation expectation(Cell cell, int hostCpus, Optional<CpuSet> cpuset) {
        return ContainerLimits.expectation(cell, hostCpus, cpuset);
    }

    @Override
    public void cancel() {
        containers.killAll();
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

    /** The last {@code tail} lines a container printed, stdout and stderr as they came. */
    public static String logs(DockerClient docker, String id, int tail) throws InterruptedException {
        return ContainerOutput.logs(docker, id, tail);
    }
}
