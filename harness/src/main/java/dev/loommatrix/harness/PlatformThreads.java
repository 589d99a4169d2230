package dev.loommatrix.harness;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;

/**
 * The platform threads the variants' executors start ({@code pool:<T>}, {@code platform}), so that between
 * two iterations — outside any timing — the harness can wait until the last iteration's threads have really
 * ended. An executor's {@code close()} returns when its tasks are done, while its threads are still exiting;
 * a next iteration that starts 1,000 threads of its own at that moment would compete with their teardown,
 * and a thread still alive from the last iteration is something left behind.
 */
public final class PlatformThreads {

    private static final Queue<Thread> STARTED = new ConcurrentLinkedQueue<>();

    private PlatformThreads() {}

    /** The factory, each of whose threads is remembered until {@link #awaitEnded} has seen it end. */
    static ThreadFactory tracking(ThreadFactory factory) {
        return task -> {
            Thread thread = factory.newThread(task);
            STARTED.add(thread);
            return thread;
        };
    }

    /**
     * Waits until every remembered thread has ended, at most {@code maxMs} in all; one still alive then is
     * left alone (a workload that leaks threads is {@code RunAgainTest}'s to find, not this wait's to hide).
     */
    public static void awaitEnded(long maxMs) throws InterruptedException {
        long deadline = System.nanoTime() + maxMs * 1_000_000L;
        for (Thread thread = STARTED.poll(); thread != null; thread = STARTED.poll()) {
            long leftMs = (deadline - System.nanoTime()) / 1_000_000L;
            if (leftMs <= 0) {
                STARTED.clear();
                return;
            }
            thread.join(leftMs);
        }
    }
}
