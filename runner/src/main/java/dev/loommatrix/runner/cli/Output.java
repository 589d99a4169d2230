package dev.loommatrix.runner.cli;

import dev.loommatrix.core.result.Json;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine;

/** Where a command's document goes: a file ({@code --out}, written whole or not at all), else standard output. */
final class Output {

    private Output() {}

    /**
     * How the user starts loom-matrix, for the commands a step suggests next: {@code loom-matrix} on PATH for an
     * installed release; the source checkout's launcher sets {@code LOOM_MATRIX_COMMAND} to the path it was called by
     * ({@code ./loom-matrix}), which is not on PATH.
     */
    static String command() {
        String given = System.getenv("LOOM_MATRIX_COMMAND");
        return given == null || given.isBlank() ? "loom-matrix" : given;
    }

    /**
     * Writes {@code text} to {@code out} when given — saying what was written on stderr, so a pipeline reading stdout
     * is not disturbed — else prints it on stdout.
     */
    static void toFileOrStdout(CommandLine.Model.CommandSpec spec, Path out, String text, String wrote)
            throws IOException {
        if (out != null) {
            Json.writeAtomically(out, text);
            spec.commandLine().getErr().println("wrote " + wrote + " to " + out);
        } else {
            spec.commandLine().getOut().print(text);
            spec.commandLine().getOut().flush();
        }
    }
}
