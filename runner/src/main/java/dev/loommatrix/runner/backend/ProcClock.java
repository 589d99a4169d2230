package dev.loommatrix.runner.backend;

import java.io.IOException;

/** The kernel's USER_HZ, the unit of /proc's CPU times: getconf's answer, 100 (Linux's) where it says nothing. */
public final class ProcClock {

    public static final long TICKS_PER_SECOND = ticks();

    /** Nanoseconds in one tick. */
    public static final long TICK_NANOS = 1_000_000_000L / TICKS_PER_SECOND;

    private ProcClock() {}

    private static long ticks() {
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
