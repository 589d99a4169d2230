package dev.loommatrix.runner.backend.container;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.runner.backend.AgentJar;
import dev.loommatrix.runner.backend.AsyncProfilerAgent;
import dev.loommatrix.runner.backend.HarnessCommand;
import dev.loommatrix.runner.backend.ProfileRun;
import dev.loommatrix.runner.backend.Shell;
import dev.loommatrix.runner.backend.UserCommand;
import dev.loommatrix.runner.records.CellFiles;
import java.util.List;

/**
 * The shell script a container runs for its cell: hyperfine per variant (warmup + repetitions, each a
 * fresh JVM, its JSON export kept), in the given order, carrying on past a failing variant so the
 * others' results are kept. Exits non-zero when any variant failed.
 */
public final class CellScript {

    public static final String OUT = "/out";
    public static final String HARNESS = "/opt/loom/harness.jar";
    /** The attestation agent users' JVMs load: the harness's agent alone ({@link AgentJar}). */
    public static final String AGENT = "/opt/loom/agent.jar";
    /** Where a user workload's files are layered into the cell's image, read-only to the cell's user. */
    public static final String USER_DIR = "/opt/loom/user";
    /** Where an A/B pair's turns directory for this side is mounted (issue #30, {@code --turns}). */
    public static final String TURNS = "/turns";

    private CellScript() {}

    public static String forContainer(Cell cell, List<String> variantOrder, List<String> backendJvmArgs) {
        return forContainer(cell, variantOrder, backendJvmArgs, false);
    }

    /** The same, the harness's forks taking their iterations by turns through {@link #TURNS} when {@code turns}. */
    public static String forContainer(
            Cell cell, List<String> variantOrder, List<String> backendJvmArgs, boolean turns) {
        StringBuilder script = new StringBuilder("set -u\nstatus=0\n");
        script.append("java -version > ")
                .append(OUT)
                .append('/')
                .append(CellFiles.JAVA_VERSION_FILE)
                .append(" 2>&1 || true\n");
        for (String variant : variantOrder) {
            Timed timed = timed(cell, variant, backendJvmArgs, turns);
            appendTimedRuns(script, cell, variant, timed);
            if (ProfileRun.wanted(cell)) {
                appendProfilingRun(script, cell, variant, backendJvmArgs, timed.env());
            }
        }
        script.append("exit $status\n");
        return script.toString();
    }

    /**
     * A variant's timed command, as one shell word for hyperfine, and what it adds to the environment: an {@code env
     * NAME=value … } prefix, or nothing.
     */
    private record Timed(String command, String env) {}

    private static Timed timed(Cell cell, String variant, List<String> backendJvmArgs, boolean turns) {
        if (cell.workload().user().isPresent()) {
            UserCommand.Launch launch = UserCommand.of(cell, variant, userPaths(cell), backendJvmArgs);
            // each argument quoted: a user's property or regex may hold spaces or shell characters
            String command =
                    String.join(" ", launch.command().stream().map(Shell::quote).toList());
            StringBuilder env = new StringBuilder();
            if (!launch.env().isEmpty()) {
                env.append("env");
                launch.env().forEach((k, v) -> env.append(' ').append(Shell.quote(k + "=" + v)));
                env.append(' ');
            }
            return new Timed(command, env.toString());
        }
        String command = String.join(
                " ",
                HarnessCommand.command(
                        "java",
                        HARNESS,
                        cell,
                        variant,
                        OUT + "/" + CellFiles.slug(variant) + ".records.jsonl",
                        backendJvmArgs,
                        turns ? java.util.Optional.of(TURNS) : java.util.Optional.empty()));
        return new Timed(command, "");
    }

    /** hyperfine: warmup + repetitions, each a fresh JVM; a failing variant is noted and the script carries on. */
    private static void appendTimedRuns(StringBuilder script, Cell cell, String variant, Timed timed) {
        String slug = CellFiles.slug(variant);
        script.append("echo ").append(Shell.quote("loom: variant " + variant)).append('\n');
        script.append("ok=1\n");
        script.append(timed.env())
                .append("hyperfine -N --style basic --output inherit")
                .append(" --warmup ")
                .append(cell.warmup())
                .append(" --runs ")
                .append(cell.repetitions())
                .append(" --export-json ")
                .append(OUT)
                .append('/')
                .append(slug)
                .append(".hyperfine.json ")
                .append(Shell.quote(timed.command()))
                .append(" || { echo ")
                .append(Shell.quote("loom: variant " + variant + " failed (exit $?)"))
                .append(" >&2; echo ")
                .append(Shell.quote(variant))
                .append(" >> ")
                .append(OUT)
                .append("/failed-variants; status=1; ok=0; }\n");
    }

    /** One more JVM, untimed, after the timed ones and only when they completed: what explains the cell (issue #20). */
    private static void appendProfilingRun(
            StringBuilder script, Cell cell, String variant, List<String> backendJvmArgs, String env) {
        String profile;
        if (cell.workload().user().isPresent()) {
            UserCommand.Launch launch = ProfileRun.userLaunch(
                    cell, variant, userPaths(cell), backendJvmArgs, java.util.Optional.of(AsyncProfilerAgent.IN_IMAGE));
            profile =
                    String.join(" ", launch.command().stream().map(Shell::quote).toList());
        } else {
            profile = String.join(
                    " ",
                    ProfileRun.command(
                            "java",
                            HARNESS,
                            cell,
                            variant,
                            OUT,
                            backendJvmArgs,
                            java.util.Optional.of(AsyncProfilerAgent.IN_IMAGE)));
        }
        script.append("if [ $ok = 1 ]; then echo ")
                .append(Shell.quote("loom: profiling " + variant))
                .append("; ")
                .append(env)
                .append(profile)
                .append(" || echo \"the JVM exited with $? (see the cell log)\" > ")
                .append(OUT)
                .append('/')
                .append(ProfileRun.failedFile(variant))
                .append("; fi\n");
    }

    /** Where a user workload's files are inside the cell: {@code USER_DIR/<index>/<file name>}. */
    public static List<String> containerFiles(Cell cell) {
        List<java.nio.file.Path> files =
                cell.workload().user().map(u -> u.artifact().files()).orElse(List.of());
        List<String> out = new java.util.ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            out.add(USER_DIR + "/" + i + "/" + files.get(i).getFileName());
        }
        return out;
    }

    public static UserCommand.Paths userPaths(Cell cell) {
        return new UserCommand.Paths("java", AGENT, containerFiles(cell), OUT, ":");
    }

    /** Single-quotes for sh; the harness arguments never contain quotes, but be exact anyway. */
}
