package example.blocking;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ExecutionException;

/**
 * The same service as a plain program, the way a team's own load test looks: it serves rounds of
 * concurrent requests and reports how long each round took. The thread kind comes from the service's
 * configuration ({@code -Dblocking.threads=virtual|platform}), so loom-matrix variants switch it without
 * code changes. If {@code LOOM_METRICS_FILE} is set, the numbers are written there in Bencher Metric Format
 * ({@code {benchmark: {measure: {value, lower_value, upper_value}}}}).
 *
 * <p>Arguments: {@code [rounds] [requests per round]} (default 20 rounds of 100 requests).
 */
public final class LoadTest {

    private LoadTest() {}

    public static void main(String[] args) throws InterruptedException, ExecutionException, IOException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        int requests = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        String threads = System.getProperty("blocking.threads", "platform");
        double[] roundMs = new double[rounds];
        long start = System.nanoTime();
        try (BlockingService service =
                new BlockingService(BlockingService.executor(threads, 50), Duration.ofMillis(10))) {
            for (int r = 0; r < rounds; r++) {
                long t0 = System.nanoTime();
                service.handle(requests, 4);
                roundMs[r] = (System.nanoTime() - t0) / 1e6;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Arrays.sort(roundMs);
        double median = roundMs[rounds / 2];
        double requestsPerSecond = rounds * requests / seconds;
        System.out.printf(
                Locale.ROOT, "%s threads: %d rounds, median round %.1f ms, %.0f requests/s%n",
                threads, rounds, median, requestsPerSecond);

        String file = System.getenv("LOOM_METRICS_FILE");
        if (file != null && !file.isBlank()) {
            String json = String.format(
                    Locale.ROOT,
                    "{\"handle-%d-requests\": {"
                            + "\"roundMs\": {\"value\": %.3f, \"lower_value\": %.3f, \"upper_value\": %.3f},"
                            + " \"requestsPerSecond\": {\"value\": %.1f}}}",
                    requests, median, roundMs[0], roundMs[rounds - 1], requestsPerSecond);
            Files.writeString(Path.of(file), json);
        }
    }
}
