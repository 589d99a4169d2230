package dev.loommatrix.harness.measure;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Latencies of one run in an HdrHistogram (3 significant digits, any range), safe to record into from
 * many threads at once. Recording is wait-free, so clients on virtual threads never block on it.
 */
public final class Latencies {

    /** The percentiles every latency-reporting workload publishes. */
    static final double[] PERCENTILES = {50, 90, 95, 99};

    private final Histogram histogram = new ConcurrentHistogram(3);

    public void recordNanos(long nanos) {
        histogram.recordValue(Math.max(0, nanos));
    }

    public long count() {
        return histogram.getTotalCount();
    }

    /**
     * {@code latencyMeanMs}, {@code latencyP50Ms} … {@code latencyP99Ms}, {@code latencyMaxMs} and the
     * count, in milliseconds. Empty when nothing was recorded (a mean of nothing is not zero).
     */
    public Map<String, Object> toMetrics() {
        Map<String, Object> metrics = new LinkedHashMap<>();
        long count = histogram.getTotalCount();
        metrics.put("latencyCount", count);
        if (count == 0) {
            return metrics;
        }
        metrics.put("latencyMeanMs", histogram.getMean() / NANOS_PER_MS);
        for (double p : PERCENTILES) {
            metrics.put("latencyP" + (int) p + "Ms", histogram.getValueAtPercentile(p) / NANOS_PER_MS);
        }
        metrics.put("latencyMaxMs", histogram.getMaxValue() / NANOS_PER_MS);
        return metrics;
    }

    private static final double NANOS_PER_MS = TimeUnit.MILLISECONDS.toNanos(1);
}
