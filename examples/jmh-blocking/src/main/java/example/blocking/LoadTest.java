package example.blocking;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;

/**
 * The same service as a plain program, the way a team's own load test looks: it serves rounds of
 * concurrent requests and reports how long each round took. The thread kind comes from the service's
 * configuration ({@code -Dblocking.threads=virtual|platform}), so loom-matrix variants switch it without
 * code changes. The first rounds warm the JVM up (its JIT compiles the request path meanwhile: they run
 * several times slower) and are not reported. If {@code LOOM_METRICS_FILE} is set, the numbers are written
 * there in Bencher Metric Format ({@code {benchmark: {measure: {value, lower_value, upper_value}}}}), the
 * measured rounds also as {@code iterations}, in the order they ran — a key Bencher's schema leaves open, so
 * the file stays valid BMF; loom-matrix's A/B uses them as the run's iterations.
 *
 * <p>Arguments: {@code [rounds] [requests per round] [warmup rounds]} (default 20 measured rounds of 100
 * requests after 5 warmup rounds).
 */
public final class LoadTest {

    private LoadTest() {}

    public static void main(String[] args) throws InterruptedException, ExecutionException, IOException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int requests = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        String threads = System.getProperty("blocking.threads", "platform");
        double[] roundMs = new double[rounds];
        long start = 0;
        try (BlockingService service =
                new BlockingService(BlockingService.executor(threads, 50), Duration.ofMillis(10))) {
            for (int r = -warmup; r < rounds; r++) {
                if (r == 0) {
                    start = System.nanoTime();
                }
                long t0 = System.nanoTime();
                service.handle(requests, 4);
                if (r >= 0) {
                    roundMs[r] = (System.nanoTime() - t0) / 1e6;
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        double[] sorted = roundMs.clone();
        Arrays.sort(sorted);
        double median = sorted[rounds / 2];
        double requestsPerSecond = rounds * requests / seconds;
        System.out.printf(
                Locale.ROOT, "%s threads: %d rounds (after %d warmup), median round %.1f ms, %.0f requests/s%n",
                threads, rounds, warmup, median, requestsPerSecond);

        String file = System.getenv("LOOM_METRICS_FILE");
        if (file != null && !file.isBlank()) {
            String json = String.format(
                    Locale.ROOT,
                    "{\"handle-%d-requests\": {"
                            + "\"roundMs\": {\"value\": %.3f, \"lower_value\": %.3f, \"upper_value\": %.3f,"
                            + " \"iterations\": %s}, \"requestsPerSecond\": {\"value\": %.1f}}}",
                    requests,
                    median,
                    sorted[0],
                    sorted[rounds - 1],
                    Arrays.stream(roundMs)
                            .mapToObj(ms -> String.format(Locale.ROOT, "%.3f", ms))
                            .collect(Collectors.joining(", ", "[", "]")),
                    requestsPerSecond);
            Files.writeString(Path.of(file), json);
        }
    }
}
