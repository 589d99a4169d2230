package dev.loommatrix.runner.host;

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
 * killed, and said ("pid command line"), for the cell's record. A container's end already ends everything in it.
 * Where there are no process groups to use (Windows, macOS), a {@link Watch} follows the process's descendants while
 * it runs (every 200 ms, and once more at its end) and ends those still alive: a child that lived a poll long is
 * never left behind; the same start time makes sure a reused pid is never taken for one.
 */
public final class ProcessGroups {

    private ProcessGroups() {}

    /** {@code setsid}, on a Linux host that has it (util-linux). */
    private static final Optional<Path> SETSID =
            Files.isDirectory(Path.of("/proc/self")) ? Programs.onPath("setsid") : Optional.empty();

    public static boolean available() {
        return SETSID.isPresent();
    }

    /**
     * The command run as the leader of a new process group. A process this JVM starts is never a group leader
     * already, so setsid executes the command in place: its pid is the group's id.
     */
    public static List<String> inOwnGroup(List<String> command) {
        if (SETSID.isEmpty()) {
            return command;
        }
        List<String> grouped = new ArrayList<>(List.of(SETSID.get().toString()));
        grouped.addAll(command);
        return grouped;
    }

    /** Whatever a started process leaves running, ended when {@link #end} is called. */
    public interface Watch {
        /** Kills what the process left running; each one as "pid command line". */
        public List<String> end();
    }

    /** The watch for a process started with {@link #inOwnGroup}: its group where there is one, else its descendants. */
    public static Watch watch(Process process) {
        return SETSID.isPresent()
                ? () -> end(process.pid())
                : new Descendants(process, java.time.Duration.ofMillis(200));
    }

    /**
     * Follows a process's descendants while it runs, for hosts without process groups (and tested on Linux, where a
     * child outlives its parent's exit the same way): every process seen with its start time, ended at the end.
     */
    static final class Descendants implements Watch {
        private final Process process;
        /** A descendant as first seen: its start instant tells it from a later process given the same pid. */
        private record Seen(ProcessHandle handle, Optional<java.time.Instant> started) {}

        private final java.util.Map<Long, Seen> seen = new java.util.concurrent.ConcurrentHashMap<>();
        private final Thread poller;
        private volatile boolean ended;

        Descendants(Process process, java.time.Duration every) {
            this.process = process;
            this.poller = Thread.ofVirtual()
                    .name("loom-descendants-" + process.pid())
                    .start(() -> {
                        while (!ended) {
                            look();
                            try {
                                Thread.sleep(every);
                            } catch (InterruptedException e) {
                                return;
                            }
                        }
                    });
        }

        private void look() {
            try {
                process.descendants()
                        .forEach(p -> seen.computeIfAbsent(
                                p.pid(), pid -> new Seen(p, p.info().startInstant())));
            } catch (RuntimeException e) {
                // the snapshot failed this time; the next look takes another
            }
        }

        @Override
        public List<String> end() {
            look();
            ended = true;
            poller.interrupt();
            List<String> killed = new ArrayList<>();
            seen.values().stream()
                    .sorted(java.util.Comparator.comparingLong(s -> s.handle().pid()))
                    .forEach(s -> {
                        ProcessHandle p = s.handle();
                        // alive, and still the process seen (a pid the OS gave another process since is not ours)
                        if (p.isAlive() && p.info().startInstant().equals(s.started())) {
                            String command = p.info().commandLine().orElse("(its command line unreadable)");
                            if (p.destroyForcibly()) {
                                killed.add(p.pid() + " "
                                        + (command.length() > 200 ? command.substring(0, 200) + "…" : command));
                            }
                        }
                    });
            return killed;
        }
    }

    /** Kills every process still in group {@code pgid}; each one as "pid command line", in pid order. */
    public static List<String> end(long pgid) {
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
        return List.copyOf(memberStats(java.util.Set.of(pgid)).keySet());
    }

    /**
     * The {@link ProcStat#fields} of each process whose group is one of {@code pgids}, by pid, this JVM never among
     * them: one read of each process's stat gives both its group and its CPU times. Read from the highest pid down,
     * children (started later, mostly with higher pids) before their parents: a child reaped between the two reads is
     * then in both (its own times and its parent's cutime) for one reading, never in neither.
     */
    private static java.util.SortedMap<Long, String[]> memberStats(java.util.Set<Long> pgids) {
        java.util.SortedMap<Long, String[]> stats = new java.util.TreeMap<>();
        if (pgids.isEmpty()) {
            return stats;
        }
        long self = ProcessHandle.current().pid();
        List<Long> pids;
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            pids = procs.map(p -> p.getFileName().toString())
                    .filter(name -> name.matches("\\d+"))
                    .map(Long::parseLong)
                    .filter(pid -> pid != self)
                    .sorted(java.util.Comparator.reverseOrder())
                    .toList();
        } catch (IOException e) {
            return stats; // /proc unreadable: nothing to say
        }
        for (long pid : pids) {
            ProcStat.fields(Path.of("/proc", String.valueOf(pid)))
                    .filter(f -> inGroup(f, pgids))
                    .ifPresent(f -> stats.put(pid, f));
        }
        return stats;
    }

    private static boolean inGroup(String[] fields, java.util.Set<Long> pgids) {
        var group = ProcStat.field(fields, ProcStat.PGRP);
        return group.isPresent() && pgids.contains(group.getAsLong());
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
     * The CPU the live members of these groups have used, their reaped children's included (utime, stime, cutime,
     * cstime of /proc/PID/stat), in clock ticks; a member that ended and was reaped by this JVM is in this JVM's own
     * cutime (read it after this, for the same reason as {@link #memberStats} reads children first).
     */
    public static long cpuTicks(java.util.Set<Long> pgids) {
        long ticks = 0;
        for (String[] fields : memberStats(pgids).values()) {
            ticks += ProcStat.sum(fields, ProcStat.UTIME, ProcStat.STIME, ProcStat.CUTIME, ProcStat.CSTIME);
        }
        return ticks;
    }
}
