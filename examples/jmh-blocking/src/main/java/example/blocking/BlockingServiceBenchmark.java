package example.blocking;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How long 100 concurrent requests of 4 blocking 10 ms calls take to serve. Two ways to choose the
 * threads, as real suites do: a JMH parameter ({@code threadType}), or the service's own configuration
 * read from a system property ({@code blocking.threads}, like Spring's
 * {@code spring.threads.virtual.enabled}), which loom-matrix variants set as JVM configurations.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class BlockingServiceBenchmark {

    static final Duration LATENCY = Duration.ofMillis(10);

    @Param({"50"})
    public int poolSize;

    @Param({"100"})
    public int requests;

    /**
     * The service whose threads the JVM's configuration chooses ({@code -Dblocking.threads}). Its own state, read in
     * its own setup, so that only {@link #threadsByConfiguration} reads the property: a property that a benchmark
     * never reads cannot switch it.
     */
    @State(Scope.Benchmark)
    public static class ByConfiguration {
        BlockingService service;

        @Setup(Level.Trial)
        public void start(BlockingServiceBenchmark benchmark) {
            service = new BlockingService(
                    BlockingService.executor(System.getProperty("blocking.threads", "platform"), benchmark.poolSize),
                    LATENCY);
        }

        @TearDown(Level.Trial)
        public void stop() {
            service.close();
        }
    }

    /**
     * The service whose threads a JMH parameter chooses. Its own state, so that {@code threadType} is a parameter
     * of {@link #threadsByParam} only: a benchmark that ignores it does not carry a value of it in its name.
     */
    @State(Scope.Benchmark)
    public static class ByParam {
        @Param({"VIRTUAL", "PLATFORM"})
        public String threadType;

        BlockingService service;

        @Setup(Level.Trial)
        public void start(BlockingServiceBenchmark benchmark) {
            service = new BlockingService(BlockingService.executor(threadType, benchmark.poolSize), LATENCY);
        }

        @TearDown(Level.Trial)
        public void stop() {
            service.close();
        }
    }

    /** The thread kind chosen by the {@code threadType} parameter. */
    @Benchmark
    public int threadsByParam(ByParam byParam) throws InterruptedException, ExecutionException {
        return byParam.service.handle(requests, 4);
    }

    /** The thread kind chosen by the JVM's configuration ({@code -Dblocking.threads=virtual|platform}). */
    @Benchmark
    public int threadsByConfiguration(ByConfiguration byConfiguration)
            throws InterruptedException, ExecutionException {
        return byConfiguration.service.handle(requests, 4);
    }
}
