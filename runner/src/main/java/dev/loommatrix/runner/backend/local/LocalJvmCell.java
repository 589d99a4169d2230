package dev.loommatrix.runner.backend.local;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.EngineAnswer;
import dev.loommatrix.runner.backend.Execution;
import dev.loommatrix.runner.backend.HarnessCommand;
import dev.loommatrix.runner.backend.ProfileRun;
import dev.loommatrix.runner.backend.UserCommand;
import dev.loommatrix.runner.backend.local.LocalDrivers.VariantEnd;
import dev.loommatrix.runner.backend.local.LocalProcesses.ProcessEnd;
import dev.loommatrix.runner.records.CellFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One JVM cell on this host: each variant's runs through the driver behind the cell's CPU limits, then the variant's
 * profiling run if the cell asks for one; the cell's deadline over them all.
 */
final class LocalJvmCell {

    private final HostTools tools;
    private final Cell cell;
    private final Backend.Assignment assignment;
    private final JdkLocator.FoundJdk jdk;
    private final LocalCpuLimits limits;
    private final Path rawDir;
    private final Path log;
    private final long deadline;
    private final EngineAnswer answer;

    LocalJvmCell(HostTools tools, Cell cell, Backend.Assignment assignment, JdkLocator.FoundJdk jdk) {
        this.tools = tools;
        this.cell = cell;
        this.assignment = assignment;
        this.jdk = jdk;
        this.limits = LocalCpuLimits.of(cell, tools.hostCpus(), tools.taskset());
        this.rawDir = assignment.rawDir();
        this.log = rawDir.resolve("cell.log");
        this.deadline = System.nanoTime() + cell.timeout().toNanos();
        this.answer = new EngineAnswer(cell, rawDir, assignment.variantOrder());
    }

    Execution run() throws InterruptedException {
        try {
            Files.createDirectories(rawDir);
            Path harness = tools.jars().harness();
            // The JDK's own account of itself, with the cell's environment (JAVA_TOOL_OPTIONS shows).
            tools.processes()
                    .exec(
                            List.of(jdk.java().toString(), "-version"),
                            cell.allEnv(),
                            rawDir.resolve(CellFiles.JAVA_VERSION_FILE),
                            deadline);
            for (String variant : assignment.variantOrder()) {
                if (tools.processes().cancelled() || !runVariant(variant, harness)) {
                    break;
                }
            }
        } catch (IOException e) {
            answer.crashed("could not run the JVM: " + e.getMessage());
        }
        return answer.answer(
                tools.backend(),
                tools.drivers().words() + "; " + HostTools.jdkWords(jdk),
                limits.expectation(tools.hostCpus()),
                Optional.empty(),
                Optional.empty(),
                () -> ProfileRun.read(
                        cell,
                        rawDir,
                        assignment.variantOrder(),
                        cell.profiling().flame() ? FlameLibrary.whyNot() : Optional.empty()));
    }

    /** The variant's timed runs, then its profiling run; false when the cell's deadline passed. */
    private boolean runVariant(String variant, Path harness) throws IOException, InterruptedException {
        String slug = CellFiles.slug(variant);
        List<String> command = new ArrayList<>(limits.prefix());
        Map<String, String> env = new LinkedHashMap<>(cell.allEnv());
        if (cell.workload().user().isPresent()) {
            UserCommand.Launch launch =
                    UserCommand.of(cell, variant, tools.userPaths(cell, jdk, rawDir), limits.jvmArgs());
            command.addAll(launch.command());
            env.putAll(launch.env());
        } else {
            command.addAll(HarnessCommand.command(
                    jdk.java().toString(),
                    harness.toString(),
                    cell,
                    variant,
                    rawDir.resolve(slug + ".records.jsonl").toString(),
                    limits.jvmArgs(),
                    assignment.turns().map(Path::toString)));
        }
        Files.writeString(log, "loom: variant " + variant + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        VariantEnd end =
                tools.drivers().run(cell, command, env, rawDir.resolve(slug + ".hyperfine.json"), log, deadline);
        if (end instanceof VariantEnd.DeadlinePassed) {
            answer.timedOut("timed out after " + cell.timeout().toSeconds() + " s; JVM killed");
            return false;
        }
        if (end instanceof VariantEnd.Failed failed) {
            answer.variantFailed(variant, failed.reason());
            return true;
        }
        return !ProfileRun.wanted(cell) || profile(variant, env, harness);
    }

    /**
     * One more JVM, untimed, after the timed ones: what explains the cell (issue #20). False when the cell's
     * deadline passed.
     */
    private boolean profile(String variant, Map<String, String> env, Path harness)
            throws IOException, InterruptedException {
        Optional<String> library =
                cell.profiling().flame() ? tools.flame().path().map(Path::toString) : Optional.empty();
        Files.writeString(log, "loom: profiling " + variant + "\n", StandardOpenOption.APPEND);
        List<String> profile = new ArrayList<>(limits.prefix());
        if (cell.workload().user().isPresent()) {
            profile.addAll(
                    ProfileRun.userLaunch(cell, variant, tools.userPaths(cell, jdk, rawDir), limits.jvmArgs(), library)
                            .command());
        } else {
            profile.addAll(ProfileRun.command(
                    jdk.java().toString(),
                    harness.toString(),
                    cell,
                    variant,
                    rawDir.toAbsolutePath().toString(),
                    limits.jvmArgs(),
                    library));
        }
        ProcessEnd ran = tools.processes().exec(profile, env, log, deadline);
        if (ran instanceof ProcessEnd.Exited exited && exited.code() != 0) {
            Files.writeString(
                    rawDir.resolve(ProfileRun.failedFile(variant)),
                    "the JVM exited with " + exited.code() + " (see the cell log)\n");
        } else if (ran instanceof ProcessEnd.DeadlinePassed) {
            answer.timedOut(
                    "timed out after " + cell.timeout().toSeconds() + " s (profiling " + variant + "); JVM killed");
            return false;
        }
        return true;
    }
}
