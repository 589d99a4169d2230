package dev.loommatrix.runner.backend.local;

import dev.loommatrix.runner.host.CellCpu;
import dev.loommatrix.runner.host.ProcStat;
import dev.loommatrix.runner.host.ProcessGroups;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * The current cell's processes on this host (the local backend runs one cell at a time): each in a process group of
 * its own, so that its CPU is the cell's and what it leaves running is ended with it (issue #32); the running one
 * killed on Ctrl-C, and a killed runner's driver found again by its pid file.
 */
final class LocalProcesses {

    /** Beside a cell's raw output while its driver runs: the driver's pid, for {@link #stopLeftovers}. */
    static final String DRIVER_PID_FILE = "driver.pid";

    /** How one process ended: its exit code, or killed because the cell's deadline passed. */
    sealed interface ProcessEnd {
        record Exited(int code) implements ProcessEnd {}

        record DeadlinePassed() implements ProcessEnd {}
    }

    private volatile Process running;
    /** What the running process leaves behind is ended through this (its group, or its descendants followed). */
    private volatile ProcessGroups.Watch runningWatch;

    private volatile boolean cancelled;
    /** The process groups the current cell started (their leaders' pids): its own CPU (issue #32). */
    private final Set<Long> cellGroups = ConcurrentHashMap.newKeySet();

    /** What the current cell's processes left running, killed when each ended (issue #32). */
    private final List<String> leftBehind = new CopyOnWriteArrayList<>();

    /** A new cell: nothing of the last one's counts for it. */
    void beginCell() {
        leftBehind.clear();
        cellGroups.clear();
    }

    /** What the cell's processes left running (killed when each ended). */
    List<String> leftBehind() {
        return List.copyOf(leftBehind);
    }

    boolean cancelled() {
        return cancelled;
    }

    /**
     * The cell's processes, read from /proc (Linux): the live members of every process group it started (its driver
     * and JVMs; a service's server and its load generator) and the processes this runner already reaped (its own
     * children's CPU, which only cells add to: the local backend runs one cell at a time).
     */
    CellCpu cellCpu() {
        return new CellCpu() {
            @Override
            public OptionalLong nanos() {
                return CellCpu.withShared(this, this::unsharedNanos);
            }

            /** The live groups only: the reaped processes are every cell's this runner ran, a lockstep sibling's too. */
            @Override
            public OptionalLong unsharedNanos() {
                if (!ProcessGroups.available()) {
                    return OptionalLong.empty();
                }
                return OptionalLong.of(ProcessGroups.cpuTicks(Set.copyOf(cellGroups)) * ProcStat.TICK_NANOS);
            }

            /** What this runner reaped: its children's CPU, which only cells add to. */
            @Override
            public OptionalLong sharedNanos() {
                if (!ProcessGroups.available()) {
                    return OptionalLong.empty();
                }
                return OptionalLong.of(
                        ProcStat.ticks(Path.of("/proc/self"), ProcStat.CUTIME, ProcStat.CSTIME) * ProcStat.TICK_NANOS);
            }

            @Override
            public String source() {
                return "the cell's process groups and the processes this runner reaped (/proc)";
            }
        };
    }

    /**
     * Runs a process with the cell's environment (the JDK entry's env and javaToolOptions, the include's
     * env) and its output appended to the log.
     */
    ProcessEnd exec(List<String> command, Map<String, String> env, Path log, long deadline)
            throws IOException, InterruptedException {
        // its own process group: whatever it starts and leaves running is ended with it
        ProcessBuilder builder = new ProcessBuilder(ProcessGroups.inOwnGroup(command))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(env);
        Process process = builder.start();
        cellGroups.add(process.pid());
        ProcessGroups.Watch watch = ProcessGroups.watch(process);
        running = process;
        runningWatch = watch;
        Path pidFile = log.resolveSibling(DRIVER_PID_FILE);
        Files.writeString(
                pidFile,
                process.pid() + " "
                        + process.info().startInstant().map(Object::toString).orElse("") + "\n");
        if (cancelled) {
            process.destroyForcibly();
        }
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0 || !process.waitFor(remaining, TimeUnit.NANOSECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            endGroup(watch, log);
            Files.deleteIfExists(pidFile);
            return new ProcessEnd.DeadlinePassed();
        }
        endGroup(watch, log);
        Files.deleteIfExists(pidFile);
        return new ProcessEnd.Exited(process.exitValue());
    }

    /**
     * Starts one of a service cell's processes (its server, a run of its load generator) in a process group of its
     * own, whose CPU is the cell's: the generator is the cell's own work, not other work beside it.
     */
    Process startOwn(ProcessBuilder builder) throws IOException {
        builder.command(ProcessGroups.inOwnGroup(builder.command()));
        Process process = builder.start();
        cellGroups.add(process.pid());
        return process;
    }

    /** Kills what the process left running, and says it in the cell log and (through run) the record. */
    private void endGroup(ProcessGroups.Watch watch, Path log) throws IOException {
        List<String> killed = watch.end();
        if (!killed.isEmpty()) {
            leftBehind.addAll(killed);
            Files.writeString(
                    log,
                    "loom: killed " + killed.size() + " process(es) it left running: " + String.join("; ", killed)
                            + "\n",
                    StandardOpenOption.APPEND);
        }
    }

    /** Ctrl-C: the cell's process groups ended, the running process and its descendants killed. */
    void cancel() {
        cancelled = true;
        // a service cell's server and generator: in groups of their own, out of reach of the terminal's Ctrl-C
        cellGroups.forEach(ProcessGroups::end);
        Process process = running;
        if (process != null) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            ProcessGroups.Watch watch = runningWatch;
            if (watch != null) {
                watch.end();
            }
        }
    }

    /**
     * A runner killed without warning leaves its driver (hyperfine or a JVM) running: the pid file names
     * it, and the process's start time makes sure a reused pid is never taken for it.
     */
    static void stopLeftovers(Path rawDir) {
        Path pidFile = rawDir.resolve(DRIVER_PID_FILE);
        try {
            if (!Files.isRegularFile(pidFile)) {
                return;
            }
            String[] fields = Files.readString(pidFile).trim().split(" ");
            String started = fields.length > 1 ? fields[1] : "";
            long leader = Long.parseLong(fields[0]);
            ProcessHandle.of(leader)
                    .filter(p -> fields.length > 1 && startInstant(p).equals(started))
                    .ifPresent(p -> {
                        p.descendants().forEach(ProcessHandle::destroyForcibly);
                        p.destroyForcibly();
                        p.onExit()
                                .orTimeout(10, TimeUnit.SECONDS)
                                .exceptionally(e -> p)
                                .join();
                    });
            // and what its group still holds (children a killed driver's JVMs started): the kernel never gives a new
            // process a pid that is a live group's id; a leader alive with another start time is another process
            boolean reused = ProcessHandle.of(leader)
                    .filter(p -> !startInstant(p).equals(started))
                    .isPresent();
            if (!reused) {
                ProcessGroups.end(leader);
            }
            Files.deleteIfExists(pidFile);
        } catch (IOException | RuntimeException e) {
            // nothing readable to stop
        }
    }

    private static String startInstant(ProcessHandle process) {
        return process.info().startInstant().map(Object::toString).orElse("");
    }
}
