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

    /** The same load with another model: a capacity window measured again as an open-model one. */
    public ServiceLoad withModel(Model other) {
        return new ServiceLoad(
                method, paths, headers, body, other, warmup, duration, requestTimeout, maxShortfall, urlsFile);
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

        /** The most load windows (each a warmup and a measured window) one repetition runs: its cost. */
        default int windows() {
            return levels().size();
        }
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

    /**
     * A capacity search (issue #52): the highest rate at which the service still meets its objective, found with
     * open-model windows at rising rates — doubling from {@code from}, then bisection between the last passing and
     * the first failing rate until they are within {@code precision} — and checked by a validation window at the
     * found rate on a fresh server JVM.
     *
     * @param from the first rate tried, requests/s
     * @param to the highest rate tried: a service that meets the objective there carries at least this (a lower
     *     bound)
     * @param precision the search ends when the first failing rate is at most this share above the last passing one
     * @param connections at most this many requests in flight (the generator's connections)
     */
    public record Capacity(Objective objective, double from, double to, double precision, int connections)
            implements Model {

        public static final double DEFAULT_PRECISION = 0.10;

        /**
         * The built-in {@code spring-boot-capacity} search from its params: p99 within {@code p99Ms} and 0.1 % errors,
         * from {@code from} to {@code to} requests/s to {@code precisionPercent}, at most {@code connections} in flight.
         */
        public static Capacity ofBuiltIn(Map<String, Long> p) {
            return new Capacity(
                    new Objective(Map.of("99", p.get("p99Ms").doubleValue()), Objective.DEFAULT_ERROR_SHARE),
                    p.get("from"),
                    p.get("to"),
                    p.get("precisionPercent") / 100.0,
                    Math.toIntExact(p.get("connections")));
        }

        /** The one measured "level" of a search: its objective, as the results name it. */
        @Override
        public List<String> levels() {
            return List.of("capacity at " + objective.words());
        }

        /** Doubling from {@code from} to {@code to}, bisecting a doubling down to the precision, one validation. */
        @Override
        public int windows() {
            return doublings() + 1 + bisections() + 1;
        }

        /**
         * The most windows measured twice: those that fail with every connection busy are measured again over enough to
         * judge them ({@link #connectionsToJudge}) — the first failing doubling and every bisection.
         */
        public int retries() {
            return 1 + bisections();
        }

        /** How many times the rate can double from {@code from} before it reaches {@code to}. */
        public int doublings() {
            return (int) Math.ceil(Math.log(to / from) / Math.log(2) - 1e-9);
        }

        /** The most bisection windows between a passing rate and one at most twice as high. */
        public int bisections() {
            return (int) Math.ceil(Math.log(1 / precision) / Math.log(2) - 1e-9);
        }

        /**
         * The connections a window at {@code rate} opens first (at most {@code connections}): the rate times half
         * the objective's highest latency bound — as many requests as can be in flight when they take half the bound
         * on average. Enough for a service within the objective with room to spare, and few: more connections than
         * requests in flight cost the server and the generator, and decided the window. Seed 002's Spring Boot on
         * 1 CPU (a 300 ms handler, p99 ≤ 1 s) carried 2,400–2,800 requests/s with Tomcat's pool of 800 over 2,000
         * connections, and failed at 1,900–2,000/s over rate × 1.5 s of them (3,000 at 2,000/s: p50 3 s, the server's
         * CPU at a third), as did virtual threads at 1,800/s. A window that failed with every one of these busy is
         * measured again with {@link #connectionsToJudge}.
         */
        public int connectionsAt(double rate) {
            return connectionsFor(rate, 0.5);
        }

        /**
         * The connections that judge a window at {@code rate} whatever the service's latency within the objective
         * (at most {@code connections}): the rate times the highest bound, and half again for the moments above the
         * mean. By Little's law a window that needs more has requests slower on average than the bound, so it fails
         * the objective anyway.
         */
        public int connectionsToJudge(double rate) {
            return connectionsFor(rate, 1.5);
        }

        private int connectionsFor(double rate, double bounds) {
            java.util.OptionalDouble bound = objective.latencyMs().values().stream()
                    .mapToDouble(Double::doubleValue)
                    .max();
            if (bound.isEmpty()) {
                return connections;
            }
            double needed = Math.ceil(rate * bound.getAsDouble() / 1000 * bounds);
            return (int) Math.max(1, Math.min(connections, needed));
        }

        /**
         * How much of a measured window at {@code rate} over {@code open} connections goes uncounted while the
         * generator opens them: it sends each request on its next idle connection, so it opens a new one with every
         * request until it has them all, {@code open ÷ rate} seconds — at most the warmup's length. A burst of new
         * connections is work the server does not do for clients that keep theirs.
         */
        public static java.time.Duration opening(double rate, int open, java.time.Duration warmup) {
            long nanos = Math.round(open / rate * 1e9);
            return nanos < warmup.toNanos() ? java.time.Duration.ofNanos(nanos) : warmup;
        }

        /** The same for the connections a window opens first. */
        public java.time.Duration opening(double rate, java.time.Duration warmup) {
            return opening(rate, connectionsAt(rate), warmup);
        }
    }

    /**
     * A latency and error objective (a service-level objective): the request percentiles' upper bounds and the
     * largest share of failed requests a window may have and still pass.
     *
     * @param latencyMs bounds by percentile, keyed as the load reports key percentiles ({@code "99"}, {@code
     *     "99.9"}, {@code "100"} for the slowest request), in ms
     * @param errorShare the largest share of requests that may fail (connection errors, timeouts, statuses ≥ 400)
     */
    public record Objective(Map<String, Double> latencyMs, double errorShare) {

        /** The error share an objective allows when it names none: 0.1 %. */
        public static final double DEFAULT_ERROR_SHARE = 0.001;

        public Objective {
            // by percentile, so that the words and the broken bounds read p50, p99, p99.9, max however declared
            Map<String, Double> ordered =
                    new java.util.TreeMap<>(java.util.Comparator.comparingDouble(Double::parseDouble));
            ordered.putAll(latencyMs);
            latencyMs = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(ordered));
        }

        /** "p99 ≤ 500 ms, errors ≤ 0.1 %". */
        public String words() {
            List<String> parts = new java.util.ArrayList<>();
            latencyMs.forEach((p, ms) -> parts.add(percentile(p) + " ≤ " + millis(ms)));
            parts.add("errors ≤ " + share(errorShare));
            return String.join(", ", parts);
        }

        /**
         * Why a window did not meet the objective, if it did not: each bound it broke with the measured value
         * ("p99 812 ms > 500 ms"); empty when it met every bound.
         */
        public Optional<String> unmet(Map<String, Double> measuredMs, long requests, long errors) {
            List<String> broken = new java.util.ArrayList<>();
            if (requests == 0) {
                return Optional.of("no request was answered");
            }
            double failed = (double) errors / requests;
            if (failed > errorShare) {
                broken.add("errors " + share(failed) + " > " + share(errorShare));
            }
            List<String> unmeasured = new java.util.ArrayList<>();
            latencyMs.forEach((p, bound) -> {
                Double measured = measuredMs.get(p);
                if (measured == null) {
                    unmeasured.add(percentile(p) + " not measured");
                } else if (measured > bound) {
                    broken.add(percentile(p) + " " + millis(measured) + " > " + millis(bound));
                }
            });
            if (broken.isEmpty()) {
                broken.addAll(unmeasured); // worth saying only when nothing measured broke a bound
            }
            return broken.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", broken));
        }

        /** {@code 99} as "p99", {@code 100} as "max". */
        public static String percentile(String key) {
            return key.equals("100") ? "max" : "p" + key;
        }

        public static String millis(double ms) {
            return ms >= 1000 ? compact(ms / 1000) + " s" : compact(ms) + " ms";
        }

        static String share(double share) {
            return compact(share * 100) + " %";
        }

        /** Three significant digits at most, no trailing zeros: 0.11, 812, 1.5. */
        private static String compact(double x) {
            return java.math.BigDecimal.valueOf(x)
                    .round(new java.math.MathContext(3))
                    .stripTrailingZeros()
                    .toPlainString();
        }
    }

    /**
     * What a service's measurements are judged by: closed-model throughput, open-model p99 latency, a capacity
     * search's capacity.
     */
    public MetricDescriptor judgedBy() {
        return switch (model) {
            case Closed c -> THROUGHPUT;
            case Open o -> P99;
            case Capacity c -> CAPACITY;
        };
    }

    public static final MetricDescriptor THROUGHPUT = MetricDescriptor.THROUGHPUT;
    public static final MetricDescriptor P50 = latency("latencyP50Ms");
    public static final MetricDescriptor P90 = latency("latencyP90Ms");
    public static final MetricDescriptor P99 = latency("latencyP99Ms");
    public static final MetricDescriptor P999 = latency("latencyP999Ms");
    public static final MetricDescriptor MAX = latency("latencyMaxMs");
    /** A capacity search's finding: the highest rate that met the objective. */
    public static final MetricDescriptor CAPACITY =
            new MetricDescriptor("capacityPerSecond", "req/s", MetricDescriptor.Direction.HIGHER_IS_BETTER);

    public static final MetricDescriptor ERRORS =
            new MetricDescriptor("errors", "requests", MetricDescriptor.Direction.LOWER_IS_BETTER);

    /** Every metric a service sample carries, in the order they are shown. */
    public static final List<MetricDescriptor> METRICS = List.of(THROUGHPUT, P50, P90, P99, P999, MAX, ERRORS);

    private static MetricDescriptor latency(String name) {
        return new MetricDescriptor(name, "ms", MetricDescriptor.Direction.LOWER_IS_BETTER);
    }
}
