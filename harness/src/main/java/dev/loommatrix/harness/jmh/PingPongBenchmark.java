package dev.loommatrix.harness.jmh;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/** One SynchronousQueue round trip between two threads of the given kind, in nanoseconds. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PingPongBenchmark {

    /** Round trips per benchmark invocation: the caller's hand-off to the pair is spread over them. */
    public static final int BATCH = 1000;

    @Param({"virtual", "platform"})
    public String kind;

    private PingPongPair pair;

    @Setup(Level.Trial)
    public void start() {
        pair = new PingPongPair(PingPongPair.builder(kind));
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        pair.close();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long roundTrip() throws InterruptedException {
        return pair.run(BATCH);
    }
}
