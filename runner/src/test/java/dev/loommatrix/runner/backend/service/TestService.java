package dev.loommatrix.runner.backend.service;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * Services that misbehave on purpose, for the tests of service cells (renaissance's dummy benchmarks, for
 * services): {@code java -jar test-service.jar MODE PORT [N]}.
 * <ul>
 *   <li>{@code ok}: answers every request at once;
 *   <li>{@code stall N STALL_MS}: answers at once, but the N-th request stops the server for STALL_MS (one
 *       thread serves all, so every request waits behind it) — a known stall for the latency-correction check;
 *   <li>{@code never-ready}: prints what a real service would, and never listens;
 *   <li>{@code die-after N}: answers N requests, then the JVM dies (halt, exit code 3);
 *   <li>{@code pool T HANDLER_MS}: a pool of T threads, each request holding one for HANDLER_MS asleep — a known
 *       capacity of T ÷ HANDLER_MS requests a second (Little's law), for the capacity search;
 *   <li>{@code cpu CPU_MS}: every request spins CPU_MS of its thread's CPU time on a pool of 16 threads — a
 *       capacity of about CPUs ÷ CPU_MS;
 *   <li>{@code refuse}: accepts connections and closes each one without an answer.
 * </ul>
 * A build of the service may carry its own pool size ({@link #jar(Path, int)}), as a Spring Boot jar carries its
 * {@code application.properties}: two builds run with the same arguments and differ by their capacity, as the two
 * sides of an A/B do.
 */
public final class TestService {

    private TestService() {}

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int port = Integer.parseInt(args[1]);
        if (mode.equals("never-ready")) {
            System.out.println("TestService: waiting for a database that never answers");
            Thread.sleep(Long.MAX_VALUE);
        }
        long n = args.length > 2 ? Long.parseLong(args[2]) : 0;
        try (var built = TestService.class.getResourceAsStream("/" + POOL_RESOURCE)) {
            if (built != null && mode.equals("pool")) {
                n = Long.parseLong(new String(built.readAllBytes(), StandardCharsets.UTF_8).trim());
            }
        }
        start(mode, port, n, args.length > 3 ? Long.parseLong(args[3]) : 0);
        System.out.println("TestService: " + mode + " on port " + port);
    }

    /** Starts a server in this JVM (the latency-correction test runs it in-process). */
    public static HttpServer start(String mode, int port, long n, long stallMs) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(port), 512);
        AtomicLong served = new AtomicLong();
        server.createContext("/", exchange -> {
            long count = served.incrementAndGet();
            if (mode.equals("refuse")) {
                exchange.close(); // no status line: the client sees its connection closed
                return;
            }
            if (mode.equals("pool")) {
                sleep(stallMs);
            }
            if (mode.equals("cpu")) {
                spin(n);
            }
            if (mode.equals("stall") && count == n) {
                try {
                    Thread.sleep(stallMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (mode.equals("die-after") && count > n) {
                Runtime.getRuntime().halt(3);
            }
            byte[] body = "ok\n".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.setExecutor(
                switch (mode) {
                    case "pool" -> Executors.newFixedThreadPool((int) n);
                    case "cpu" -> Executors.newFixedThreadPool(16);
                    // one thread: a stall holds every request behind it, as a stop-the-world pause would
                    default -> Executors.newSingleThreadExecutor();
                });
        server.start();
        return server;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Uses {@code ms} of this thread's CPU time (not of the wall clock: a throttled thread spins on). */
    private static void spin(long ms) {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long until = threads.getCurrentThreadCpuTime() + ms * 1_000_000;
        long x = 0;
        while (threads.getCurrentThreadCpuTime() < until) {
            for (int i = 0; i < 1000; i++) {
                x += i * 31L ^ x;
            }
        }
        if (x == 42) {
            System.out.print(""); // keeps the loop from being optimized away
        }
    }

    /** A build's own pool size, in its jar: it overrides the pool mode's T. */
    private static final String POOL_RESOURCE = "test-service-pool.txt";

    /** This class as a runnable jar, for a service cell's {@code service.jar}. */
    public static Path jar(Path dir) throws IOException {
        return jar(dir, 0);
    }

    /**
     * A build of this service whose pool mode has {@code poolThreads} threads whatever its arguments say (0: as
     * they say), written to {@code dir/test-service.jar}.
     */
    public static Path jar(Path dir, int poolThreads) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, TestService.class.getName());
        Path jar = dir.resolve("test-service.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            for (Class<?> type : List.of(TestService.class)) {
                String name = type.getName().replace('.', '/') + ".class";
                out.putNextEntry(new JarEntry(name));
                try (var in = type.getClassLoader().getResourceAsStream(name)) {
                    in.transferTo(out);
                }
                out.closeEntry();
            }
            if (poolThreads > 0) {
                out.putNextEntry(new JarEntry(POOL_RESOURCE));
                out.write(String.valueOf(poolThreads).getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return jar;
    }
}
