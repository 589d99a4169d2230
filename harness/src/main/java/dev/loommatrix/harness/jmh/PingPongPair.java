package dev.loommatrix.harness.jmh;

import java.util.concurrent.SynchronousQueue;

/**
 * Two threads of one kind (virtual or platform) bouncing a token through {@link SynchronousQueue}s:
 * a pinger sends, a ponger echoes. The caller hands the pinger a batch size and waits for the batch to
 * finish, so one caller hand-off is spread over a whole batch of round trips between the two threads
 * under test. Used by both the JMH benchmark and the ping-pong workload's own timed loop.
 */
public final class PingPongPair implements AutoCloseable {

    private static final Integer STOP = -1;

    private final SynchronousQueue<Integer> ping = new SynchronousQueue<>();
    private final SynchronousQueue<Integer> pong = new SynchronousQueue<>();
    private final SynchronousQueue<Integer> batches = new SynchronousQueue<>();
    private final SynchronousQueue<Long> results = new SynchronousQueue<>();
    private final Thread pinger;
    private final Thread ponger;
    private final Holding holding;
    private volatile boolean pingerVirtual;
    private volatile boolean pongerVirtual;

    /** What each side holds while it blocks on the queue: nothing, its own monitor, or its own lock. */
    public enum Holding {
        NOTHING,
        MONITOR,
        LOCK;

        public static Holding of(String name) {
            return switch (name) {
                case "synchronized" -> MONITOR;
                case "reentrant-lock" -> LOCK;
                default -> throw new IllegalArgumentException("nothing to hold called " + name);
            };
        }
    }

    public PingPongPair(Thread.Builder builder) {
        this(builder, Holding.NOTHING);
    }

    public PingPongPair(Thread.Builder builder, Holding holding) {
        this(builder, builder, holding);
    }

    /**
     * @param pingerHolding what the pinger holds while it blocks; the ponger holds nothing. Two
     *     virtual threads that both pin would deadlock on a scheduler with one carrier (JDK 21–23
     *     does not compensate for a pinned monitor), so the pinning micro case pairs a pinned virtual
     *     pinger with a platform ponger.
     */
    public PingPongPair(Thread.Builder pingerBuilder, Thread.Builder pongerBuilder, Holding pingerHolding) {
        this.holding = pingerHolding;
        ponger = pongerBuilder.start(this::echo);
        pinger = pingerBuilder.start(() -> holding(this::serveBatches));
    }

    /** Runs the pinger's whole loop holding its own monitor or lock, so every block happens under it. */
    private void holding(Runnable side) {
        switch (holding) {
            case NOTHING -> side.run();
            case MONITOR -> {
                Object monitor = new Object();
                synchronized (monitor) {
                    side.run();
                }
            }
            case LOCK -> {
                var lock = new java.util.concurrent.locks.ReentrantLock();
                lock.lock();
                try {
                    side.run();
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /** Runs {@code roundTrips} round trips between the pair; returns a checksum of what came back. */
    public long run(int roundTrips) throws InterruptedException {
        batches.put(roundTrips);
        return results.take();
    }

    /** Whether both threads really are virtual threads (checked from inside them). */
    public boolean bothVirtual() {
        return pingerVirtual && pongerVirtual;
    }

    public boolean neitherVirtual() {
        return !pingerVirtual && !pongerVirtual;
    }

    private void echo() {
        pongerVirtual = Thread.currentThread().isVirtual();
        try {
            while (true) {
                Integer token = ping.take();
                if (token.equals(STOP)) {
                    return;
                }
                pong.put(token);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void serveBatches() {
        pingerVirtual = Thread.currentThread().isVirtual();
        try {
            while (true) {
                int batch = batches.take();
                if (batch < 0) {
                    ping.put(STOP);
                    return;
                }
                long sum = 0;
                for (int i = 0; i < batch; i++) {
                    ping.put(i & 0xffff);
                    sum += pong.take();
                }
                results.put(sum);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws InterruptedException {
        batches.put(STOP);
        pinger.join();
        ponger.join();
    }

    /** Threads of a kind named as the variants name it ("virtual", "platform"). */
    public static Thread.Builder builder(String kind) {
        return dev.loommatrix.harness.Variant.parse(kind).threadBuilder();
    }
}
