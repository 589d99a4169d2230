package dev.loommatrix.harness;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * How a workload's tasks get their threads. The names are the contract's variant names
 * ({@code virtual}, {@code platform}, {@code pool:<T>}, {@code pool:cpus}).
 */
public sealed interface Variant {

    /** The variant's name as written in matrix.yaml. */
    String name();

    /** A new virtual thread per task. */
    record Virtual() implements Variant {
        @Override
        public String name() {
            return "virtual";
        }
    }

    /**
     * A workload-specific way of running (fib-fanout's {@code sequential}, {@code semaphore} …): the
     * workload interprets the name; {@link #newExecutor()} is not for these.
     */
    record Named(String name) implements Variant {}

    /** A new platform thread per task. */
    record Platform() implements Variant {
        @Override
        public String name() {
            return "platform";
        }
    }

    /**
     * A fixed pool of platform threads. {@code perCpu} means T = availableProcessors, resolved inside
     * the JVM under test so that the CPU limit decides it.
     */
    record Pool(int threads, boolean perCpu) implements Variant {
        public Pool {
            if (threads < 1) {
                throw new IllegalArgumentException("pool size must be at least 1, got " + threads);
            }
        }

        @Override
        public String name() {
            return perCpu ? "pool:cpus" : "pool:" + threads;
        }
    }

    static Variant parse(String text) {
        return switch (text) {
            case "virtual" -> new Virtual();
            case "platform" -> new Platform();
            case "pool:cpus" -> new Pool(Runtime.getRuntime().availableProcessors(), true);
            default -> {
                if (!text.startsWith("pool:")) {
                    if (text.matches("[a-z][a-z-]*")) {
                        yield new Named(text); // the workload decides whether it knows it
                    }
                    throw new IllegalArgumentException(
                            "unknown variant '" + text + "' (expected virtual, platform, pool:<T> or pool:cpus)");
                }
                String size = text.substring("pool:".length());
                try {
                    yield new Pool(Integer.parseInt(size), false);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("pool size in '" + text + "' is not a whole number", e);
                }
            }
        };
    }

    /** Threads that can run at once under this variant; unbounded kinds answer Integer.MAX_VALUE. */
    default int concurrency() {
        return this instanceof Pool pool ? pool.threads() : Integer.MAX_VALUE;
    }

    /** A builder of threads of this kind (virtual, or daemon platform threads); pools and named variants have none. */
    default Thread.Builder threadBuilder() {
        return switch (this) {
            case Virtual v -> Thread.ofVirtual();
            case Platform p -> Thread.ofPlatform().daemon();
            default -> throw new IllegalArgumentException("variant " + name() + " is not a kind of thread");
        };
    }

    /** An executor that runs each submitted task the way this variant says. */
    default ExecutorService newExecutor() {
        return switch (this) {
            case Virtual v -> Executors.newVirtualThreadPerTaskExecutor();
            case Platform p ->
                Executors.newThreadPerTaskExecutor(
                        PlatformThreads.tracking(Thread.ofPlatform().factory()));
            case Pool pool ->
                Executors.newFixedThreadPool(
                        pool.threads(), PlatformThreads.tracking(Executors.defaultThreadFactory()));
            case Named named -> throw new IllegalStateException("variant " + named.name() + " has no executor");
        };
    }
}
