package dev.loommatrix.runner.backend.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.sun.net.httpserver.HttpServer;
import dev.loommatrix.core.matrix.ServiceLoad;
import dev.loommatrix.runner.backend.local.LocalServiceHost;
import dev.loommatrix.runner.records.LatencyHistogram;
import dev.loommatrix.runner.records.LoadReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The open model's latency correction, checked against a server with a known stall (issue #28): it answers in
 * about a millisecond, but once, at a known request, stops for a second. At a constant rate R the requests due
 * during a stall of S seconds wait for its end: their latencies run from S down to 0, so of a D-second run's
 * R·D requests the slowest share q waited about S − q·D seconds. That is the expected value — worked out from the
 * rate and the stall, not taken from the tool. oha's uncorrected figures (latency from when the request was
 * actually sent, which a stalled connection delays) hide the stall from every percentile but the few requests
 * in flight when it began.
 */
class LatencyCorrectionIT {

    static final double RATE = 200;
    static final Duration RUN = Duration.ofSeconds(5);
    static final long STALL_MS = 1000;
    /** The stall starts at the 400th request: about 2 s into the run at 200/s. */
    static final long STALL_AT = 400;

    @Test
    void correctedPercentilesShowAKnownStallThatUncorrectedOnesHide(@TempDir Path dir) throws Exception {
        Path oha = Oha.binary().orElseThrow(() -> new AssertionError(Oha.missing()));
        double stall = STALL_MS / 1000.0;
        double seconds = RUN.toSeconds();
        LoadReport corrected = run(dir, oha, true);
        LoadReport uncorrected = run(dir, oha, false);

        // every request due during the stall waited for its end: the slowest 1 % and 10 % of R·D
        assertThat(corrected.latencyMs().get("99") / 1000).isCloseTo(stall - 0.01 * seconds, within(0.08));
        assertThat(corrected.latencyMs().get("90") / 1000).isCloseTo(stall - 0.10 * seconds, within(0.08));
        assertThat(corrected.latencyMs().get("100") / 1000).isCloseTo(stall, within(0.08));
        assertThat(corrected.latencyMs().get("50")).isLessThan(20.0);
        // the same stall, measured from when each request left: only the two in flight saw it
        assertThat(uncorrected.latencyMs().get("90")).isLessThan(20.0);
        assertThat(uncorrected.latencyMs().get("99")).isLessThan(100.0);
        // the rate was kept: oha sent what was due after the stall, so nothing fell short
        assertThat(corrected.achievedRate()).isCloseTo(RATE, within(RATE * 0.05));
        assertThat(corrected.invalid(ServiceLoad.DEFAULT_MAX_SHORTFALL)).isEmpty();
        assertThat(corrected.errorCount()).isZero();
    }

    /**
     * A load's {@code urlsFile} is oha's own {@code --urls-from-file} format, passed as it is: its URLs name a host
     * of the team's (here {@code orders.internal:9000}, which resolves nowhere), and {@code --connect-to} sends them
     * to the cell's server. The server sees every path of the file and nothing else.
     */
    @Test
    void aUrlsFileInOhasFormatReachesTheServerUnderItsOwnHostName(@TempDir Path dir) throws Exception {
        Path oha = Oha.binary().orElseThrow(() -> new AssertionError(Oha.missing()));
        Map<String, Integer> seen = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, Integer> hosts = new java.util.concurrent.ConcurrentHashMap<>();
        HttpServer server = HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            seen.merge(exchange.getRequestURI().toString(), 1, Integer::sum);
            hosts.merge(exchange.getRequestHeaders().getFirst("Host"), 1, Integer::sum);
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        Path urls = dir.resolve("orders.urls");
        java.nio.file.Files.writeString(
                urls, "http://orders.internal:9000/orders?id=1\n\nhttp://orders.internal:9000/orders/7/items\n");
        try (LocalServiceHost host = new LocalServiceHost(
                dir,
                ServicePlacement.unpinned(Runtime.getRuntime().availableProcessors()),
                Optional.empty(),
                oha,
                server.getAddress().getPort(),
                ProcessBuilder::start)) {
            ServiceLoad load = new ServiceLoad(
                    "GET",
                    List.of(),
                    Map.of(),
                    Optional.empty(),
                    new ServiceLoad.Closed(4),
                    Duration.ZERO,
                    Duration.ofSeconds(1),
                    Optional.empty(),
                    ServiceLoad.DEFAULT_MAX_SHORTFALL,
                    Optional.of(new ServiceLoad.UrlsFile(urls, "orders.internal:9000", 2)));
            String report = host.scratch() + "/r.json";
            List<String> args = Oha.arguments(
                    load,
                    0,
                    "http://" + host.serverAddress() + "/",
                    Optional.of(urls.toString()),
                    host.serverAddress(),
                    Duration.ofSeconds(1),
                    report,
                    Optional.empty(),
                    false);
            Oha.Output out = Oha.parse(host.generator(Oha.script(host.oha(), args, report), Duration.ofSeconds(30))
                    .orElseThrow());
            assertThat(out.exitCode()).as(out.stderr()).isZero();
            LoadReport measured =
                    LoadReport.of("users=4", Optional.empty(), out.report().orElseThrow(), out.cpuSeconds(), 2);
            assertThat(measured.errorCount()).isZero();
            assertThat(measured.throughput()).isGreaterThan(100);
            assertThat(seen.keySet()).containsExactlyInAnyOrder("/orders?id=1", "/orders/7/items");
            // one at random a request: both about half
            int total = seen.values().stream().mapToInt(Integer::intValue).sum();
            assertThat(seen.get("/orders?id=1") / (double) total).isBetween(0.35, 0.65);
            assertThat(hosts.keySet()).containsExactly("orders.internal:9000");
        } finally {
            server.stop(0);
        }
    }

    private static LoadReport run(Path dir, Path oha, boolean correct) throws Exception {
        HttpServer server = TestService.start("stall", 0, STALL_AT, STALL_MS);
        int port = server.getAddress().getPort();
        try (LocalServiceHost host = new LocalServiceHost(
                dir,
                ServicePlacement.unpinned(Runtime.getRuntime().availableProcessors()),
                Optional.empty(),
                oha,
                port,
                ProcessBuilder::start)) {
            ServiceLoad load = new ServiceLoad(
                    "GET",
                    List.of("/"),
                    Map.of(),
                    Optional.empty(),
                    new ServiceLoad.Open(List.of(RATE), 2),
                    Duration.ZERO,
                    RUN,
                    Optional.empty(),
                    ServiceLoad.DEFAULT_MAX_SHORTFALL);
            String report = host.scratch() + "/r.json";
            List<String> args = new ArrayList<>(Oha.arguments(
                    load,
                    0,
                    "http://" + host.serverAddress() + "/",
                    Optional.empty(),
                    host.serverAddress(),
                    RUN,
                    report,
                    Optional.of(host.keep() + "/r.db"),
                    false));
            assertThat(args).contains("--latency-correction");
            if (!correct) {
                args.remove("--latency-correction");
            }
            Oha.Output out = Oha.parse(host.generator(Oha.script(host.oha(), args, report), RUN.plusSeconds(30))
                    .orElseThrow());
            assertThat(out.exitCode()).as(out.stderr()).isZero();
            LoadReport ohas =
                    LoadReport.of("rate=200/s", Optional.of(RATE), out.report().orElseThrow(), out.cpuSeconds(), 2);
            Path db = dir.resolve("fetched.db");
            assertThat(host.fetch(host.keep() + "/r.db", db)).isTrue();
            LoadReport hdr = ohas.withHistogram(LatencyHistogram.read(db));
            // the HdrHistogram of every answered request agrees with oha's own percentiles (computed from the
            // same durations, sorted) up to a request's rank and the histogram's 3 significant digits: two
            // definitions of a percentile's rank (nearest rank, interpolated) can pick neighbouring requests, which
            // on the corrected run's stall (a ramp of 200 requests about 5 ms apart) lie 5 ms or more apart, and in
            // the uncorrected run's tail (a handful of requests) a whole request's latency apart
            assertThat(hdr.histogram()).isPresent();
            Histogram answered = LatencyHistogram.decoded(hdr.histogram().get());
            double oneRequest = 100.0 / answered.getTotalCount();
            for (String p : correct ? List.of("50", "90", "99", "100") : List.of("50", "100")) {
                double percentile = Double.parseDouble(p);
                double lowest = answered.getValueAtPercentile(Math.max(0, percentile - oneRequest)) / 1000.0;
                double highest = answered.getValueAtPercentile(Math.min(100, percentile + oneRequest)) / 1000.0;
                double digits = Math.max(0.001, highest * 0.001);
                assertThat(ohas.latencyMs().get(p))
                        .as(
                                "p%s: oha's against the histogram's requests ranked beside it, %.3f..%.3f ms",
                                p, lowest, highest)
                        .isBetween(lowest - digits, highest + digits);
            }
            assertThat(answered.getTotalCount()).isEqualTo(ohas.answered());
            return hdr;
        } finally {
            server.stop(0);
        }
    }
}
