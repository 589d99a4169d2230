package dev.loommatrix.harness.workload;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;

/**
 * Seed 003: each task sums the primes up to a random limit in [primeLimitMin, primeLimitMax) with the
 * seed's own IntStream trial division (CPU), then sleeps sleepMs (I/O), on a pool of T platform
 * threads (the seed's pool:cpus) or a virtual thread per task.
 *
 * <p>Differences from the seed, for a fair measurement: the limits come from a fixed-seed generator,
 * drawn before timing (the seed shares one Random across tasks, so its contention would be measured
 * too), and nothing is printed. The CPU cost per task c is calibrated in the same JVM before the
 * timed section (which also warms the JIT); the lower bound is max(N·c/P, ceil(N/T)·(c+S)) with P
 * the available processors and T = ∞ for unpooled variants.
 */
public final class PrimesIo implements Workload {

    static final long LIMITS_SEED = 20_260_003L;
    static final int CALIBRATION_TASKS = 2_000;

    private double calibratedMsPerTask = Double.NaN;

    @Override
    public String id() {
        return "primes-io";
    }

    @Override
    public Map<String, Long> defaults() {
        return Map.of("tasks", 10_000L, "sleepMs", 10L, "primeLimitMin", 1_000L, "primeLimitMax", 6_000L);
    }

    @Override
    public Set<String> variants() {
        return Set.of("virtual", "platform", "pool:*");
    }

    /** The seed's computation, kept as written there. */
    static int sumOfPrimes(int limit) {
        return IntStream.rangeClosed(2, limit).filter(PrimesIo::isPrime).sum();
    }

    static boolean isPrime(int n) {
        if (n < 2) {
            return false;
        }
        return IntStream.rangeClosed(2, (int) Math.sqrt(n)).noneMatch(d -> n % d == 0);
    }

    static int[] limits(Params params) {
        int min = params.getInt("primeLimitMin");
        int max = params.getInt("primeLimitMax");
        if (max <= min) {
            throw new IllegalArgumentException("primeLimitMax must be greater than primeLimitMin");
        }
        Random random = new Random(LIMITS_SEED);
        int[] limits = new int[params.getInt("tasks")];
        for (int i = 0; i < limits.length; i++) {
            limits[i] = min + random.nextInt(max - min);
        }
        return limits;
    }

    /** Mean single-threaded CPU time of one task's computation, measured on a prefix of the real limits. */
    double calibrate(int[] limits) {
        int n = Math.min(limits.length, CALIBRATION_TASKS);
        long sink = 0;
        for (int round = 0; round < 2; round++) { // the first round warms the JIT, the second is timed
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += sumOfPrimes(limits[i]);
            }
            calibratedMsPerTask = (System.nanoTime() - start) / 1e6 / Math.max(1, n);
        }
        if (sink == 42) {
            System.out.print(""); // keep the computation observable to the JIT
        }
        return calibratedMsPerTask;
    }

    @Override
    public OptionalDouble lowerBoundMs(Variant variant, Params params) {
        if (Double.isNaN(calibratedMsPerTask)) {
            calibrate(limits(params));
        }
        long tasks = params.get("tasks");
        double c = calibratedMsPerTask;
        double s = params.get("sleepMs");
        int processors = Runtime.getRuntime().availableProcessors();
        double cpuBound = tasks * c / processors;
        double waves = variant instanceof Variant.Pool pool ? Math.ceil((double) tasks / pool.threads()) : 1;
        return OptionalDouble.of(Math.max(cpuBound, waves * (c + s)));
    }

    @Override
    public Outcome run(Variant variant, Params params) throws InterruptedException {
        int[] limits = limits(params);
        double c = calibrate(limits);
        long sleepMs = params.get("sleepMs");
        LongAdder checksum = new LongAdder();
        long start = System.nanoTime();
        try (var executor = variant.newExecutor()) {
            for (int limit : limits) {
                executor.submit(() -> {
                    checksum.add(sumOfPrimes(limit));
                    Thread.sleep(sleepMs);
                    return null;
                });
            }
        }
        double wallMs = (System.nanoTime() - start) / 1e6;
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("computeMsPerTask", c);
        metrics.put("primeSumChecksum", checksum.sum());
        metrics.put("tasksPerSecond", limits.length / (wallMs / 1000.0));
        return Outcome.of(wallMs, metrics);
    }
}
