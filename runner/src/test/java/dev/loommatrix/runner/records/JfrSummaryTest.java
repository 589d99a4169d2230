package dev.loommatrix.runner.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.Profile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real JFR recording, made in this JVM around code whose behaviour is known — virtual threads that block in a
 * class initializer (which pins their carrier on every JDK so far, JDK 25 included), a method that only burns
 * CPU, a collection, a sleep — and summarized as a cell's profiling run is.
 */
class JfrSummaryTest {

    /** Its static initializer sleeps: a virtual thread running it is pinned while it sleeps. */
    static final class SlowToInitialize {
        static final long READY;

        static {
            try {
                Thread.sleep(60);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            READY = System.nanoTime();
        }

        static long ready() {
            return READY;
        }
    }

    static volatile long sink;

    /** Nothing but arithmetic: every CPU sample taken while it runs has it on top. */
    static long spinFor(Duration duration) {
        long end = System.nanoTime() + duration.toNanos();
        long x = 1;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 10_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        return x;
    }

    @Test
    void summarizesWhatTheJvmDid(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("profile.jfr");
        try (Recording recording = new Recording()) {
            recording
                    .enable("jdk.VirtualThreadPinned")
                    .withThreshold(Duration.ZERO)
                    .withStackTrace();
            recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            recording.enable("jdk.GarbageCollection");
            recording.enable("jdk.ThreadSleep").withThreshold(Duration.ZERO);
            recording.enable("jdk.CPULoad").withPeriod(Duration.ofMillis(100));
            recording.start();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                threads.add(Thread.ofVirtual().start(() -> sink += SlowToInitialize.ready()));
            }
            for (Thread t : threads) {
                t.join();
            }
            sink += spinFor(Duration.ofMillis(600));
            System.gc();
            Thread.sleep(30);
            recording.stop();
            recording.dump(file);
        }

        Profile.Jfr summary = JfrSummary.read(file);

        assertThat(summary.pinnedEvents()).isPositive();
        assertThat(summary.pinnedFrames()).isNotEmpty();
        // the first frame outside the JDK: the initializer's sleep, and the callers waiting for it to finish
        // (three threads waiting 60 ms each pinned longer in all than the one initializing: listed first)
        assertThat(summary.pinnedFrames())
                .extracting(Profile.Frame::frame)
                .anySatisfy(f -> assertThat(f).startsWith("JfrSummaryTest$SlowToInitialize."))
                .anySatisfy(f -> assertThat(f).startsWith("JfrSummaryTest.lambda$"));
        assertThat(summary.pinnedFrames().get(0).totalMs())
                .isGreaterThanOrEqualTo(summary.pinnedFrames()
                        .get(summary.pinnedFrames().size() - 1)
                        .totalMs());
        assertThat(summary.pinnedMs()).isGreaterThan(40);
        assertThat(summary.cpuSamples()).isPositive();
        assertThat(summary.cpuFrames().get(0).frame()).startsWith("JfrSummaryTest.spinFor");
        assertThat(summary.cpuFrames().get(0).totalMs()).isNull();
        assertThat(summary.gcPauses()).isPositive();
        assertThat(summary.sleeps()).isPositive();
        assertThat(summary.durationMs()).isGreaterThan(600);
        assertThat(summary.jvmCpu()).isNotNull();
        // CPU load over time, in order: the spin kept one CPU busy for 600 ms
        assertThat(summary.cpuLoad()).hasSizeGreaterThanOrEqualTo(3);
        assertThat(summary.cpuLoad()).extracting(Profile.Load::ms).isSorted();
        assertThat(summary.cpuLoad()).anySatisfy(l -> assertThat(l.jvm()).isGreaterThan(0.2));
    }

    /**
     * Issue #54: a CPU sample in a profiler's own code is not the workload's — frames as JFR and async-profiler name
     * them (async-profiler's native frames: its library, its signal handler, its engines' C++ classes), beside frames
     * of the workload, the JDK and HotSpot that are not a profiler's.
     */
    @Test
    void aProfilersOwnFramesAreTheProfilersNotTheWorkloads() {
        assertThat(JfrSummary.profilerFrame("jdk.jfr.internal.PlatformRecorder", "periodicTask"))
                .isTrue();
        assertThat(JfrSummary.profilerFrame("one.profiler.AsyncProfiler", "execute0"))
                .isTrue();
        assertThat(JfrSummary.profilerFrame("", "SR_handler")).isTrue();
        assertThat(JfrSummary.profilerFrame("", "WallClock::signalHandler(int, siginfo_t*, void*)"))
                .isTrue();
        assertThat(JfrSummary.profilerFrame("", "Profiler::recordSample(void*, unsigned long long, int, Event*)"))
                .isTrue();
        assertThat(JfrSummary.profilerFrame("", "/tmp/libasyncProfiler.so")).isTrue();
        assertThat(JfrSummary.profilerFrame("", "JfrStackTraceRepository::record(Thread*, int, long)"))
                .isTrue();

        assertThat(JfrSummary.profilerFrame("dev.loommatrix.harness.FibFanout", "fib"))
                .isFalse();
        assertThat(JfrSummary.profilerFrame("java.lang.Thread", "sleep0")).isFalse();
        assertThat(JfrSummary.profilerFrame("", "os::javaTimeNanos()")).isFalse();
        assertThat(JfrSummary.profilerFrame("", "G1ParScanThreadState::trim_queue_partially()"))
                .isFalse();
        // a HotSpot class async-profiler also has: the JIT's and the GC's own samples stay the JVM's
        assertThat(JfrSummary.profilerFrame("", "CodeCache::find_blob(void*)")).isFalse();
    }
}
