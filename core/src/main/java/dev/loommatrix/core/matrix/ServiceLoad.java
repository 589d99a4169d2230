package dev.loommatrix.core.matrix;

import dev.loommatrix.core.stats.MetricDescriptor;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a service cell loads its server (issue #28): the requests, the load model, and how long. The load
 * generator (oha) turns it into its own command line; the runner never sends a request itself.
 *
 * @param paths the request paths, one chosen at random for each request (one path is the usual case); empty
 *     when {@code urlsFile} lists the requests
 * @param warmup load before the measured window, thrown away (the JIT, pools and caches warm up)
 * @param duration the measured window of each repetition
 * @param requestTimeout a request slower than this counts as a timeout error; empty waits for every answer
 * @param maxShortfall how far the completed rate may fall below the asked rate (open model) before the
 *     measurement is invalid: the generator, not the service, would be what was measured
 * @param urlsFile the requests as a file in the generator's own format (oha's {@code --urls-from-file})
 */
public record ServiceLoad(
        String method,
        List<String> paths,
        Map<String, String> headers,
        Optional<String> body,
        Model model,
        Duration warmup,
        Duration duration,
        Optional<Duration> requestTimeout,
        double maxShortfall,
        Optional<UrlsFile> urlsFile) {

    public ServiceLoad {
        paths = List.copyOf(paths);
        headers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        urlsFile = urlsFile == null ? Optional.empty() : urlsFile;
    }

    /** A load whose requests are its paths. */
    public ServiceLoad(
            String method,
            List<String> paths,
            Map<String, String> headers,
            Optional<String> body,
            Model model,
            Duration warmup,
            Duration duration,
            Optional<Duration> requestTimeout,
            double maxShortfall) {
        this(method, paths, headers, body, model, warmup, duration, requestTimeout, maxShortfall, Optional.empty());
    }

    /**
     * A file of request URLs, one a line, as oha reads it with {@code --urls-from-file} (blank lines skipped, one
     * URL chosen at random for each request). Its URLs name one {@code host:port} of the team's choosing; the
     * generator sends them to the cell's server instead ({@code --connect-to}), so the same file serves a
     * staging run and the cell.
     *
     * @param authority the {@code host:port} every URL of the file names
     * @param urls how many URLs it lists
     */
    public record UrlsFile(java.nio.file.Path file, String authority, int urls) {}

    /** The requests in a few words, for the benchmark's name: {@code GET /work}, {@code GET urls.txt (120 URLs)}. */
    public String requests() {
        return method + " "
                + urlsFile.map(u -> u.file().getFileName() + " (" + u.urls() + (u.urls() == 1 ? " URL)" : " URLs)"))
                        .orElse(String.join(", ", paths));
    }

    /** The default share of the asked rate an open-model run may miss before it is invalid. */
    public static final double DEFAULT_MAX_SHORTFALL = 0.05;

    /** The load model. */
    public sealed interface Model {
        /** What each measured level is called in the results ({@code users=3000}, {@code rate=500/s}). */
        List<String> levels();
    }

    /**
     * Closed: {@code users} concurrent users, each sending its next request as soon as its last one is
     * answered, no think time (the seed's JMeter thread group). Throughput is what it measures.
     */
    public record Closed(int users) implements Model {
        @Override
        public List<String> levels() {
            return List.of("users=" + users);
        }
    }

    /**
     * Open: requests arrive at a constant rate whatever the service does, each one's latency measured from
     * the moment it was due (coordinated omission corrected). Several rates make a throughput-latency curve,
     * one measured level each.
     *
     * @param connections at most this many requests in flight (the generator's connections)
     */
    public record Open(List<Double> rates, int connections) implements Model {
        public Open {
            rates = List.copyOf(rates);
        }

        @Override
        public List<String> levels() {
            return rates.stream().map(Open::level).toList();
        }

        public static String level(double rate) {
            return "rate=" + (rate == Math.rint(rate) ? String.valueOf((long) rate) : String.valueOf(rate)) + "/s";
        }
    }

    /** What a service's measurements are judged by: closed-model throughput, open-model p99 latency. */
    public MetricDescriptor judgedBy() {
        return switch (model) {
            case Closed c -> THROUGHPUT;
            case Open o -> P99;
        };
    }

    public static final MetricDescriptor THROUGHPUT = MetricDescriptor.THROUGHPUT;
    public static final MetricDescriptor P50 = latency("latencyP50Ms");
    public static final MetricDescriptor P90 = latency("latencyP90Ms");
    public static final MetricDescriptor P99 = latency("latencyP99Ms");
    public static final MetricDescriptor P999 = latency("latencyP999Ms");
    public static final MetricDescriptor MAX = latency("latencyMaxMs");
    public static final MetricDescriptor ERRORS =
            new MetricDescriptor("errors", "requests", MetricDescriptor.Direction.LOWER_IS_BETTER);

    /** Every metric a service sample carries, in the order they are shown. */
    public static final List<MetricDescriptor> METRICS = List.of(THROUGHPUT, P50, P90, P99, P999, MAX, ERRORS);

    private static MetricDescriptor latency(String name) {
        return new MetricDescriptor(name, "ms", MetricDescriptor.Direction.LOWER_IS_BETTER);
    }
}
