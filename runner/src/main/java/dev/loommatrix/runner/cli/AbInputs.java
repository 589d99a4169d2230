package dev.loommatrix.runner.cli;

import dev.loommatrix.core.matrix.Matrix;
import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.ClassFileCheck;
import dev.loommatrix.core.plan.Planner;
import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.ContainerEngine;
import dev.loommatrix.runner.backend.container.ContainerBackend;
import dev.loommatrix.runner.backend.local.JdkLocator;
import dev.loommatrix.runner.backend.local.LocalBackend;
import dev.loommatrix.runner.run.MatrixRun;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** What {@code ab} reads and connects before it plans: each side's matrix and cells, and each side's engines. */
final class AbInputs {

    private AbInputs() {}

    /** The two sides' matrix files, matrices and plans: the candidate's cells (--cell), the baseline's same ids. */
    record Plans(
            Path baseFile, Matrix candidate, Matrix baseline, List<Cell> candidateCells, List<Cell> baselineCells) {}

    static Plans plans(MatrixOptions options, Path baselineMatrix, List<String> onlyCells) throws Exception {
        Path baseFile = baselineMatrix != null ? baselineMatrix : options.matrix;
        if (!Files.isRegularFile(baseFile)) {
            throw new LoomMatrix.UsageException("no baseline matrix file at " + baseFile.toAbsolutePath());
        }
        Optional<String> profile = Optional.ofNullable(options.profile);
        var candidateMatrix = options.load();
        var baseline = MatrixParser.parse(baseFile, profile);
        List<Cell> planned = Measuring.only(ClassFileCheck.check(Planner.plan(candidateMatrix)), onlyCells);
        List<Cell> baselinePlanned = ClassFileCheck.check(Planner.plan(baseline)).stream()
                .filter(c -> onlyCells.isEmpty() || onlyCells.contains(c.id()))
                .toList();
        return new Plans(baseFile, candidateMatrix, baseline, planned, baselinePlanned);
    }

    /** Each side's engines, with its harness: a Docker engine's connection (if one answers) and the local JVMs. */
    record Engines(
            Optional<ContainerEngine> baselineDocker,
            Optional<ContainerEngine> candidateDocker,
            Backend baselineLocal,
            Backend candidateLocal) {}

    static Engines engines(
            MatrixRun.BackendChoice choice, Path baselineHarness, Path candidateHarness, PrintWriter err) {
        Optional<ContainerEngine> baselineDocker = choice == MatrixRun.BackendChoice.LOCAL
                ? Optional.empty()
                : ContainerBackend.connect(Optional.ofNullable(baselineHarness)).map(ContainerEngine.class::cast);
        Optional<ContainerEngine> candidateDocker = choice == MatrixRun.BackendChoice.LOCAL
                ? Optional.empty()
                : ContainerBackend.connect(Optional.ofNullable(candidateHarness))
                        .map(ContainerEngine.class::cast);
        if (candidateDocker.isEmpty() && choice == MatrixRun.BackendChoice.DOCKER) {
            throw new LoomMatrix.UsageException(
                    "--backend docker, but no Docker engine answers (start dockerd or set DOCKER_HOST)");
        }
        if (candidateDocker.isEmpty() && choice == MatrixRun.BackendChoice.AUTO) {
            err.println(
                    "note: no Docker engine answers; linux cells run on the local backend with this host's" + " JDKs");
        }
        Backend baselineLocal = new LocalBackend(JdkLocator.forHost(), Optional.ofNullable(baselineHarness));
        Backend candidateLocal = new LocalBackend(JdkLocator.forHost(), Optional.ofNullable(candidateHarness));
        return new Engines(baselineDocker, candidateDocker, baselineLocal, candidateLocal);
    }
}
