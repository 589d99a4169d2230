package dev.loommatrix.runner.backend;

import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.runner.records.CellFiles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JVM command line for one run of one variant of a user workload, the same in a container and on a
 * host: the cell's limits and scheduler settings, the variant's configuration, the attestation agent, and
 * the user's JMH jar or program. The agent writes one line per JVM to {@code <variant>.records.jsonl}
 * and carries the JVM's own result file with it ({@code loom.collect}).
 */
public final class UserCommand {

    /** Where a backend has put things, as the JVM under test sees them. */
    public record Paths(String java, String agentJar, List<String> userFiles, String outDir, String pathSeparator) {
        /** The same paths with only the first {@code n} user files (the ones the JVM is started from). */
        Paths launching(int n) {
            return new Paths(java, agentJar, userFiles.subList(0, n), outDir, pathSeparator);
        }
    }

    /** The command, and what it adds to the cell's environment. */
    public record Launch(List<String> command, Map<String, String> env) {}

    private UserCommand() {}

    /** The agent's list of the variant's own properties to watch ({@code PropertyReads} in the harness). */
    static final String WATCHED_PROPERTIES = "loom.watchedProperties";

    /** Where a variant's JVM leaves its own result before the agent collects it. */
    static String resultFile(Paths paths, String stem) {
        return paths.outDir() + "/" + stem + ".result.json";
    }

    public static Launch of(Cell cell, String variant, Paths paths, List<String> backendArgs) {
        return of(cell, variant, paths, backendArgs, CellFiles.slug(variant), List.of());
    }

    /**
     * The variant's profiling run (issue #20): the same command with the profilers' flags, its records and its
     * result under {@code <variant>.profile.*}, which the timed runs' reader never sees.
     */
    static Launch profiling(Cell cell, String variant, Paths paths, List<String> backendArgs, List<String> profilers) {
        return of(cell, variant, paths, backendArgs, CellFiles.slug(variant) + ".profile", profilers);
    }

    private static Launch of(
            Cell cell, String variant, Paths paths, List<String> backendArgs, String stem, List<String> profilers) {
        UserWorkload user = cell.workload().user().orElseThrow();
        UserWorkload.VariantSettings settings = user.settings(variant);
        String result = resultFile(paths, stem);
        List<String> command = new ArrayList<>();
        command.add(paths.java());
        command.addAll(HarnessCommand.cellJvmArgs(cell, backendArgs, settings.jvmArgs()));
        command.addAll(profilers);
        command.addAll(settings.jvmArgs());
        settings.properties().forEach((k, v) -> command.add("-D" + k + "=" + v));
        command.add("-Dloom.variant=" + variant);
        command.add("-Dloom.collect=" + result);
        if (!settings.codeProperties().isEmpty()) {
            // the agent says of each whether anything in the JVM read it (a switch nothing reads changes nothing)
            command.add("-D" + WATCHED_PROPERTIES + "="
                    + String.join(",", settings.codeProperties().keySet()));
        }
        command.add("-javaagent:" + paths.agentJar() + "=" + paths.outDir() + "/" + stem + ".records.jsonl");
        Map<String, String> env = new LinkedHashMap<>(settings.env());
        switch (user.artifact()) {
            case UserWorkload.Jmh jmh -> command.addAll(jmhArgs(jmh, settings, paths, result));
            case UserWorkload.Program program -> {
                command.addAll(main(program.mainClass(), paths));
                command.addAll(program.args());
                env.put(UserWorkload.Program.METRICS_FILE_ENV, result);
            }
            case UserWorkload.Service service -> {
                // the files past the launch's own are the load's (a URLs file), read by the generator only
                command.addAll(main(
                        service.mainClass(),
                        paths.launching(service.launchFiles().size())));
                command.addAll(service.args());
                // the entry's environment under the variant's own
                Map<String, String> merged = new LinkedHashMap<>(service.env());
                merged.putAll(env);
                env = merged;
            }
        }
        command.addAll(settings.args());
        return new Launch(command, env);
    }

    /** How a program or service starts: a classpath (or a jar whose class the entry names), else the jar. */
    private static List<String> main(java.util.Optional<String> mainClass, Paths paths) {
        return mainClass.isPresent()
                ? List.of("-cp", String.join(paths.pathSeparator(), paths.userFiles()), mainClass.get())
                : List.of("-jar", paths.userFiles().get(0));
    }

    /**
     * JMH's own command line: the selection, parameters (the variant's override the entry's), the options
     * the matrix sets, fail-on-error (a benchmark that throws fails its run), and the JSON result file.
     */
    static List<String> jmhArgs(
            UserWorkload.Jmh jmh, UserWorkload.VariantSettings settings, Paths paths, String result) {
        List<String> args = new ArrayList<>(List.of("-jar", paths.userFiles().get(0)));
        if (settings.method().isPresent()) {
            // a variant that names its method runs exactly that method of each selected class
            jmh.benchmarksOf(settings).forEach(b -> args.add("^" + java.util.regex.Pattern.quote(b) + "$"));
        } else {
            args.addAll(jmh.include());
            jmh.exclude().forEach(e -> args.addAll(List.of("-e", e)));
        }
        Map<String, List<String>> params = new LinkedHashMap<>(jmh.params());
        settings.params().forEach((k, v) -> params.put(k, List.of(v)));
        params.forEach((k, values) -> args.addAll(List.of("-p", k + "=" + String.join(",", values))));
        jmh.mode().ifPresent(m -> args.addAll(List.of("-bm", m)));
        jmh.timeUnit().ifPresent(u -> args.addAll(List.of("-tu", u)));
        jmh.warmupIterations().ifPresent(n -> args.addAll(List.of("-wi", String.valueOf(n))));
        jmh.iterations().ifPresent(n -> args.addAll(List.of("-i", String.valueOf(n))));
        jmh.warmupTime().ifPresent(t -> args.addAll(List.of("-w", t)));
        jmh.time().ifPresent(t -> args.addAll(List.of("-r", t)));
        jmh.threads().ifPresent(n -> args.addAll(List.of("-t", String.valueOf(n))));
        jmh.forks().ifPresent(n -> args.addAll(List.of("-f", String.valueOf(n))));
        jmh.profilers().forEach(p -> args.addAll(List.of("-prof", p)));
        args.addAll(List.of("-foe", "true", "-rf", "json", "-rff", result));
        return args;
    }
}
