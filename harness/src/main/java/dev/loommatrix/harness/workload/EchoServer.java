package dev.loommatrix.harness.workload;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import dev.loommatrix.harness.measure.Latencies;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Seed 002's blocking echo server: thread-per-connection on loopback, in the JVM under test. The
 * variant decides the server's connection threads (a virtual thread each, a platform thread each, or
 * a fixed pool that serves connections in turn); the C clients always run on virtual threads, each
 * sending M messages of B bytes and reading every echo back before the next (one round trip = one
 * latency sample).
 *
 * <p>Loopback keeps working under {@code --network none}. Client and server share the cell's CPUs;
 * the numbers are the system's, not the server's alone.
 */
public final class EchoServer implements Workload {

    @Override
    public String id() {
        return "echo-server";
    }

    @Override
    public Map<String, Long> defaults() {
        return Map.of("connections", 10_000L, "messages", 10L, "bytes", 64L);
    }

    @Override
    public Set<String> variants() {
        return Set.of("virtual", "platform", "pool:*");
    }

    @Override
    public OptionalDouble lowerBoundMs(Variant variant, Params params) {
        return OptionalDouble.empty(); // CPU-bound on loopback; no physical floor worth stating
    }

    @Override
    public Outcome run(Variant variant, Params params) throws InterruptedException {
        int connections = params.getInt("connections");
        int messages = params.getInt("messages");
        int bytes = params.getInt("bytes");
        Latencies latencies = new Latencies();
        AtomicLong failures = new AtomicLong();
        AtomicReference<Throwable> firstFailure = new AtomicReference<>();
        AtomicLong serverOnVirtual = new AtomicLong();
        AtomicLong served = new AtomicLong();
        double wallMs;
        try (ServerSocket server = new ServerSocket(0, connections, InetAddress.getLoopbackAddress());
                ExecutorService handlers = variant.newExecutor()) {
            Thread acceptor = Thread.ofPlatform().name("echo-acceptor").start(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket socket = server.accept();
                        handlers.execute(() -> {
                            if (Thread.currentThread().isVirtual()) {
                                serverOnVirtual.incrementAndGet();
                            }
                            echo(socket, bytes);
                            served.incrementAndGet();
                        });
                    } catch (IOException e) {
                        return; // closed: the run is over
                    }
                }
            });
            InetSocketAddress address = (InetSocketAddress) server.getLocalSocketAddress();
            long start = System.nanoTime();
            try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int c = 0; c < connections; c++) {
                    clients.execute(() -> {
                        try {
                            client(address, messages, bytes, latencies);
                        } catch (IOException | RuntimeException e) {
                            failures.incrementAndGet();
                            firstFailure.compareAndSet(null, e);
                        }
                    });
                }
            }
            wallMs = (System.nanoTime() - start) / 1e6;
            server.close();
            acceptor.join();
        } catch (IOException e) {
            throw new IllegalStateException("echo server could not start on loopback", e);
        }
        if (failures.get() == connections) {
            throw new IllegalStateException("every client failed", firstFailure.get());
        }
        Map<String, Object> metrics = new LinkedHashMap<>();
        long roundTrips = latencies.count();
        metrics.put("roundTrips", roundTrips);
        metrics.put("roundTripsPerSecond", roundTrips / (wallMs / 1000.0));
        metrics.put("failedConnections", failures.get());
        if (firstFailure.get() != null) {
            metrics.put("firstFailure", String.valueOf(firstFailure.get()));
        }
        metrics.put("connectionsServedOnVirtualThreads", serverOnVirtual.get());
        metrics.putAll(latencies.toMetrics());
        return Outcome.of(wallMs, metrics);
    }

    private static void client(InetSocketAddress address, int messages, int bytes, Latencies latencies)
            throws IOException {
        byte[] out = new byte[bytes];
        byte[] in = new byte[bytes];
        try (Socket socket = new Socket()) {
            socket.setTcpNoDelay(true);
            socket.connect(address);
            OutputStream output = socket.getOutputStream();
            DataInputStream input = new DataInputStream(socket.getInputStream());
            for (int m = 0; m < messages; m++) {
                out[0] = (byte) m;
                long sent = System.nanoTime();
                output.write(out);
                output.flush();
                input.readFully(in);
                latencies.recordNanos(System.nanoTime() - sent);
                if (in[0] != out[0]) {
                    throw new IllegalStateException("echo returned another message");
                }
            }
        }
    }

    /** Echoes fixed-size messages until the client closes. */
    private static void echo(Socket socket, int bytes) {
        byte[] buffer = new byte[bytes];
        try (socket) {
            socket.setTcpNoDelay(true);
            InputStream input = socket.getInputStream();
            OutputStream output = socket.getOutputStream();
            while (true) {
                int filled = 0;
                while (filled < bytes) {
                    int read = input.read(buffer, filled, bytes - filled);
                    if (read < 0) {
                        return;
                    }
                    filled += read;
                }
                output.write(buffer);
                output.flush();
            }
        } catch (IOException e) {
            // the client went away; its own side records the failure
        }
    }
}
