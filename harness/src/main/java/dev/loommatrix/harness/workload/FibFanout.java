package dev.loommatrix.harness.workload;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import dev.loommatrix.harness.measure.Latencies;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Semaphore;

/**
 * Seed 004: {@code calls} calls of a recursive fib(n), five ways.
 *
 * <ul>
 *   <li>{@code sequential} — one after another on the main thread.
 *   <li>{@code naive-virtual} — each call forks both branches onto new virtual threads, recursively
 *       (the seed's Parallel1: ~280 ms per call where sequential takes ~1.2 ms).
 *   <li>{@code executor} — each call submits one branch to a shared virtual-thread executor and
 *       computes the other itself, recursively (Parallel3).
 *   <li>{@code caller-virtual} — one virtual thread per call, each computing fib sequentially.
 *   <li>{@code semaphore} — as caller-virtual, but at most P calls in flight (Semaphore(P)).
 * </ul>
 *
 * <p>The two recursive forks are two orders of magnitude slower, so they run at most
 * {@link #RECURSIVE_CALLS} calls and stop after {@link #RECURSIVE_BUDGET_MS}; the record says how
 * many calls completed. Per-call latency runs from when the caller issues the call (before any
 * semaphore wait) to its completion, as the seed measures it. The single-call time t is calibrated
 * sequentially in the same JVM before timing; the lower bound is calls·t/P (sequential: calls·t).
 */
public final class FibFanout implements Workload {

    static final int RECURSIVE_CALLS = 10;
    static final long RECURSIVE_BUDGET_MS = 30_000;

    private double callMs = Double.NaN;
    private int callsDone = -1;

    @Override
    public String id() {
        return "fib-fanout";
    }

    @Override
    public Map<String, Long> defaults() {
        return Map.of("n", 27L, "calls", 1_000L);
    }

    @Override
    public Set<String> variants() {
        return Set.of("sequential", "naive-virtual", "executor", "caller-virtual", "semaphore");
    }

    public static int fibonacci(int n) {
        return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2);
    }

    static int naiveVirtual(int n) throws InterruptedException, ExecutionException {
        if (n < 2) {
            return n;
        }
        var f1 = new FutureTask<>(() -> naiveVirtual(n - 1));
        Thread.startVirtualThread(f1);
        var f2 = new FutureTask<>(() -> naiveVirtual(n - 2));
        Thread.startVirtualThread(f2);
        return f1.get() + f2.get();
    }

    static int viaExecutor(ExecutorService executor, int n) throws InterruptedException, ExecutionException {
        if (n < 2) {
            return n;
        }
        var f1 = executor.submit(() -> viaExecutor(executor, n - 1));
        int f2 = viaExecutor(executor, n - 2);
        return f1.get() + f2;
    }

    /**
     * The single-call time t: after a long warmup (C2 must reach steady state, or the "bound" is beaten),
     * the fastest of several batches — the best estimate of what one call costs when nothing interferes.
     */
    double calibrate(int n) {
        long sink = 0;
        long warmupEnd = System.nanoTime() + 300_000_000L; // 300 ms of warmup
        do {
            sink += fibonacci(n);
        } while (System.nanoTime() < warmupEnd);
        double best = Double.MAX_VALUE;
        for (int batch = 0; batch < 5; batch++) {
            int rounds = 10;
            long start = System.nanoTime();
            for (int i = 0; i < rounds; i++) {
                sink += fibonacci(n);
            }
            best = Math.min(best, (System.nanoTime() - start) / 1e6 / rounds);
        }
        callMs = best;
        if (sink == 42) {
            System.out.print("");
        }
        return callMs;
    }

    @Override
    public boolean usesVirtualThreads(Variant variant) {
        return !variant.name().equals("sequential");
    }

    @Override
    public OptionalDouble lowerBoundMs(Variant variant, Params params) {
        if (Double.isNaN(callMs)) {
            calibrate(params.getInt("n"));
        }
        long calls = callsDone >= 0 ? callsDone : params.get("calls");
        int processors = Runtime.getRuntime().availableProcessors();
        boolean sequential = variant.name().equals("sequential");
        return OptionalDouble.of(calls * callMs / (sequential ? 1 : processors));
    }

    @Override
    public Outcome run(Variant variant, Params params) throws InterruptedException {
        int n = params.getInt("n");
        int calls = params.getInt("calls");
        // once per JVM: its 300 ms warmup would otherwise be paid again by every iteration of the fork
        double t = Double.isNaN(callMs) ? calibrate(n) : callMs;
        boolean recursive =
                variant.name().equals("naive-virtual") || variant.name().equals("executor");
        int planned = recursive ? Math.min(calls, RECURSIVE_CALLS) : calls;
        Latencies latencies = new Latencies();
        long[] results = new long[planned];
        int done = 0;
        long start = System.nanoTime();
        try {
            switch (variant.name()) {
                case "sequential" -> {
                    for (; done < planned; done++) {
                        long issued = System.nanoTime();
                        results[done] = fibonacci(n);
                        latencies.recordNanos(System.nanoTime() - issued);
                    }
                }
                case "naive-virtual", "executor" -> {
                    try (ExecutorService shared = Executors.newVirtualThreadPerTaskExecutor()) {
                        long deadline = start + RECURSIVE_BUDGET_MS * 1_000_000;
                        for (; done < planned && System.nanoTime() < deadline; done++) {
                            long issued = System.nanoTime();
                            results[done] =
                                    variant.name().equals("executor") ? viaExecutor(shared, n) : naiveVirtual(n);
                            latencies.recordNanos(System.nanoTime() - issued);
                        }
                    }
                }
                case "caller-virtual", "semaphore" -> {
                    Semaphore permits = variant.name().equals("semaphore")
                            ? new Semaphore(Runtime.getRuntime().availableProcessors())
                            : null;
                    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
                        for (int i = 0; i < planned; i++) {
                            int call = i;
                            long issued = System.nanoTime();
                            if (permits != null) {
                                permits.acquire();
                            }
                            executor.execute(() -> {
                                results[call] = fibonacci(n);
                                latencies.recordNanos(System.nanoTime() - issued);
                                if (permits != null) {
                                    permits.release();
                                }
                            });
                        }
                    }
                    done = planned;
                }
                default -> throw new IllegalArgumentException("fib-fanout has no variant " + variant.name());
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("a fib task failed", e.getCause());
        }
        double wallMs = (System.nanoTime() - start) / 1e6;
        callsDone = done;
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("callsRequested", calls);
        metrics.put("callsCompleted", done);
        metrics.put("singleCallMs", t);
        metrics.put("fibResult", done > 0 ? results[0] : -1);
        metrics.put("allResultsEqual", Arrays.stream(results, 0, done).allMatch(r -> r == results[0]));
        metrics.putAll(latencies.toMetrics());
        return Outcome.of(wallMs, metrics);
    }
}
