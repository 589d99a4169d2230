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
        double perRound = 0;
        for (String variant : cell.workload().variants()) {
            perRound += JVM_OVERHEAD_MS
                    + workloadMs(
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

    private static double waves(long tasks, long poolSize) {
        return poolSize == Long.MAX_VALUE ? 1 : Math.ceil((double) tasks / poolSize);
    }
}
