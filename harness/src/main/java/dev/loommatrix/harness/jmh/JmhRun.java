package dev.loommatrix.harness.jmh;

import com.fasterxml.jackson.jr.ob.JSON;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs one JMH benchmark method inside this JVM, after the workload's timed section, and returns its
 * score with JMH's own JSON.
 *
 * <p>Unforked on purpose: the runner already starts a fresh JVM for every repetition (what JMH's forks
 * are for), and the cell's JVM flags, scheduler properties and container limits then apply exactly as
 * they do to the workload. Each repetition's JMH result is one fork's worth; the runner's repetitions
 * are the forks.
 */
public final class JmhRun {

    /** How long JMH runs: warmup and measured iterations of {@code iterationMs} each. */
    public record Settings(int warmupIterations, int iterations, long iterationMs) {}

    private JmhRun() {}

    /**
     * {@code <prefix>} (the score), {@code <prefix>Error99_9}, {@code jmhUnit} and {@code jmh} (JMH's
     * JSON, kept whole).
     */
    public static Map<String, Object> run(
            Class<?> benchmark, String method, Map<String, String> params, Settings settings, String prefix) {
        // JMH takes a lock file in java.io.tmpdir against concurrent runs; each cell is alone in its
        // JVM and host runs are sequential, so a stale lock must not fail a cell.
        System.setProperty("jmh.ignoreLock", "true");
        Path json = null;
        try {
            json = Files.createTempFile("loom-matrix-jmh", ".json");
            ChainedOptionsBuilder options = new OptionsBuilder()
                    .include(benchmark.getName() + "." + method + "$")
                    .forks(0)
                    .warmupIterations(settings.warmupIterations())
                    .warmupTime(TimeValue.milliseconds(settings.iterationMs()))
                    .measurementIterations(settings.iterations())
                    .measurementTime(TimeValue.milliseconds(settings.iterationMs()))
                    .timeUnit(TimeUnit.NANOSECONDS)
                    .verbosity(VerboseMode.SILENT)
                    .resultFormat(ResultFormatType.JSON)
                    .result(json.toString());
            params.forEach(options::param);
            Collection<RunResult> results = new Runner(options.build()).run();
            Map<String, Object> metrics = new LinkedHashMap<>();
            for (RunResult run : results) {
                Result<?> primary = run.getPrimaryResult();
                metrics.put(prefix, primary.getScore());
                metrics.put(prefix + "Error99_9", primary.getScoreError());
                metrics.put("jmhUnit", primary.getScoreUnit());
            }
            metrics.put("jmh", JSON.std.anyFrom(Files.readString(json)));
            return metrics;
        } catch (RunnerException | IOException e) {
            throw new IllegalStateException("JMH run of " + benchmark.getSimpleName() + " failed", e);
        } finally {
            if (json != null) {
                try {
                    Files.deleteIfExists(json);
                } catch (IOException ignored) {
                    // scratch space
                }
            }
        }
    }
}
