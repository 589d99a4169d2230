package dev.loommatrix.runner.cli;

import dev.loommatrix.core.matrix.Matrix;
import dev.loommatrix.core.matrix.MatrixException;
import dev.loommatrix.core.matrix.MatrixParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** --matrix and --profile, shared by the commands that read a matrix. */
final class MatrixOptions {

    @Option(
            names = "--matrix",
            paramLabel = "FILE",
            defaultValue = "matrix.yaml",
            description = "The matrix file (default: ${DEFAULT-VALUE}).")
    Path matrix;

    @Option(
            names = "--profile",
            paramLabel = "NAME",
            description = "A profile of the matrix to apply first (e.g. quick).")
    String profile;

    Matrix load() throws MatrixException, IOException {
        requireFile();
        return MatrixParser.parse(matrix, Optional.ofNullable(profile));
    }

    /** The matrix without a profile, after checking that every profile of it applies cleanly too. */
    Matrix loadWithEveryProfile() throws MatrixException, IOException {
        requireFile();
        return MatrixParser.parseWithEveryProfile(matrix);
    }

    private void requireFile() {
        if (!Files.isRegularFile(matrix)) {
            throw new LoomMatrix.UsageException(
                    "no matrix file at " + matrix.toAbsolutePath() + " (use --matrix FILE)");
        }
    }
}
