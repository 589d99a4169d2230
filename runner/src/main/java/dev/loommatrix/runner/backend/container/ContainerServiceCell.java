package dev.loommatrix.runner.backend.container;

import com.github.dockerjava.api.DockerClient;
import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.EngineAnswer;
import dev.loommatrix.runner.backend.Execution;
import dev.loommatrix.runner.backend.service.Oha;
import dev.loommatrix.runner.backend.service.ServiceCell;
import dev.loommatrix.runner.backend.service.ServicePlacement;
import dev.loommatrix.runner.records.CellOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A service cell (issue #28) on the engine: the server in a fresh container per repetition, oha in a container of
 * its own on CPUs the server's quota does not cover, both on a network of the cell's with no route out.
 */
final class ContainerServiceCell {

    private final DockerClient docker;
    private final ImageUseRecorder uses;
    private final String backend;
    private final int hostCpus;

    ContainerServiceCell(DockerClient docker, ImageUseRecorder uses, String backend, int hostCpus) {
        this.docker = docker;
        this.uses = uses;
        this.backend = backend;
        this.hostCpus = hostCpus;
    }

    Execution run(Cell cell, Backend.Assignment assignment, CellImages.CellImage image, ContainerCpu own)
            throws InterruptedException {
        Path rawDir = assignment.rawDir();
        String driver = "oha " + Oha.VERSION + " (load generator container)";
        Optional<Path> oha = Oha.binary();
        if (oha.isEmpty()) {
            return new Execution(
                    new CellOutcome.Skipped(Oha.missing()),
                    backend,
                    driver,
                    assignment.variantOrder(),
                    Optional.empty());
        }
        ServicePlacement placement = ServicePlacement.of(cell, hostCpus);
        EngineAnswer answer = new EngineAnswer(cell, rawDir, assignment.variantOrder());
        try {
            Files.createDirectories(rawDir);
            String generatorImage = GeneratorImage.prepare(docker, image.tag(), oha.get());
            uses.record(assignment.runId(), List.of(generatorImage));
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
                answer.variantsFailed(ServiceCell.run(
                        cell, assignment.variantOrder(), host, rawDir, CellScript.userPaths(cell), List.of()));
            }
        } catch (IOException | RuntimeException e) {
            answer.crashed("Docker engine error: " + e.getMessage());
        }
        return answer.answer(
                backend,
                driver + "; generator on " + placement.words(),
                ContainerLimits.expectation(cell, hostCpus, placement.server()),
                Optional.of(image.baseImage()),
                Optional.of(image.baseDigest()),
                List::of);
    }
}
