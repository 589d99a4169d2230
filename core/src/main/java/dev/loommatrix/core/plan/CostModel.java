package dev.loommatrix.core.plan;

import java.util.Map;

/**
 * A rough estimate of how long a cell runs, used to balance shards and to show an ETA. It only has
 * to rank cells sensibly: JVM start-up per run plus the workload's own expected time, where the
 * catalogue has a lower bound, else a per-thread cost.
 */
public final class CostModel {

    /** A JVM's start-up and teardown, per fresh JVM; the harness is small. */
    static final double JVM_OVERHEAD_MS = 400;

    private CostModel() {}

    public static double estimateMs(Cell cell) {
        if (cell.workload().user().isPresent()) {
            return userMs(
                            cell.workload().user().get(),
                            cell.workload().variants().size())
                    * (cell.repetitions() + cell.warmup());
        }
        double perRound = 0;
        for (String variant : cell.workload().variants()) {
            perRound += JVM_OVERHEAD_MS
                    + cell.iterations().total()
                            * workloadMs(
                                    cell.workload().id(),
                                    variant,
                                    cell.workload().params(),
                                    cell.coordinates().cpus().doubleValue());
        }
        return perRound * (cell.repetitions() + cell.warmup());
    }

    static double workloadMs(String workload, String variant, Map<String, Long> p, double cpus) {
        long poolSize = variant.startsWith("pool:")
                ? (variant.equals("pool:cpus")
                        ? Math.max(1, (long) Math.ceil(cpus))
                        : Long.parseLong(variant.substring(5)))
                : Long.MAX_VALUE;
        return switch (workload) {
            case "sleep-bound" -> waves(p.get("tasks"), poolSize) * p.get("sleepMs");
            case "primes-io" -> waves(p.get("tasks"), poolSize) * p.get("sleepMs") + p.get("tasks") * 0.02 / cpus;
            case "mass-start", "footprint" ->
                p.getOrDefault("threads", 0L) * (variant.equals("platform") ? 0.05 : 0.002);
            case "fib-fanout" -> p.get("calls") * 1.0 / cpus;
            case "pinning" -> p.get("tasks") * p.get("sleepMs") / Math.max(1, cpus);
            case "http-server" -> p.get("durationS") * 1000.0;
            case "echo-server" -> p.get("connections") * p.get("messages") * 0.01;
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
                        yield jmh.benchmarks().size()
                                        * combinations
                                        * (iterations + JVM_OVERHEAD_MS)
                                        * Math.max(1, forks)
                                + JVM_OVERHEAD_MS;
                    }
                    case dev.loommatrix.core.matrix.UserWorkload.Program program -> 3_000;
                };
        return perJvm * variants;
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
