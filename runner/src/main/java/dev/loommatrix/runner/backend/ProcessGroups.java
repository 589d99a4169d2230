package dev.loommatrix.runner.backend;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Nothing outlives its cell on the local backend (issue #32): a program that starts a child process ({@code sleep
 * 300} from a ProcessBuilder) left it running after the run, adopted by init, burning CPU beside every later cell.
 * Each process a cell starts on Linux runs in a process group of its own ({@code setsid}: the driver, its JVMs and
 * whatever they start, unless they leave the group themselves); when it ends, whatever is still in the group is
 * killed, and said ("pid command line"), for the cell's record. A container's end already ends everything in it;
 * Windows (a job object would do it) and macOS are not covered yet: there, nothing is grouped and nothing said.
 */
final class ProcessGroups {

    private ProcessGroups() {}

    /** {@code setsid}, on a Linux host that has it (util-linux). */
    private static final Optional<Path> SETSID =
            Files.isDirectory(Path.of("/proc/self")) ? LocalBackend.onPath("setsid") : Optional.empty();

    static boolean available() {
        return SETSID.isPresent();
    }

    /**
     * The command run as the leader of a new process group. A process this JVM starts is never a group leader
     * already, so setsid executes the command in place: its pid is the group's id.
     */
    static List<String> inOwnGroup(List<String> command) {
        if (SETSID.isEmpty()) {
            return command;
        }
        List<String> grouped = new ArrayList<>(List.of(SETSID.get().toString()));
        grouped.addAll(command);
        return grouped;
    }

    /** Kills every process still in group {@code pgid}; each one as "pid command line", in pid order. */
    static List<String> end(long pgid) {
        if (SETSID.isEmpty()) {
            return List.of();
        }
        List<String> killed = new ArrayList<>();
        for (long pid : members(pgid)) {
            Optional<ProcessHandle> handle = ProcessHandle.of(pid);
            if (handle.isEmpty()) {
                continue;
            }
            String command = commandLine(pid);
            if (handle.get().destroyForcibly()) {
                killed.add(pid + " " + command);
            }
        }
        return killed;
    }

    /** The processes whose process group is {@code pgid}, this JVM never among them. */
    static List<Long> members(long pgid) {
        List<Long> pids = new ArrayList<>();
        long self = ProcessHandle.current().pid();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path dir : procs.filter(p -> p.getFileName().toString().matches("\\d+"))
                    .sorted()
                    .toList()) {
                long pid = Long.parseLong(dir.getFileName().toString());
                if (pid != self && ProcStat.group(dir).filter(g -> g == pgid).isPresent()) {
                    pids.add(pid);
                }
            }
        } catch (IOException e) {
            // /proc unreadable: nothing to say
        }
        pids.sort(null);
        return pids;
    }

    private static String commandLine(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", String.valueOf(pid), "cmdline"));
            String line = new String(raw, java.nio.charset.StandardCharsets.UTF_8)
                    .replace('\0', ' ')
                    .strip();
            return line.length() > 200 ? line.substring(0, 200) + "…" : line;
        } catch (IOException | RuntimeException e) {
            return "(its command line unreadable)";
        }
    }

    /**
     * The CPU the group's live members have used, their reaped children's included (utime, stime, cutime, cstime of
     * /proc/PID/stat), in clock ticks; a member that ended and was reaped by this JVM is in this JVM's own cutime.
     */
    static long cpuTicks(long pgid) {
        long ticks = 0;
        for (long pid : members(pgid)) {
            ticks += ProcStat.ticks(
                    Path.of("/proc", String.valueOf(pid)),
                    ProcStat.UTIME,
                    ProcStat.STIME,
                    ProcStat.CUTIME,
                    ProcStat.CSTIME);
        }
        return ticks;
    }
}
