package dev.loommatrix.runner.backend.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.CpuSet;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.EngineAnswer;
import dev.loommatrix.runner.backend.Execution;
import dev.loommatrix.runner.backend.HarnessCommand;
import dev.loommatrix.runner.backend.ProfileRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A JVM cell in one container: its script (hyperfine over the variants) under the cell's limits; its output copied
 * out after the container ends — also when it failed, so finished variants are kept.
 */
final class OneContainerCell {

    static final String DRIVER = "hyperfine (in container)";

    private final DockerClient docker;
    private final CellContainers containers;
    private final String backend;
    private final int hostCpus;
    private final Optional<String> noFlame;

    OneContainerCell(
            DockerClient docker, CellContainers containers, String backend, int hostCpus, Optional<String> noFlame) {
        this.docker = docker;
        this.containers = containers;
        this.backend = backend;
        this.hostCpus = hostCpus;
        this.noFlame = noFlame;
    }

    /** A placement becomes the container's cpuset, attested like a cpuset axis value. */
    Execution run(Cell cell, Backend.Assignment assignment, CellImages.CellImage image, ContainerCpu own)
            throws InterruptedException {
        Path rawDir = assignment.rawDir();
        List<String> order = assignment.variantOrder();
        // an A/B pair in lockstep (issue #30): the side's turns directory, its pipes shared with this host's kernel
        Optional<Path> turns = assignment.turns().filter(t -> HarnessCommand.takesTurns(cell));
        String script = CellScript.forContainer(cell, order, List.of(), turns.isPresent());
        Optional<CpuSet> cpuset = cell.coordinates().cpuSet().or(assignment::placement);
        EngineAnswer answer = new EngineAnswer(cell, rawDir, order);
        String containerId = null;
        try {
            Files.createDirectories(rawDir);
            CellContainer container = CellContainer.of(cell, assignment.runId(), image.tag(), script, cpuset, turns);
            containerId = containers.create(container);
            // kept with the raw output: a person can run the cell by hand, and the runner-overhead
            // benchmark replays exactly these containers without the runner
            Json.writeAtomically(rawDir.resolve("docker-run.json"), container.dockerRunArgs());
            own.add(containerId);
            containers.start(containerId);
            runToItsEnd(cell, containerId, rawDir, answer);
        } catch (IOException | RuntimeException e) {
            // The engine went away or refused: an outcome of this cell, not the end of the run.
            answer.crashed("Docker engine error: " + e.getMessage());
        } finally {
            if (containerId != null) {
                own.remove(containerId);
                containers.remove(containerId);
            }
        }
        return answer.answer(
                backend,
                DRIVER,
                ContainerLimits.expectation(cell, hostCpus, cpuset),
                Optional.of(image.baseImage()),
                Optional.of(image.baseDigest()),
                () -> ProfileRun.read(cell, rawDir, order, cell.profiling().flame() ? noFlame : Optional.empty()));
    }

    /** Awaits the container (killed at the cell's deadline), keeps its log and output, and says how it ended. */
    private void runToItsEnd(Cell cell, String containerId, Path rawDir, EngineAnswer answer)
            throws IOException, InterruptedException {
        Optional<Integer> exit =
                containers.awaitExit(containerId, cell.timeout().toMillis());
        if (exit.isEmpty()) {
            docker.killContainerCmd(containerId).exec();
        }
        InspectContainerResponse state = docker.inspectContainerCmd(containerId).exec();
        Files.writeString(rawDir.resolve("cell.log"), ContainerOutput.logs(docker, containerId, 400));
        ContainerOutput.copyOut(docker, containerId, rawDir, ContainerOutput.Into.REPLACING);
        failedVariants(rawDir)
                .forEach(v -> answer.variantFailed(v, "hyperfine reported a failing JVM run (see the cell log)"));
        if (exit.isEmpty()) {
            answer.timedOut("timed out after " + cell.timeout().toSeconds() + " s; container killed");
        } else if (Boolean.TRUE.equals(state.getState().getOOMKilled())) {
            answer.crashed(
                    "OOMKilled: the container exceeded its memory limit of " + (cell.memoryBytes() >> 20) + " MiB");
        } else if (exit.get() != 0 && !answer.anyVariantFailed()) {
            answer.crashed("container exited with code " + exit.get() + signal(exit.get()));
        }
    }

    /** The variants the cell's script saw fail (a line each in {@code failed-variants}). */
    private static List<String> failedVariants(Path rawDir) throws IOException {
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
