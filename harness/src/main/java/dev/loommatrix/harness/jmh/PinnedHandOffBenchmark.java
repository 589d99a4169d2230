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
 * The pinning micro case: a SynchronousQueue round trip between a virtual thread that holds its own
 * monitor ({@code synchronized}) or ReentrantLock while it blocks, and a platform thread that answers.
 * Where a monitor pins (JDK 21–23), each hand-off parks the carrier in the OS; where it does not (24+)
 * the virtual thread unmounts, as it does under a ReentrantLock.
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
        pair = new PingPongPair(Thread.ofVirtual(), Thread.ofPlatform().daemon(), PingPongPair.Holding.of(holding));
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
