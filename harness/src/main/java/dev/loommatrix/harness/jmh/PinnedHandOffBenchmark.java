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

/**
 * The pinning micro case: a SynchronousQueue round trip between two virtual threads that each hold
 * their own monitor ({@code synchronized}) or ReentrantLock while they block. Where a monitor pins
 * (JDK 21–23), each hand-off parks a carrier in the OS; where it does not (24+), it costs about what an
 * unpinned hand-off costs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PinnedHandOffBenchmark {

    @Param({"synchronized", "reentrant-lock"})
    public String holding;

    private PingPongPair pair;

    @Setup(Level.Trial)
    public void start() {
        pair = new PingPongPair(Thread.ofVirtual(), PingPongPair.Holding.of(holding));
    }

    @TearDown(Level.Trial)
    public void stop() throws InterruptedException {
        pair.close();
    }

    @Benchmark
    @OperationsPerInvocation(PingPongBenchmark.BATCH)
    public long roundTrip() throws InterruptedException {
        return pair.run(PingPongBenchmark.BATCH);
    }
}
