package dev.loommatrix.runner.records;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.matrix.ServiceLoad;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One measured load run at one level, as the runner records it: what the service did (throughput, latency
 * percentiles, errors by kind) and what the generator did (the rate it achieved against the rate asked, the
 * CPU it used against the CPUs it had). {@link #invalid} says when the generator, not the service, set the
 * numbers.
 *
 * @param level the level's name ({@code users=200}, {@code rate=500/s})
 * @param askedRate the open model's rate; empty in a closed model
 * @param seconds the measured window as oha timed it
 * @param answered responses with a 2xx or 3xx status
 * @param latencyMs the latency percentiles in ms, with the maximum under "100": the distribution the dashboard
 *     plots — the HdrHistogram's percentile distribution when oha's request database was read, else oha's own
 *     percentiles (from every request's exact duration)
 * @param errors failed requests by kind: {@code connect}, {@code timeout}, {@code status} (an HTTP status of
 *     400 or more), {@code other}
 * @param cutAtDeadline requests still in flight when the window closed (oha aborts them): not errors, not
 *     answers
 * @param generatorCpuSeconds CPU time the generator's process used in the window
 * @param generatorCpus the CPUs the generator had (its cpuset's size, else the host's)
 * @param histogram every answered request's latency as an HdrHistogram, in its compressed base64 encoding
 *     (microseconds, {@link LatencyHistogram#SIGNIFICANT_DIGITS} significant digits)
 */
public record LoadReport(
        String level,
        Optional<Double> askedRate,
        double seconds,
        long answered,
        Map<String, Double> latencyMs,
        Map<String, Long> errors,
        long cutAtDeadline,
        double generatorCpuSeconds,
        int generatorCpus,
        Optional<String> histogram) {

    public LoadReport {
        latencyMs = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(latencyMs));
        errors = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(errors));
    }

    /**
     * The same run with its percentiles read from the HdrHistogram of every answered request, where oha's request
     * database gave one; as it is otherwise.
     */
    public LoadReport withHistogram(Optional<org.HdrHistogram.Histogram> h) {
        return h.map(histogram -> new LoadReport(
                        level,
                        askedRate,
                        seconds,
                        answered,
                        LatencyHistogram.percentilesMs(histogram),
                        errors,
                        cutAtDeadline,
                        generatorCpuSeconds,
                        generatorCpus,
                        Optional.of(LatencyHistogram.encoded(histogram))))
                .orElse(this);
    }

    /** A generator busier than this share of its CPUs is taken as saturated: its own limit was measured. */
    public static final double SATURATED = 0.90;

    public double throughput() {
        return seconds > 0 ? answered / seconds : 0;
    }

    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    /** The generator's CPU use as a share of the CPUs it had. */
    public double generatorCpuShare() {
        return seconds > 0 && generatorCpus > 0 ? generatorCpuSeconds / seconds / generatorCpus : 0;
    }

    /** The rate of requests the generator completed (answered or failed) per second. */
    public double achievedRate() {
        return seconds > 0 ? (answered + errorCount()) / seconds : 0;
    }

    /**
     * The rate of requests the generator sent: completed (answered or failed) or still in flight when the window
     * closed. The short of the asked rate that counts: a handler of L seconds leaves about rate × L requests in
     * flight at the window's end, which is no shortfall (300 ms in a 3 s window is 10 % of the rate).
     */
    public double sentRate() {
        return seconds > 0 ? (answered + errorCount() + cutAtDeadline) / seconds : 0;
    }

    /**
     * Why this run measured the generator rather than the service, if it did: the generator's CPUs were
     * saturated, or (open model) fewer requests completed than asked by more than the stated margin.
     */
    public Optional<String> invalid(double maxShortfall) {
        if (generatorCpuShare() >= SATURATED) {
            return Optional.of(String.format(
                    java.util.Locale.ROOT,
                    "invalid: the load generator was saturated at %s (%.2f CPU-seconds a second of its %d CPU%s, "
                            + "%.0f %%); its limit, not the service's, was measured",
                    level,
                    generatorCpuSeconds / seconds,
                    generatorCpus,
                    generatorCpus == 1 ? "" : "s",
                    100 * generatorCpuShare()));
        }
        if (askedRate.isPresent() && sentRate() < askedRate.get() * (1 - maxShortfall)) {
            return Optional.of(String.format(
                    java.util.Locale.ROOT,
                    "invalid: at %s the generator sent %.1f requests/s, %.1f %% short of the %s asked "
                            + "(more than the %.0f %% allowed)",
                    level,
                    sentRate(),
                    100 * (1 - sentRate() / askedRate.get()),
                    ServiceLoad.Open.level(askedRate.get()),
                    100 * maxShortfall));
        }
        return Optional.empty();
    }

    /** The run as a sample's metrics (names as {@link ServiceLoad#METRICS}, then the generator's figures). */
    public Map<String, Object> metrics() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(ServiceLoad.THROUGHPUT.name(), throughput());
        latency("50").ifPresent(v -> m.put(ServiceLoad.P50.name(), v));
        latency("90").ifPresent(v -> m.put(ServiceLoad.P90.name(), v));
        latency("99").ifPresent(v -> m.put(ServiceLoad.P99.name(), v));
        latency("99.9").ifPresent(v -> m.put(ServiceLoad.P999.name(), v));
        latency("100").ifPresent(v -> m.put(ServiceLoad.MAX.name(), v));
        m.put(ServiceLoad.ERRORS.name(), errorCount());
        errors.forEach((kind, n) -> m.put("errors" + Character.toUpperCase(kind.charAt(0)) + kind.substring(1), n));
        m.put("answered", answered);
        m.put("cutAtDeadline", cutAtDeadline);
        askedRate.ifPresent(r -> m.put("askedRate", r));
        m.put("achievedRate", achievedRate());
        m.put("generatorCpuSeconds", generatorCpuSeconds);
        m.put("generatorCpus", generatorCpus);
        m.put("latencyDistributionMs", latencyMs);
        histogram.ifPresent(h -> m.put("latencyHistogram", h));
        return m;
    }

    private Optional<Double> latency(String percentile) {
        return Optional.ofNullable(latencyMs.get(percentile));
    }

    /** Reads oha's JSON report of one run. */
    public static LoadReport of(
            String level, Optional<Double> askedRate, JsonNode report, double cpuSeconds, int generatorCpus) {
        double seconds = report.path("summary").path("total").asDouble(0);
        long answered = 0;
        Map<String, Long> errors = new LinkedHashMap<>();
        for (var status : LoadReport.statuses(report).entrySet()) {
            if (status.getKey() < 400) {
                answered += status.getValue();
            } else {
                errors.merge("status", status.getValue(), Long::sum);
            }
        }
        long[] cut = {0};
        report.path("errorDistribution").properties().forEach(e -> {
            String message = e.getKey().toLowerCase(java.util.Locale.ROOT);
            long n = e.getValue().asLong();
            if (message.contains("aborted due to deadline")) {
                cut[0] += n;
            } else {
                errors.merge(errorKind(message), n, Long::sum);
            }
        });
        Map<String, Double> latency = new LinkedHashMap<>();
        report.path("latencyPercentiles").properties().forEach(e -> {
            if (e.getValue().isNumber()) {
                latency.put(e.getKey().replaceFirst("^p", ""), e.getValue().asDouble() * 1000);
            }
        });
        JsonNode slowest = report.path("summary").path("slowest");
        if (slowest.isNumber()) {
            latency.put("100", slowest.asDouble() * 1000);
        }
        return new LoadReport(
                level,
                askedRate,
                seconds,
                answered,
                latency,
                errors,
                cut[0],
                cpuSeconds,
                generatorCpus,
                Optional.empty());
    }

    /** oha's error texts (hyper's and the OS's words) sorted into the kinds the record keeps. */
    static String errorKind(String message) {
        if (message.contains("timeout") || message.contains("timed out")) {
            return "timeout";
        }
        if (message.contains("connect")
                || message.contains("refused")
                || message.contains("reset")
                || message.contains("broken pipe")
                || message.contains("closed")) {
            return "connect";
        }
        return "other";
    }
    /** The HTTP statuses a report counted, by code. */
    public static Map<Integer, Long> statuses(JsonNode report) {
        Map<Integer, Long> out = new LinkedHashMap<>();
        report.path("statusCodeDistribution").properties().forEach(e -> {
            try {
                out.put(Integer.parseInt(e.getKey()), e.getValue().asLong());
            } catch (NumberFormatException ignored) {
                // not a status code
            }
        });
        return out;
    }
}
