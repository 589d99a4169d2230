package dev.loommatrix.runner.cli;

import dev.loommatrix.runner.init.CallingWorkflows;
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
        description = "Write a starter matrix.yaml into a repository (a jmh: entry for a JMH suite built by Maven or"
                + " Gradle, a program: entry for a runnable jar, with virtual and platform variants to fill in) and"
                + " the GitHub workflows that call this release's reusable ones: the nightly matrix with publish, the"
                + " pull-request A/B and its comment. Never overwrites a file.")
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

    @Option(
            names = "--uses",
            paramLabel = "OWNER/REPO@REF",
            description = "Where the workflows call loom-matrix's reusable workflows from (default: this release's"
                    + " repository, pinned to its commit).")
    String uses;

    @Option(names = "--no-workflows", description = "Write matrix.yaml only.")
    boolean noWorkflows;

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
        CallingWorkflows.Source source;
        try {
            source = uses != null ? CallingWorkflows.Source.parse(uses) : thisRelease();
        } catch (IllegalArgumentException e) {
            throw new LoomMatrix.UsageException("--uses: " + e.getMessage());
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
        boolean workflows = false;
        if (!noWorkflows) {
            Path directory = dir.resolve(CallingWorkflows.DIRECTORY);
            Files.createDirectories(directory);
            var files = CallingWorkflows.of(project, source, hasQuickProfile(matrix));
            for (var file : files.entrySet()) {
                Path path = directory.resolve(file.getKey());
                try {
                    Files.writeString(
                            path, file.getValue(), StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE_NEW);
                    out.println("wrote: " + path);
                    workflows = true;
                } catch (java.nio.file.FileAlreadyExistsException e) {
                    out.println("kept: " + path + " (it exists; init never overwrites a file)");
                }
            }
        }
        out.println("next:");
        List<String> steps = Starter.nextSteps(project, wrote, workflows);
        for (int i = 0; i < steps.size(); i++) {
            out.println("  " + (i + 1) + ". " + steps.get(i));
        }
        return ExitCode.OK.code;
    }

    /** This CLI's release: its version, the repository it was released from and its commit (the build's). */
    static CallingWorkflows.Source thisRelease() throws java.io.IOException {
        java.util.Properties release = new java.util.Properties();
        try (var in = InitCommand.class.getResourceAsStream("release.properties")) {
            if (in != null) {
                release.load(in);
            }
        }
        String commit = LoomMatrix.Version.commit().getProperty("git.commit.id", "");
        return CallingWorkflows.Source.ofThisBuild(
                release.getProperty("repository", "loom-matrix/loom-matrix"),
                release.getProperty("version", "dev"),
                commit.isEmpty() ? Optional.empty() : Optional.of(commit));
    }

    /** Whether the matrix file (written now or kept) has a profile named quick, which the pull-request A/B runs. */
    @SuppressWarnings("unchecked")
    static boolean hasQuickProfile(Path matrix) {
        try {
            Object root = new org.snakeyaml.engine.v2.api.Load(
                            org.snakeyaml.engine.v2.api.LoadSettings.builder().build())
                    .loadFromString(Files.readString(matrix, StandardCharsets.UTF_8));
            return root instanceof java.util.Map<?, ?> map
                    && map.get("profiles") instanceof java.util.Map<?, ?> profiles
                    && profiles.containsKey("quick");
        } catch (java.io.IOException | RuntimeException e) {
            return false; // validate says what is wrong with it; the workflow then runs the whole matrix
        }
    }

    private static String describe(Starter.Project project) {
        return switch (project) {
            case Starter.Jmh jmh ->
                (jmh.tool().isEmpty() ? "a JMH suite, already built" : "a JMH suite built by " + jmh.tool())
                        + " (" + jmh.jar()
                        + (jmh.benchmarks().isEmpty()
                                ? ", not built yet"
                                : ", " + jmh.benchmarks().size() + " benchmarks")
                        + ")";
            case Starter.Program program -> "a runnable jar (" + program.jar() + ")";
            case Starter.Nothing nothing -> "no JMH suite or runnable jar: a matrix of the built-in workloads";
        };
    }
}
