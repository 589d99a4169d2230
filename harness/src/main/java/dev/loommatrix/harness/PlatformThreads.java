package dev.loommatrix.harness;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;

/**
 * The platform threads the variants' executors start ({@code pool:<T>}, {@code platform}), so that between
 * two iterations — outside any timing — the harness can wait until the last iteration's threads have really
 * ended. An executor's {@code close()} returns when its tasks are done, while its threads are still exiting,
 * and a thread Java has joined is still an operating-system thread for a while: 1,000 of them took 50–80 ms
 * more to leave the process here (2 CPUs), time in which a next iteration starting 1,000 threads of its own
 * competes with their teardown. Seed 002's pool:1000 back to back: 1.050–1.056 of its bound; with a second's
 * pause between iterations 1.042, like the seed's own program (1.038).
 */
public final class PlatformThreads {

    private static final Queue<Thread> STARTED = new ConcurrentLinkedQueue<>();

    /** The process's thread count before this iteration started its first platform thread; -1 when unknown. */
    private static volatile int threadsBefore = -1;

    /** How long the OS thread count must hold still to count as settled when it stays above where it was. */
    private static final long STILL_MS = 20;

    private PlatformThreads() {}

    /** The factory, each of whose threads is remembered until {@link #awaitEnded} has seen it end. */
    static ThreadFactory tracking(ThreadFactory factory) {
        return task -> {
            if (STARTED.isEmpty() && threadsBefore < 0) {
                threadsBefore = processThreads().orElse(-1);
            }
            Thread thread = factory.newThread(task);
            STARTED.add(thread);
            return thread;
        };
    }

    /**
     * Waits until every remembered thread has ended — joined in Java, then gone from the process (its thread
     * count back where it was before the iteration, or holding still) — at most {@code maxMs} in all. One
     * still alive then is left alone: a workload that leaks threads is {@code RunAgainTest}'s to find, not
     * this wait's to hide. Nothing to wait for when the iteration started no platform thread.
     */
    public static void awaitEnded(long maxMs) throws InterruptedException {
        long deadline = System.nanoTime() + maxMs * 1_000_000L;
        boolean started = !STARTED.isEmpty();
        for (Thread thread = STARTED.poll(); thread != null; thread = STARTED.poll()) {
            long leftMs = (deadline - System.nanoTime()) / 1_000_000L;
            if (leftMs <= 0) {
                STARTED.clear();
                break;
            }
            thread.join(leftMs);
        }
        int before = threadsBefore;
        threadsBefore = -1;
        if (started && before >= 0) {
            leaveTheProcess(before, deadline);
        }
    }

    /** Until the process has at most {@code before} threads, or its count held still for {@link #STILL_MS}. */
    private static void leaveTheProcess(int before, long deadline) throws InterruptedException {
        int last = processThreads().orElse(before);
        long stillSince = System.nanoTime();
        while (last > before && System.nanoTime() < deadline) {
            Thread.sleep(1);
            int now = processThreads().orElse(before);
            if (now < last) {
                stillSince = System.nanoTime();
            } else if (System.nanoTime() - stillSince > STILL_MS * 1_000_000L) {
                return;
            }
            last = now;
        }
    }

    /** The process's operating-system threads (Linux: /proc/self/status); empty elsewhere. */
    static OptionalInt processThreads() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Threads:")) {
                    return OptionalInt.of(
                            Integer.parseInt(line.substring("Threads:".length()).trim()));
                }
            }
        } catch (IOException | RuntimeException notLinux) {
            // no /proc: Java's join is all there is to wait for
        }
        return OptionalInt.empty();
    }
}
