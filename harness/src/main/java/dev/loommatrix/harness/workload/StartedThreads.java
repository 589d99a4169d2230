package dev.loommatrix.harness.workload;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Starts up to N threads of one kind running the same task, stopping at the first thread the OS or
 * the heap refuses ("unable to create native thread", pids limit, memory). The count reached is then
 * a ceiling: for mass-start and footprint that is the result, not a failure.
 */
record StartedThreads(List<Thread> threads, Optional<Outcome.Ceiling> ceiling) {

    static StartedThreads start(Thread.Builder builder, int count, Runnable task) {
        Thread[] threads = new Thread[count];
        int started = 0;
        Optional<Outcome.Ceiling> ceiling = Optional.empty();
        try {
            for (; started < count; started++) {
                threads[started] = builder.start(task);
            }
        } catch (OutOfMemoryError e) {
            ceiling = Optional.of(new Outcome.Ceiling(started, String.valueOf(e.getMessage())));
        }
        return new StartedThreads(Arrays.asList(threads).subList(0, started), ceiling);
    }

    int count() {
        return threads.size();
    }

    void joinAll() throws InterruptedException {
        for (Thread thread : threads) {
            thread.join();
        }
    }
}
