package dev.loommatrix.harness.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/** Start one thread of the given kind that does nothing, and join it: mass-start's unit cost. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StartJoinBenchmark {

    private static final Runnable EMPTY = () -> {};

    @Param({"virtual", "platform"})
    public String kind;

    private Thread.Builder builder;

    @Setup
    public void setUp() {
        builder = PingPongPair.builder(kind);
    }

    @Benchmark
    public Thread startJoin() throws InterruptedException {
        Thread thread = builder.start(EMPTY);
        thread.join();
        return thread;
    }
}
