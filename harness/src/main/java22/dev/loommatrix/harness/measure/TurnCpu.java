package dev.loommatrix.harness.measure;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The CPU where each turn of a fork in lockstep begins (issue #30), the same for both sides of a pair: before each
 * turn the fork's thread moves there, then gets back every CPU it may use, so the iteration starts on that CPU and
 * every thread it creates inherits the fork's whole CPU set, as without turns.
 *
 * <p>Why: on a shared 2-CPU runner each virtual CPU's speed wanders on its own (its physical core's other
 * hyperthread busy or not, for seconds at a time). A single-threaded iteration runs where the scheduler last put
 * its thread, and each side's thread stays on its own CPU: the pair's forks then differ by their CPUs' moods, which
 * turns cannot take out. Measured with {@code benchmarks/ab-lockstep/lockstep.py} (A/A pairs of fib-fanout
 * sequential, 16 pairs a way, 2026-11-27): a pair's spread 1.6–2.8 % with both forks on CPU 0, 6.8–9.5 % with one
 * on each CPU, 2.5–5.3 % left to the scheduler.
 *
 * <p>Linux's {@code sched_setaffinity} through the FFM API (JDK 22+, this class in the jar's
 * {@code META-INF/versions/22}); the jar's manifest enables native access for it. Elsewhere, none.
 */
final class TurnCpu {

    /** A cpu_set_t: 1024 CPUs. */
    private static final long MASK_BYTES = 128;

    private final int cpu;
    /** The thread's CPUs as they were: what it gets back after each move. */
    private final MemorySegment all;
    /** Only {@link #cpu}. */
    private final MemorySegment one;

    private TurnCpu(int cpu, MemorySegment all, MemorySegment one) {
        this.cpu = cpu;
        this.all = all;
        this.one = one;
    }

    /** Why turns cannot begin on one CPU here: not Linux, or its C library said no. */
    static String whyNot() {
        return System.getProperty("os.name").equals("Linux")
                ? "sched_setaffinity failed here"
                : "a thread's CPU is set only on Linux here";
    }

    /**
     * The CPU turns begin on: the lowest this thread may use (both sides of a pair get the same CPU set, so the
     * same CPU). Empty off Linux or when the C library refuses.
     */
    static Optional<TurnCpu> here() {
        if (!System.getProperty("os.name").equals("Linux")) {
            return Optional.empty();
        }
        try {
            Arena arena = Arena.ofAuto();
            MemorySegment all = arena.allocate(MASK_BYTES);
            if ((int) Affinity.GET.invokeExact(0, MASK_BYTES, all) != 0) {
                return Optional.empty();
            }
            int cpu = -1;
            for (int i = 0; i < MASK_BYTES * 8 && cpu < 0; i++) {
                if ((all.get(ValueLayout.JAVA_BYTE, i / 8) & (1 << (i % 8))) != 0) {
                    cpu = i;
                }
            }
            if (cpu < 0) {
                return Optional.empty();
            }
            MemorySegment one = arena.allocate(MASK_BYTES);
            one.set(ValueLayout.JAVA_BYTE, cpu / 8, (byte) (1 << (cpu % 8)));
            return Optional.of(new TurnCpu(cpu, all, one));
        } catch (Throwable e) {
            return Optional.empty();
        }
    }

    int cpu() {
        return cpu;
    }

    /**
     * Moves the calling thread to {@link #cpu} (the kernel migrates it before the call returns), then gives it back
     * its CPUs (a running thread stays where it is): true when it now runs on {@link #cpu}.
     */
    boolean move() {
        try {
            int moved = (int) Affinity.SET.invokeExact(0, MASK_BYTES, one);
            int back = (int) Affinity.SET.invokeExact(0, MASK_BYTES, all);
            return moved == 0 && back == 0 && runningOn() == cpu;
        } catch (Throwable e) {
            return false;
        }
    }

    /** The CPU the calling thread runs on: field 39 of /proc/thread-self/stat (after the command's parenthesis). */
    private static int runningOn() throws IOException {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[39 - 3]);
    }

    /** The C library's calls, looked up once; pid 0 is the calling thread. */
    private static final class Affinity {
        private static final Linker LINKER = Linker.nativeLinker();
        private static final FunctionDescriptor CALL = FunctionDescriptor.of(
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS);
        static final MethodHandle GET = LINKER.downcallHandle(
                LINKER.defaultLookup().find("sched_getaffinity").orElseThrow(), CALL);
        static final MethodHandle SET = LINKER.downcallHandle(
                LINKER.defaultLookup().find("sched_setaffinity").orElseThrow(), CALL);
    }
}
