import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A team's own program, as the A/B pipeline test uses it: rounds of 50 concurrent tasks that each wait, on
 * virtual threads or a pool ({@code -Dwork.virtual}); it reports the median round in Bencher Metric Format.
 * The test's candidate commit changes one constant below: a known slowdown of one kind of work.
 *
 * <p>Arguments: {@code parse|render ROUNDS}.
 */
public final class Work {

    /** How long one task of each kind waits, in ms. */
    static final int PARSE_MS = 10;

    static final int RENDER_MS = 10;

    public static void main(String[] args) throws Exception {
        String kind = args[0];
        int rounds = Integer.parseInt(args[1]);
        int waitMs = kind.equals("parse") ? PARSE_MS : RENDER_MS;
        boolean virtual = Boolean.getBoolean("work.virtual");
        double[] roundMs = new double[rounds];
        try (ExecutorService pool =
                virtual ? Executors.newVirtualThreadPerTaskExecutor() : Executors.newFixedThreadPool(50)) {
            for (int r = 0; r < rounds; r++) {
                long start = System.nanoTime();
                List<Future<?>> tasks = new ArrayList<>();
                for (int t = 0; t < 50; t++) {
                    tasks.add(pool.submit(() -> {
                        Thread.sleep(waitMs);
                        return null;
                    }));
                }
                for (Future<?> task : tasks) {
                    task.get();
                }
                roundMs[r] = (System.nanoTime() - start) / 1e6;
            }
        }
        Arrays.sort(roundMs);
        String file = System.getenv("LOOM_METRICS_FILE");
        if (file != null && !file.isBlank()) {
            Files.writeString(
                    Path.of(file),
                    String.format(Locale.ROOT, "{\"%s\": {\"roundMs\": {\"value\": %.4f}}}", kind, roundMs[rounds / 2]));
        }
    }
}
