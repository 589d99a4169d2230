package dev.loommatrix.core.matrix;

import dev.loommatrix.core.stats.MetricDescriptor;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The workload catalogue as the runner knows it (ids, parameter names and defaults, variants). The
 * harness has its own copy: the two talk through files, never shared classes, so the harness can run
 * on the oldest JDK of the matrix and stay tiny. A harness test checks the two agree.
 */
public final class Workloads {

    /** {@code pool:<T>} / {@code pool:cpus}: fixed pools of platform threads. */
    static final Pattern POOL = Pattern.compile("pool:(cpus|[1-9][0-9]*)");

    /** {@code tomcat:<T>}: a built-in service's Tomcat with at most T request threads. */
    public static final Pattern TOMCAT = Pattern.compile("tomcat:([1-9][0-9]{0,5})");

    /**
     * Built-in workloads that are services (issue #28): a real server started fresh per repetition and loaded by
     * the load generator, not a harness workload. The runner supplies the server (seed-services).
     */
    static final java.util.Set<String> SERVICES = java.util.Set.of("spring-boot", Workloads.SPRING_BOOT_CAPACITY);

    /** Seed 002's service under a capacity search (issue #52). */
    public static final String SPRING_BOOT_CAPACITY = "spring-boot-capacity";

    /**
     * The number that tells a workload's story better than its wall time (a fixed-duration load test's
     * wall time is its duration), named as the harness names it in each sample.
     */
    public record Headline(String metric, String unit) {}

    /**
     * @param baseline the variant every other one's speedup is taken over, where the workload's story is not
     *     virtual threads against platform threads (fib-fanout: sequential; pinning: reentrant-lock); empty:
     *     the speedups are those of {@code virtual} over each other variant
     * @param contrast the headline contrast its tiles, cell view, history, compare and Grafana show first
     */
    public record Definition(
            String id,
            Map<String, Long> defaults,
            List<String> variants,
            boolean pools,
            Optional<Headline> headline,
            Optional<String> baseline,
            Contrast contrast) {

        public boolean accepts(String variant) {
            return variants.contains(variant)
                    || (pools && POOL.matcher(variant).matches())
                    || (service() && TOMCAT.matcher(variant).matches());
        }

        public String describeVariants() {
            return String.join(", ", variants)
                    + (pools ? ", pool:<T>, pool:cpus" : "")
                    + (service() ? ", tomcat:<T>" : "");
        }

        /** A service under load rather than a harness workload (issue #28). */
        public boolean service() {
            return SERVICES.contains(id);
        }
    }

    private static final Map<String, Definition> CATALOGUE = new LinkedHashMap<>();

    /** Virtual threads against the best platform threads did in the cell: the default headline. */
    private static final Contrast VIRTUAL_OVER_FASTEST = Contrast.overFastestOther(
            "virtual",
            "virtual threads vs the fastest platform-thread variant of the cell (thread per task or a pool)");

    private static final Map<String, Contrast> CONTRASTS = Map.of(
            "fib-fanout",
            Contrast.over(
                    "caller-virtual",
                    "sequential",
                    "virtual threads for the callers (caller-virtual) vs making the calls one by one (sequential):"
                            + " the parallel speedup of CPU-bound work; every other variant over sequential is one"
                            + " choice away"),
            "pinning",
            Contrast.over(
                    "synchronized",
                    "reentrant-lock",
                    "the pinning penalty: virtual threads sleeping inside synchronized vs inside a ReentrantLock"
                            + " (JDK 21-23 pin the carrier there, JDK 24+ do not: JEP 491); below 1× the"
                            + " monitor costs"),
            "http-server",
            Contrast.againstBound(
                    "virtual",
                    "virtual threads' throughput against its Little's-law bound (users ÷ think time): how much"
                            + " of what the load allows a thread per request delivers"));

    private static final Contrast SPRING_BOOT = Contrast.overFastestOther(
            "virtual",
            "virtual threads vs the fastest other way the same Spring Boot service ran in the cell: a Tomcat pool or"
                    + " WebFlux on Netty (throughput under the same closed-model load)");

    private static final Contrast CAPACITY_CONTRAST = Contrast.overFastestOther(
            "virtual",
            "virtual threads vs the best other way the same Spring Boot service ran in the cell, a Tomcat pool or"
                    + " WebFlux on Netty: the requests/s each carries within the latency objective");

    private static final Map<String, String> BASELINES =
            Map.of("fib-fanout", "sequential", "pinning", "reentrant-lock");

    private static final Map<String, Headline> HEADLINES = Map.of(
            "echo-server",
            new Headline("roundTripsPerSecond", "round trips/s"),
            "http-server",
            new Headline("throughputPerSecond", "req/s"),
            "spring-boot",
            new Headline("throughputPerSecond", "req/s"),
            SPRING_BOOT_CAPACITY,
            new Headline("capacityPerSecond", "req/s"),
            "ping-pong",
            new Headline("nsPerRoundTrip", "ns/round trip"),
            "thread-local",
            new Headline("objectsBuilt", "objects built"),
            "footprint",
            new Headline("rssBytesPerThread", "B RSS/thread"));

    static {
        add(
                "mass-start",
                Map.of("threads", 1_000_000L, "jmhWarmupIterations", 2L, "jmhIterations", 3L, "jmhIterationMs", 500L),
                List.of("virtual", "platform"),
                false);
        add("sleep-bound", Map.of("tasks", 10_000L, "sleepMs", 300L), List.of("virtual", "platform"), true);
        add(
                "primes-io",
                Map.of("tasks", 10_000L, "sleepMs", 10L, "primeLimitMin", 1_000L, "primeLimitMax", 6_000L),
                List.of("virtual", "platform"),
                true);
        add(
                "fib-fanout",
                Map.of("n", 27L, "calls", 1_000L),
                List.of("sequential", "naive-virtual", "executor", "caller-virtual", "semaphore"),
                false);
        add(
                "pinning",
                Map.of(
                        "tasks",
                        16L,
                        "sleepMs",
                        100L,
                        "jmhWarmupIterations",
                        2L,
                        "jmhIterations",
                        3L,
                        "jmhIterationMs",
                        500L),
                List.of("synchronized", "reentrant-lock", "object-wait", "class-init"),
                false);
        add(
                "echo-server",
                Map.of("connections", 10_000L, "messages", 10L, "bytes", 64L),
                List.of("virtual", "platform"),
                true);
        add(
                "http-server",
                Map.of("users", 3_000L, "durationS", 30L, "sleepMs", 300L, "warmupS", 5L),
                List.of("virtual", "platform"),
                true);
        add(
                "ping-pong",
                Map.of(
                        "roundTrips", 100_000L,
                        "jmhWarmupIterations", 3L,
                        "jmhIterations", 5L,
                        "jmhIterationMs", 1_000L),
                List.of("virtual", "platform"),
                false);
        add("thread-local", Map.of("tasks", 100_000L), List.of("virtual", "platform"), true);
        add("footprint", Map.of("threads", 100_000L), List.of("virtual", "platform"), false);
        // seed 002's web service with the real Spring Boot: Tomcat's pool (tomcat:<T>), virtual threads, WebFlux
        add(
                "spring-boot",
                Map.of("users", 3_000L, "durationS", 30L, "sleepMs", 300L, "warmupS", 10L),
                List.of("virtual", "webflux"),
                false);
        // the same service's capacity (issue #52): the highest rate within p99 <= p99Ms, errors <= 0.1 %, searched
        // from `from` to `to` requests/s to precisionPercent, in windows of durationS after warmupS; as many
        // connections as the top of the range holds in flight within the objective (6,400/s × 1 s, Little's law) —
        // with 2,000, the generator's connections (2,000 ÷ 0.3 s = 6,667/s at best) capped WebFlux at 6,000/s
        // and Tomcat's pool of 800 before its own bound
        add(
                SPRING_BOOT_CAPACITY,
                Map.of(
                        "p99Ms", 1_000L,
                        "from", 100L,
                        "to", 6_400L,
                        "precisionPercent", 10L,
                        "connections", 6_400L,
                        "durationS", 10L,
                        "sleepMs", 300L,
                        "warmupS", 5L),
                List.of("virtual", "webflux"),
                false);
    }

    private Workloads() {}

    private static void add(String id, Map<String, Long> defaults, List<String> variants, boolean pools) {
        CATALOGUE.put(
                id,
                new Definition(
                        id,
                        defaults,
                        variants,
                        pools,
                        Optional.ofNullable(HEADLINES.get(id)),
                        Optional.ofNullable(BASELINES.get(id)),
                        switch (id) {
                            case "spring-boot" -> SPRING_BOOT;
                            case SPRING_BOOT_CAPACITY -> CAPACITY_CONTRAST;
                            default -> CONTRASTS.getOrDefault(id, VIRTUAL_OVER_FASTEST);
                        }));
    }

    /**
     * Workloads whose result is a one-shot memory delta: after a first iteration the heap is committed, so a
     * warm JVM hides most of what a parked virtual thread costs in resident memory. They run once per fork
     * unless their own entry asks for iterations; the matrix's or a profile's iterations do not apply.
     */
    private static final java.util.Set<String> MEASURED_ONCE = java.util.Set.of("footprint");

    public static boolean measuredOnce(String id) {
        return MEASURED_ONCE.contains(id);
    }

    public static Optional<Definition> find(String id) {
        return Optional.ofNullable(CATALOGUE.get(id));
    }

    /**
     * The metric a workload's variants are judged by in speedups, compare and trends: its own time,
     * except for a fixed-duration load test, whose wall time is its duration — there, throughput.
     * Recorded in every measurement, so readers never need this table.
     */
    public static MetricDescriptor judgedBy(String workload) {
        return workload.equals("http-server") ? MetricDescriptor.THROUGHPUT : MetricDescriptor.WALL_MS;
    }

    public static List<String> ids() {
        return List.copyOf(CATALOGUE.keySet());
    }
}
