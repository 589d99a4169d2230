package example.blocking;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A service method in the style many teams have: each request fans out to a few blocking calls
 * (here a sleep standing in for a database or an HTTP call) on an executor, and waits for all of them.
 * Which executor — a fixed pool of platform threads, or a virtual thread per task — is the decision
 * the benchmark informs.
 */
public final class BlockingService implements AutoCloseable {

    private final ExecutorService executor;
    private final Duration callLatency;

    public BlockingService(ExecutorService executor, Duration callLatency) {
        this.executor = executor;
        this.callLatency = callLatency;
    }

    /** The executor the way the service is configured: "virtual", or a pool of {@code poolSize} threads. */
    public static ExecutorService executor(String threads, int poolSize) {
        return switch (threads) {
            case "virtual", "VIRTUAL" -> Executors.newVirtualThreadPerTaskExecutor();
            case "platform", "PLATFORM" -> Executors.newFixedThreadPool(poolSize);
            default -> throw new IllegalArgumentException("threads must be virtual or platform, got " + threads);
        };
    }

    /** Handles {@code requests} concurrent requests of {@code calls} blocking calls each; returns the calls made. */
    public int handle(int requests, int calls) throws InterruptedException, ExecutionException {
        List<Future<Integer>> pending = new ArrayList<>(requests * calls);
        for (int r = 0; r < requests; r++) {
            for (int c = 0; c < calls; c++) {
                pending.add(executor.submit(() -> {
                    Thread.sleep(callLatency);
                    return 1;
                }));
            }
        }
        int done = 0;
        for (Future<Integer> f : pending) {
            done += f.get();
        }
        return done;
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
