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
 *   <li>{@code die-after N}: answers N requests, then the JVM dies (halt, exit code 3).
 * </ul>
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
        start(mode, port, args.length > 2 ? Long.parseLong(args[2]) : 0, args.length > 3 ? Long.parseLong(args[3]) : 0);
        System.out.println("TestService: " + mode + " on port " + port);
    }

    /** Starts a server in this JVM (the latency-correction test runs it in-process). */
    public static HttpServer start(String mode, int port, long n, long stallMs) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(port), 512);
        AtomicLong served = new AtomicLong();
        server.createContext("/", exchange -> {
            long count = served.incrementAndGet();
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
        // one thread: a stall holds every request behind it, as a stop-the-world pause would
        server.setExecutor(Executors.newSingleThreadExecutor());
        server.start();
        return server;
    }

    /** This class as a runnable jar, for a service cell's {@code service.jar}. */
    public static Path jar(Path dir) throws IOException {
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
        }
        return jar;
    }
}
