package example.methods;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One batch of blocking calls on virtual threads, each call guarded by a lock of its own (no contention): by
 * {@code synchronized} in one method, by a {@link ReentrantLock} in the other. On JDK 21–23 a virtual thread that
 * blocks inside {@code synchronized} pins its carrier, so a batch of {@code tasks} takes about
 * ceil(tasks / carriers) × {@code sleepMs}; with the lock, or on JDK 24 and later (JEP 491), about {@code sleepMs}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class GuardedCallBenchmark {

    @Param("16")
    public int tasks;

    @Param("10")
    public int sleepMs;

    private ExecutorService executor;
    private Object[] monitors;
    private ReentrantLock[] locks;

    @Setup(Level.Trial)
    public void start() {
        executor = Executors.newVirtualThreadPerTaskExecutor();
        monitors = new Object[tasks];
        locks = new ReentrantLock[tasks];
        for (int i = 0; i < tasks; i++) {
            monitors[i] = new Object();
            locks[i] = new ReentrantLock();
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        executor.close();
    }

    @Benchmark
    public int synchronizedCall() throws Exception {
        List<Future<Integer>> calls = new ArrayList<>(tasks);
        for (int i = 0; i < tasks; i++) {
            Object monitor = monitors[i];
            int id = i;
            calls.add(executor.submit(() -> {
                synchronized (monitor) {
                    return call(id);
                }
            }));
        }
        return sum(calls);
    }

    @Benchmark
    public int reentrantLockCall() throws Exception {
        List<Future<Integer>> calls = new ArrayList<>(tasks);
        for (int i = 0; i < tasks; i++) {
            ReentrantLock lock = locks[i];
            int id = i;
            calls.add(executor.submit(() -> {
                lock.lock();
                try {
                    return call(id);
                } finally {
                    lock.unlock();
                }
            }));
        }
        return sum(calls);
    }

    /** The guarded work: a blocking downstream call. */
    private int call(int id) throws InterruptedException {
        Thread.sleep(sleepMs);
        return id;
    }

    private static int sum(List<Future<Integer>> calls) throws Exception {
        int total = 0;
        for (Future<Integer> call : calls) {
            total += call.get();
        }
        return total;
    }
}
