package dev.loommatrix.harness.workload;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import dev.loommatrix.harness.measure.Latencies;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Seed 002's Tomcat experiment without a framework: the JDK's {@code HttpServer} with the variant's
 * executor (a virtual thread per request, or a fixed pool like Tomcat's {@code threads.max}); the
 * handler sleeps S ms and answers "ok". U closed-loop users (virtual threads, HTTP/1.1 keep-alive,
 * no think time) send the next request as soon as the last answer arrived, for {@code durationS}
 * after a {@code warmupS} ramp. Only requests issued inside the measured window count.
 *
 * <p>The ceiling is Little's law: throughput ≤ min(U, T) / S. It is reported as
 * {@code throughputBoundPerSecond}, with {@code throughputEfficiency} = throughput / bound.
 */
public final class HttpServerLoad implements Workload {

    private static final byte[] BODY = "ok".getBytes(StandardCharsets.US_ASCII);

    @Override
    public String id() {
        return "http-server";
    }

    @Override
    public Map<String, Long> defaults() {
        return Map.of("users", 3_000L, "durationS", 30L, "sleepMs", 300L, "warmupS", 5L);
    }

    @Override
    public Set<String> variants() {
        return Set.of("virtual", "platform", "pool:*");
    }

    @Override
    public OptionalDouble lowerBoundMs(Variant variant, Params params) {
        return OptionalDouble.empty(); // a fixed-duration run; its bound is on throughput (see metrics)
    }

    static double throughputBound(Variant variant, long users, long sleepMs) {
        return Math.min(users, variant.concurrency()) * 1000.0 / sleepMs;
    }

    @Override
    public Outcome run(Variant variant, Params params) throws InterruptedException {
        int users = params.getInt("users");
        long sleepMs = params.get("sleepMs");
        long warmupNanos = TimeUnit.SECONDS.toNanos(params.get("warmupS"));
        long measureNanos = TimeUnit.SECONDS.toNanos(params.get("durationS"));
        // The JDK server closes keep-alive connections beyond 200 idle ones; with U users that would
        // measure reconnects. Read once when the server class initializes, so set it first.
        System.setProperty("sun.net.httpserver.maxIdleConnections", String.valueOf(Math.max(200, users)));
        Latencies latencies = new Latencies();
        AtomicLong completed = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicLong reconnects = new AtomicLong();
        AtomicLong handledOnVirtual = new AtomicLong();
        HttpServer server;
        ExecutorService handlers = variant.newExecutor();
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), users);
        } catch (IOException e) {
            throw new IllegalStateException("HTTP server could not start on loopback", e);
        }
        server.createContext("/get", exchange -> handle(exchange, sleepMs, handledOnVirtual));
        server.setExecutor(handlers);
        server.start();
        double wallMs;
        try {
            InetSocketAddress address = server.getAddress();
            long begin = System.nanoTime();
            long windowStart = begin + warmupNanos;
            long windowEnd = windowStart + measureNanos;
            try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int u = 0; u < users; u++) {
                    clients.execute(
                            () -> user(address, windowStart, windowEnd, latencies, completed, errors, reconnects));
                }
            }
            // Users stop issuing at windowEnd but finish the request in flight: the window is what counts.
            wallMs = measureNanos / 1e6;
        } finally {
            server.stop(0);
            handlers.shutdownNow();
        }
        double throughput = completed.get() / (wallMs / 1000.0);
        double bound = throughputBound(variant, users, sleepMs);
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("requests", completed.get());
        metrics.put("throughputPerSecond", throughput);
        metrics.put("throughputBoundPerSecond", bound);
        metrics.put("throughputEfficiency", throughput / bound);
        metrics.put("errors", errors.get());
        metrics.put("reconnects", reconnects.get());
        metrics.put("requestsHandledOnVirtualThreads", handledOnVirtual.get());
        metrics.putAll(latencies.toMetrics());
        return Outcome.of(wallMs, metrics);
    }

    private static void handle(HttpExchange exchange, long sleepMs, AtomicLong onVirtual) throws IOException {
        try (exchange) {
            if (Thread.currentThread().isVirtual()) {
                onVirtual.incrementAndGet();
            }
            exchange.getRequestBody().readAllBytes();
            try {
                Thread.sleep(sleepMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                exchange.sendResponseHeaders(503, -1);
                return;
            }
            exchange.sendResponseHeaders(200, BODY.length);
            try (OutputStream body = exchange.getResponseBody()) {
                body.write(BODY);
            }
        }
    }

    /** One closed-loop user: a keep-alive connection, the next request as soon as the last answer is read. */
    private static void user(
            InetSocketAddress address,
            long windowStart,
            long windowEnd,
            Latencies latencies,
            AtomicLong completed,
            AtomicLong errors,
            AtomicLong reconnects) {
        byte[] request = ("GET /get HTTP/1.1\r\nHost: " + address.getHostString() + ":" + address.getPort()
                        + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        Socket socket = null;
        InputStream in = null;
        try {
            while (System.nanoTime() < windowEnd) {
                try {
                    if (socket == null) {
                        socket = new Socket(address.getAddress(), address.getPort());
                        socket.setTcpNoDelay(true);
                        // Buffered: parsing byte by byte from the socket would cost a system call per byte.
                        in = new BufferedInputStream(socket.getInputStream(), 1024);
                    }
                    long issued = System.nanoTime();
                    socket.getOutputStream().write(request);
                    readResponse(in);
                    long answered = System.nanoTime();
                    if (issued >= windowStart && issued < windowEnd) {
                        latencies.recordNanos(answered - issued);
                        completed.incrementAndGet();
                    }
                } catch (EOFException e) {
                    // the server closed an idle keep-alive connection; open a new one
                    reconnects.incrementAndGet();
                    close(socket);
                    socket = null;
                } catch (IOException e) {
                    errors.incrementAndGet();
                    close(socket);
                    socket = null;
                    Thread.sleep(10); // don't spin on a refusing server
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            close(socket);
        }
    }

    /** Reads one HTTP/1.1 response with a Content-Length body; throws EOFException if the peer closed. */
    static void readResponse(InputStream in) throws IOException {
        String status = line(in);
        if (!status.startsWith("HTTP/1.1 200")) {
            throw new IOException("unexpected status: " + status);
        }
        long length = -1;
        String header;
        while (!(header = line(in)).isEmpty()) {
            int colon = header.indexOf(':');
            if (colon > 0 && header.substring(0, colon).trim().equalsIgnoreCase("content-length")) {
                length = Long.parseLong(header.substring(colon + 1).trim());
            }
        }
        if (length < 0) {
            throw new IOException("response without Content-Length");
        }
        in.skipNBytes(length); // EOFException if the peer closed early
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder(64);
        int c;
        while ((c = in.read()) != '\n') {
            if (c < 0) {
                throw new EOFException("connection closed");
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    private static void close(Socket socket) {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // nothing to do
            }
        }
    }
}
