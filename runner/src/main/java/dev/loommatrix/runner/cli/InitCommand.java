package dev.loommatrix.runner.cli;

import dev.loommatrix.runner.init.Starter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "init",
        description = "Write a starter matrix.yaml into a repository: a jmh: entry for a JMH suite built by Maven or"
                + " Gradle, a program: entry for a runnable jar, with virtual and platform variants to fill in."
                + " Never overwrites a file.")
final class InitCommand implements Callable<Integer> {

    @Option(
            names = "--dir",
            defaultValue = ".",
            paramLabel = "DIR",
            description = "The repository to look at and write into (default: the current directory).")
    Path dir;

    @Option(
            names = "--jar",
            paramLabel = "JAR",
            description = "A runnable jar of yours to measure as a program, when init would not find it.")
    Path jar;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!Files.isDirectory(dir)) {
            throw new LoomMatrix.UsageException("--dir " + dir + " is not a directory");
        }
        if (jar != null && !Files.isRegularFile(jar)) {
            throw new LoomMatrix.UsageException("--jar " + jar + " does not exist; build it first");
        }
        Starter.Project project = Starter.detect(dir, Optional.ofNullable(jar));
        var out = spec.commandLine().getOut();
        out.println("found: " + describe(project));
        Path matrix = dir.resolve("matrix.yaml");
        boolean wrote = false;
        if (Files.exists(matrix)) {
            out.println("kept: " + matrix + " (it exists; init never overwrites a file)");
        } else {
            // CREATE_NEW: a file that appeared meanwhile is not overwritten either
            Files.writeString(
                    matrix,
                    Starter.matrix(project),
                    StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE_NEW);
            out.println("wrote: " + matrix);
            wrote = true;
        }
        out.println("next:");
        List<String> steps = Starter.nextSteps(project, wrote);
        for (int i = 0; i < steps.size(); i++) {
            out.println("  " + (i + 1) + ". " + steps.get(i));
        }
        return ExitCode.OK.code;
    }

    private static String describe(Starter.Project project) {
        return switch (project) {
            case Starter.Jmh jmh ->
                "a JMH suite built by " + jmh.tool() + " (" + jmh.jar()
                        + (jmh.benchmarks().isEmpty()
                                ? ", not built yet"
                                : ", " + jmh.benchmarks().size() + " benchmarks")
                        + ")";
            case Starter.Program program -> "a runnable jar (" + program.jar() + ")";
            case Starter.Nothing nothing -> "no JMH suite or runnable jar: a matrix of the built-in workloads";
        };
    }
}
