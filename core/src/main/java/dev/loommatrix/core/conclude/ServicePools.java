package dev.loommatrix.core.conclude;

import dev.loommatrix.core.matrix.ServiceLoad;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.stats.MetricDescriptor;
import dev.loommatrix.core.stats.RatioInterval;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server's request pool at its Little's-law bound (issue #51): a pool of T threads, each holding a request for the
 * time it takes, serves at most T ÷ that time. The time a request takes unqueued is the lowest median latency any
 * variant of the cell measured under the same load (the variant that queued least); a pool that served 80 % of its
 * bound or more was capped by its own size — a comparison with it says as much about the pool as about threads.
 */
final class ServicePools {

    private ServicePools() {}

    /**
     * {@code tomcat:20}, {@code pool:50}, {@code pool:cpus}: the built-in names that carry a pool's size; {@code tomcat-20}, the way the
     * examples and the seeds name a user's Tomcat variant (the size then is read from the name, and said so).
     */
    private static final Pattern SIZED = Pattern.compile("(?:tomcat|pool)([:-])(\\d+|cpus)");

    /**
     * A built-in service records its own Little's-law bound (its threads ÷ its handler's time) and how much of it
     * each repetition served: the pool is bound where the median share is 80 % or more.
     */
    private static Optional<Cause> recordedBound(Measurement pool, int threads) {
        double[] bound = pool.values("throughputBoundPerSecond");
        double[] share = pool.values("throughputEfficiency");
        if (bound.length == 0 || share.length == 0) {
            return Optional.empty();
        }
        double efficiency = RatioInterval.median(share);
        if (efficiency < Causes.POOL_BOUND_EFFICIENCY) {
            return Optional.empty();
        }
        return capped(
                pool,
                String.format(
                        Locale.ROOT,
                        "pool-bound: %s's %d threads serve at most %,.0f req/s (its threads ÷ the handler's time),"
                                + " and it served %,.0f req/s, %.0f %% of that",
                        pool.variant(),
                        threads,
                        RatioInterval.median(bound),
                        RatioInterval.median(pool.judged()),
                        efficiency * 100));
    }

    /** A pool that served more than this share of its estimated bound was not held by it. */
    static final double OVER_BOUND = 1.1;

    static Optional<Cause> bound(CellRecord cell, Measurement pool) {
        Matcher sized = SIZED.matcher(pool.variant());
        if (!sized.matches() || !pool.metric().equals(MetricDescriptor.THROUGHPUT)) {
            return Optional.empty();
        }
        Optional<Integer> size = sized.group(2).equals("cpus")
                ? cell.environment().map(e -> e.availableProcessors())
                : Optional.of(Integer.parseInt(sized.group(2)));
        if (size.isEmpty()) {
            return Optional.empty();
        }
        int threads = size.get();
        Optional<Cause> recorded = recordedBound(pool, threads);
        if (recorded.isPresent() || pool.values("throughputBoundPerSecond").length > 0) {
            return recorded; // the workload knows its handler's time: its own bound, not an estimate
        }
        String byName = sized.group(1).equals("-") ? " (its size by its name)" : "";
        String label = pool.benchmark().map(b -> b.label()).orElse("");
        Optional<Measurement> fastest = cell.measurements().stream()
                .filter(m -> m.benchmark().map(b -> b.label()).orElse("").equals(label))
                .filter(m -> m.values(ServiceLoad.P50.name()).length > 0)
                .min(java.util.Comparator.comparingDouble(m -> RatioInterval.median(m.values(ServiceLoad.P50.name()))));
        double[] served = pool.judged();
        if (fastest.isEmpty() || served.length == 0) {
            return Optional.empty();
        }
        double requestMs = RatioInterval.median(fastest.get().values(ServiceLoad.P50.name()));
        double boundPerSecond = threads * 1000 / requestMs;
        double achieved = RatioInterval.median(served);
        // below 80 % of its bound the pool had threads to spare; well above it, the least queued variant's median
        // is no pool thread's service time (it queued too, or the work differs), and no bound is claimed
        if (requestMs <= 0
                || achieved < Causes.POOL_BOUND_EFFICIENCY * boundPerSecond
                || achieved > OVER_BOUND * boundPerSecond) {
            return Optional.empty();
        }
        return capped(
                pool,
                String.format(
                        Locale.ROOT,
                        "pool-bound: %s's %d threads%s serve at most %,.0f req/s when a request takes %s (%s's median,"
                                + " the least queued; Little's law), and it served %,.0f req/s",
                        pool.variant(),
                        threads,
                        byName,
                        boundPerSecond,
                        Causes.ms(requestMs),
                        fastest.get().variant(),
                        achieved));
    }

    /** A pool held by its size, said with its numbers and what follows for the comparison. */
    private static Optional<Cause> capped(Measurement pool, String numbers) {
        return Optional.of(new Cause(
                Cause.Kind.POOL_BOUND,
                pool.variant(),
                "measurements",
                numbers + " — its size capped it, so a larger pool is the fairer comparison"));
    }
}
