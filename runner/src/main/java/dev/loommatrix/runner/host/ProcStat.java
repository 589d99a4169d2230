package dev.loommatrix.runner.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A process's {@code /proc/PID/stat} as proc(5) lays it out (Linux), read in one place for the process groups, the
 * cell's CPU and the runner's own: the fields after the command name in parentheses (which may hold spaces and
 * parentheses), and the kernel's USER_HZ, the unit of its CPU times.
 */
public final class ProcStat {

    /** Indexes into {@link #fields}: field 5 (pgrp), fields 14-17 (utime, stime, cutime, cstime). */
    public static final int PGRP = 2;

    public static final int UTIME = 11;
    public static final int STIME = 12;
    public static final int CUTIME = 13;
    public static final int CSTIME = 14;

    /** getconf CLK_TCK's answer, 100 (Linux's) where it says nothing. */
    public static final long TICKS_PER_SECOND = ticksPerSecond();

    /** Nanoseconds in one tick. */
    public static final long TICK_NANOS = 1_000_000_000L / TICKS_PER_SECOND;

    private ProcStat() {}

    /** The fields after the command name: index 0 is field 3 (state); empty when the process is gone. */
    static Optional<String[]> fields(Path procDir) {
        try {
            String stat = Files.readString(procDir.resolve("stat"));
            return Optional.of(stat.substring(stat.lastIndexOf(')') + 2).split(" "));
        } catch (IOException | RuntimeException gone) {
            return Optional.empty();
        }
    }

    /** The sum of these CPU-time fields, in ticks; 0 when the process is gone (or this is not Linux). */
    public static long ticks(Path procDir, int... which) {
        return fields(procDir).map(f -> sum(f, which)).orElse(0L);
    }

    /** The sum of these CPU-time fields of a process's {@link #fields}, in ticks; 0 when they are unreadable. */
    static long sum(String[] fields, int... which) {
        long sum = 0;
        for (int i : which) {
            var value = field(fields, i);
            if (value.isEmpty()) {
                return 0;
            }
            sum += value.getAsLong();
        }
        return sum;
    }

    /** One numeric field of a process's {@link #fields}; empty when it is missing or not a number. */
    static java.util.OptionalLong field(String[] fields, int i) {
        try {
            return java.util.OptionalLong.of(Long.parseLong(fields[i]));
        } catch (RuntimeException unreadable) {
            return java.util.OptionalLong.empty();
        }
    }

    private static long ticksPerSecond() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            p.waitFor();
            return Long.parseLong(out);
        } catch (IOException | RuntimeException | InterruptedException e) {
            return 100;
        }
    }
}
