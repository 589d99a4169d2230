package dev.loommatrix.core.plan;

import dev.loommatrix.core.matrix.ServiceLoad;
import java.util.Map;

/**
 * A rough estimate of how long a cell runs, used to balance shards and to show an ETA. It only has
 * to rank cells sensibly: JVM start-up per run plus the workload's own expected time, where the
 * catalogue has a lower bound, else a per-thread cost.
 */
public final class CostModel {

    /**
     * A JVM's start-up and teardown, per fresh JVM; the harness is small. Measured by hyperfine on this 2-core
     * machine: the harness's JVM takes 180–200 ms more than its workload's own wall time, and the driver's
     * own work per run (hyperfine's, then reading the record) about 100 ms more
     * ({@code benchmarks/results/2026-11-25-quick}).
     */
    static final double JVM_OVERHEAD_MS = 300;

    /** Per cell: {@code java -version}, the attestation, writing the record (and starting a container). */
    static final double CELL_OVERHEAD_MS = 400;

    /** A user's service to its first answer: a JVM's start several times over (a framework's, its readiness). */
    static final double SERVICE_START_MS = JVM_OVERHEAD_MS * 5;

    /**
     * The seeds' Spring Boot to its first answer (3.6 s on 2 CPUs here), its readiness probes and a graceful stop: a
     * fork took 6.7 s for 2 s of windows ({@code benchmarks/results/*-quick}).
     */
    static final double SPRING_BOOT_START_MS = 4_400;

    /** JMH's own setup per run inside a fork (its runner, the benchmark's generated classes). */
    static final double JMH_SETUP_MS = 300;

    private CostModel() {}

    public static double estimateMs(Cell cell) {
        if (cell.workload().user().isPresent()) {
            return userMs(
                            cell.workload().user().get(),
                            cell.workload().variants().size())
                    * (cell.repetitions() + cell.warmup());
        }
        // a built-in service runs one warmup and one measured window per fresh server, whatever the iterations
        int iterations =
                dev.loommatrix.core.matrix.Workloads.find(cell.workload().id())
                                .filter(dev.loommatrix.core.matrix.Workloads.Definition::service)
                                .isPresent()
                        ? 1
                        : cell.iterations().total();
        double perRound = 0;
        for (String variant : cell.workload().variants()) {
            perRound += JVM_OVERHEAD_MS
                    + iterations
                            * workloadMs(
                                    cell.workload().id(),
                                    variant,
                                    cell.workload().params(),
                                    cell.coordinates().cpus().doubleValue())
                    + forkSetupMs(cell.workload().id())
                    + microMs(cell.workload().params());
        }
        return CELL_OVERHEAD_MS + perRound * (cell.repetitions() + cell.warmup());
    }

    /** What a workload does once per fork before its first iteration: fib-fanout calibrates one call's time. */
    static double forkSetupMs(String workload) {
        return workload.equals("fib-fanout") ? 300 : 0;
    }

    /**
     * fib(n) costs about 1 ms at n = 27 and φ times less per step down; the recursive variants start a thread
     * per node of the call tree (about 3.2·φⁿ of them, some 1.5 µs each) for at most 10 calls.
     */
    static double fibFanoutMs(String variant, long n, long calls, double cpus) {
        double phi = (1 + Math.sqrt(5)) / 2;
        if (variant.equals("naive-virtual") || variant.equals("executor")) {
            return Math.min(calls, 10) * 3.2 * Math.pow(phi, n) * 0.0015;
        }
        return calls * Math.pow(phi, n - 27) / (variant.equals("sequential") ? 1 : cpus);
    }

    /** The workload's JMH micro case, once per fork after the timed iterations; none when jmhIterations is 0. */
    static double microMs(Map<String, Long> p) {
        long iterations = p.getOrDefault("jmhIterations", 0L);
        if (iterations == 0) {
            return 0;
        }
        return JMH_SETUP_MS + (p.getOrDefault("jmhWarmupIterations", 0L) + iterations) * p.get("jmhIterationMs");
    }

    static double workloadMs(String workload, String variant, Map<String, Long> p, double cpus) {
        long poolSize = variant.startsWith("pool:")
                ? (variant.equals("pool:cpus")
                        ? Math.max(1, (long) Math.ceil(cpus))
                        : Long.parseLong(variant.substring(5)))
                : Long.MAX_VALUE;
        return switch (workload) {
            case "sleep-bound" -> waves(p.get("tasks"), poolSize) * p.get("sleepMs");
            case "primes-io" -> waves(p.get("tasks"), poolSize) * p.get("sleepMs") + p.get("tasks") * 0.5 / cpus;
            case "mass-start" -> p.get("threads") * (variant.equals("platform") ? 0.09 : 0.006);
            // plus two full collections, before and after, to read the heap a thread holds
            case "footprint" -> 100 + p.get("threads") * (variant.equals("platform") ? 0.06 : 0.005);
            case "fib-fanout" -> fibFanoutMs(variant, p.get("n"), p.get("calls"), cpus);
            case "pinning" -> p.get("tasks") * p.get("sleepMs") / Math.max(1, cpus);
            // plus starting the server and connecting the users, then closing both
            case "http-server" -> 500 + (p.get("warmupS") + p.get("durationS")) * 1000.0;
            // a Spring Boot start, then its warmup and measured windows
            case "spring-boot" -> SPRING_BOOT_START_MS + (p.get("warmupS") + p.get("durationS")) * 1000.0;
            // a capacity search of that Spring Boot
            case dev.loommatrix.core.matrix.Workloads.SPRING_BOOT_CAPACITY ->
                capacitySearchMs(
                        SPRING_BOOT_START_MS,
                        ServiceLoad.Capacity.ofBuiltIn(p),
                        p.get("warmupS") * 1000.0,
                        p.get("durationS") * 1000.0);
            case "echo-server" -> p.get("connections") * (1.0 + p.get("messages") * 0.1);
            case "ping-pong" -> p.get("roundTrips") * 0.01;
            case "thread-local" -> p.get("tasks") * 0.01;
            default -> 1000;
        };
    }

    /** JMH's defaults where the entry leaves them to the suite: 5 iterations of 10 s, 5 forks. */
    static final int JMH_ITERATIONS = 5;

    static final double JMH_ITERATION_MS = 10_000;

    /**
     * A user workload per round of its variants: JMH's iterations × their time × the benchmarks selected ×
     * the forks (plus a JVM each), from what the entry sets, JMH's defaults otherwise (suites' own
     * annotations may say less, so this errs long); a program is guessed at a few seconds.
     */
    static double userMs(dev.loommatrix.core.matrix.UserWorkload user, int variants) {
        double perJvm =
                switch (user.artifact()) {
                    case dev.loommatrix.core.matrix.UserWorkload.Jmh jmh -> {
                        double iterations = jmh.warmupIterations().orElse(JMH_ITERATIONS) * millis(jmh.warmupTime())
                                + jmh.iterations().orElse(JMH_ITERATIONS) * millis(jmh.time());
                        int combinations = jmh.params().values().stream()
                                .mapToInt(java.util.List::size)
                                .reduce(1, (a, b) -> a * b);
                        int forks = jmh.forks().orElse(JMH_ITERATIONS);
                        yield user.benchmarksPerVariant()
                                        * combinations
                                        * (iterations + JVM_OVERHEAD_MS)
                                        * Math.max(1, forks)
                                + JVM_OVERHEAD_MS;
                    }
                    case dev.loommatrix.core.matrix.UserWorkload.Program program -> 3_000;
                    case dev.loommatrix.core.matrix.UserWorkload.Service service -> serviceMs(service.load());
                };
        return perJvm * variants;
    }

    /** A service's repetition: a start-up, then each level's warmup and measured window; or a capacity search. */
    static double serviceMs(ServiceLoad load) {
        double warmup = load.warmup().toMillis();
        double duration = load.duration().toMillis();
        if (load.model() instanceof ServiceLoad.Capacity capacity) {
            return capacitySearchMs(SERVICE_START_MS, capacity, warmup, duration);
        }
        return SERVICE_START_MS + load.model().windows() * (warmup + duration);
    }

    /**
     * A capacity search: two server starts (the search's, the validation's fresh one) and at most every window the
     * search can run, and those it measures again, each with its connections' opening (not counted in its latencies,
     * at most its warmup again) and the validation's server warmed at each rate the search passed (at most a warmup
     * more a window).
     */
    static double capacitySearchMs(double startMs, ServiceLoad.Capacity capacity, double warmupMs, double durationMs) {
        return 2 * startMs + (capacity.windows() + capacity.retries()) * (3 * warmupMs + durationMs);
    }

    /** A JMH time ("500ms", "1s", "2m"), or JMH's default iteration time when the entry has none. */
    static double millis(java.util.Optional<String> time) {
        if (time.isEmpty()) {
            return JMH_ITERATION_MS;
        }
        var m = java.util.regex.Pattern.compile("([0-9]+)(ns|us|ms|s|m|min|hr)").matcher(time.get());
        if (!m.matches()) {
            return JMH_ITERATION_MS;
        }
        double n = Double.parseDouble(m.group(1));
        return switch (m.group(2)) {
            case "ns" -> n / 1e6;
            case "us" -> n / 1e3;
            case "ms" -> n;
            case "s" -> n * 1e3;
            case "m", "min" -> n * 60e3;
            default -> n * 3600e3;
        };
    }

    private static double waves(long tasks, long poolSize) {
        return poolSize == Long.MAX_VALUE ? 1 : Math.ceil((double) tasks / poolSize);
    }
}
