package dev.loommatrix.runner.records;

import dev.loommatrix.core.result.Profile;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * A JFR recording summarized into what explains a cell (issue #20): where virtual threads pinned their carriers,
 * what the collector and the allocator did, contention, parks and sleeps, and where the CPU went. Read with the
 * JDK's own {@link RecordingFile}, event by event (a recording can be large).
 */
public final class JfrSummary {

    /** How many frames a summary lists, most frequent first. */
    static final int TOP = 8;

    private JfrSummary() {}

    public static Profile.Jfr read(Path file) throws IOException {
        Summing summing = new Summing();
        try (RecordingFile recording = new RecordingFile(file)) {
            while (recording.hasMoreEvents()) {
                summing.add(recording.readEvent());
            }
        }
        return summing.summary();
    }

    /** The recording's events summed as they are read, one at a time. */
    private static final class Summing {
        final Tally pinned = new Tally();
        final Tally monitors = new Tally();
        final Tally cpu = new Tally();
        long submitFailed = 0;
        long gcPauses = 0;
        Duration gcPause = Duration.ZERO;
        Duration gcMax = Duration.ZERO;
        long allocated = 0;
        long parks = 0;
        long sleeps = 0;
        double jvmCpu = 0;
        double machineCpu = 0;
        long cpuLoads = 0;
        final List<RecordedEvent> loads = new java.util.ArrayList<>();
        Instant first = null;
        Instant last = null;

        void add(RecordedEvent e) {
            first = first == null || e.getStartTime().isBefore(first) ? e.getStartTime() : first;
            last = last == null || e.getEndTime().isAfter(last) ? e.getEndTime() : last;
            switch (e.getEventType().getName()) {
                case "jdk.VirtualThreadPinned" -> pinned.add(applicationFrame(e.getStackTrace()), e.getDuration());
                case "jdk.VirtualThreadSubmitFailed" -> submitFailed++;
                case "jdk.GarbageCollection" -> {
                    gcPauses++;
                    Duration sum = e.getDuration("sumOfPauses");
                    gcPause = gcPause.plus(sum);
                    Duration longest = e.getDuration("longestPause");
                    gcMax = longest.compareTo(gcMax) > 0 ? longest : gcMax;
                }
                case "jdk.ObjectAllocationSample" -> allocated += e.getLong("weight");
                case "jdk.JavaMonitorEnter" -> monitors.add(applicationFrame(e.getStackTrace()), e.getDuration());
                case "jdk.ThreadPark" -> parks++;
                case "jdk.ThreadSleep" -> sleeps++;
                case "jdk.ExecutionSample" -> {
                    // the profilers' own work (JFR's recorder, async-profiler's signal handler) is not the workload's:
                    // counted in a differential, it read as a cost of one variant (issue #54)
                    if (!profilerSample(e.getStackTrace())) {
                        cpu.add(topFrame(e.getStackTrace()), null);
                    }
                }
                case "jdk.CPULoad" -> {
                    jvmCpu += e.getFloat("jvmUser") + e.getFloat("jvmSystem");
                    machineCpu += e.getFloat("machineTotal");
                    cpuLoads++;
                    loads.add(e);
                }
                default -> {}
            }
        }

        Profile.Jfr summary() {
            double durationMs =
                    first == null ? 0 : Duration.between(first, last).toNanos() / 1e6;
            return new Profile.Jfr(
                    durationMs,
                    pinned.count,
                    pinned.total.toNanos() / 1e6,
                    pinned.top(true),
                    submitFailed,
                    gcPauses,
                    gcPause.toNanos() / 1e6,
                    gcMax.toNanos() / 1e6,
                    allocated,
                    durationMs > 0 ? allocated / (durationMs / 1000) : 0,
                    monitors.count,
                    monitors.total.toNanos() / 1e6,
                    monitors.top(true),
                    parks,
                    sleeps,
                    cpu.count,
                    cpu.top(false),
                    cpuLoads == 0 ? null : jvmCpu / cpuLoads,
                    cpuLoads == 0 ? null : machineCpu / cpuLoads,
                    series(loads, first));
        }
    }

    /** At most this many CPU load points a recording keeps (a long run's are thinned evenly). */
    static final int LOAD_POINTS = 120;

    /** CPU load over the recording, in time order, thinned to {@link #LOAD_POINTS}. */
    static List<Profile.Load> series(List<RecordedEvent> loads, Instant start) {
        if (start == null || loads.isEmpty()) {
            return List.of();
        }
        List<RecordedEvent> sorted = loads.stream()
                .sorted(Comparator.comparing(RecordedEvent::getStartTime))
                .toList();
        double step = Math.max(1, sorted.size() / (double) LOAD_POINTS);
        List<Profile.Load> out = new java.util.ArrayList<>();
        for (double i = 0; i < sorted.size(); i += step) {
            RecordedEvent e = sorted.get((int) i);
            out.add(new Profile.Load(
                    Duration.between(start, e.getStartTime()).toNanos() / 1e6,
                    e.getFloat("jvmUser") + e.getFloat("jvmSystem"),
                    e.getFloat("machineTotal")));
        }
        return out;
    }

    /** Events per frame, with their total duration where the events have one. */
    private static final class Tally {
        long count;
        Duration total = Duration.ZERO;
        final Map<String, long[]> frames = new HashMap<>();
        final Map<String, Duration> durations = new HashMap<>();

        void add(Optional<String> frame, Duration duration) {
            count++;
            if (duration != null) {
                total = total.plus(duration);
            }
            frame.ifPresent(f -> {
                frames.computeIfAbsent(f, k -> new long[1])[0]++;
                if (duration != null) {
                    durations.merge(f, duration, Duration::plus);
                }
            });
        }

        /**
         * The frames most first: by their events' total time where the events have one (a pin that held a carrier
         * for 50 ms matters more than a thousand hand-offs of a microsecond), else by count.
         */
        List<Profile.Frame> top(boolean timed) {
            Comparator<Map.Entry<String, long[]>> byCount = Comparator.comparingLong(x -> -x.getValue()[0]);
            Comparator<Map.Entry<String, long[]>> byTime = Comparator.comparing(
                    (Map.Entry<String, long[]> x) -> durations.getOrDefault(x.getKey(), Duration.ZERO),
                    Comparator.reverseOrder());
            return frames.entrySet().stream()
                    .sorted((timed ? byTime.thenComparing(byCount) : byCount).thenComparing(Map.Entry::getKey))
                    .limit(TOP)
                    .map(x -> new Profile.Frame(
                            x.getKey(),
                            x.getValue()[0],
                            timed
                                    ? durations
                                                    .getOrDefault(x.getKey(), Duration.ZERO)
                                                    .toNanos()
                                            / 1e6
                                    : null))
                    .toList();
        }
    }

    /** The method on top of a sampled stack: where that CPU sample was spent. */
    static Optional<String> topFrame(RecordedStackTrace stack) {
        if (stack == null || stack.getFrames().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(label(stack.getFrames().get(0)));
    }

    /**
     * The first frame outside the JDK: where the application pinned a carrier or waited for a monitor (the
     * frames above it are the JDK's parking and locking machinery, the same for every pin).
     */
    static Optional<String> applicationFrame(RecordedStackTrace stack) {
        if (stack == null) {
            return Optional.empty();
        }
        return stack.getFrames().stream()
                .filter(RecordedFrame::isJavaFrame)
                .filter(f -> !jdkClass(f.getMethod().getType().getName()))
                .findFirst()
                .or(() -> stack.getFrames().stream().findFirst())
                .map(JfrSummary::label);
    }

    /**
     * A frame outside Java code: the JDK's recorder says so, and async-profiler's native frames (the JVM's C++, the
     * C library) carry a library path or nothing where a class would be.
     */
    static boolean nativeFrame(RecordedFrame f) {
        String type =
                f.getMethod().getType() == null ? "" : f.getMethod().getType().getName();
        String method = f.getMethod().getName();
        return !f.isJavaFrame()
                || type.isEmpty()
                || type.contains("/")
                || type.matches(".*\\.so(\\.\\d+)*")
                || method.contains("::")
                || method.startsWith("/");
    }

    /** A CPU sample taken in a profiler's own code: JFR's, or async-profiler's (its Java API or its native code). */
    static boolean profilerSample(RecordedStackTrace stack) {
        return stack != null
                && stack.getFrames().stream()
                        .anyMatch(f -> profilerFrame(
                                f.getMethod().getType() == null
                                        ? ""
                                        : f.getMethod().getType().getName(),
                                f.getMethod().getName()));
    }

    /** async-profiler's C++ classes, as its native frames name them ("WallClock::signalHandler"). */
    private static final java.util.regex.Pattern ASYNC_PROFILER_NATIVE = java.util.regex.Pattern.compile(
            "^(Profiler|WallClock|CTimer|ITimer|PerfEvents|Engine|StackWalker|Recording|FlightRecorder|Lookup"
                    + "|Symbols|ThreadFilter|CallTraceStorage|LinearAllocator)::.*");

    /**
     * A frame of a profiler: a class of JFR ({@code jdk.jfr.}) or of async-profiler's API ({@code one.profiler.});
     * a native frame in async-profiler's library or one of its C++ classes (not those HotSpot shares a name with, such
     * as CodeCache); HotSpot's suspend handler ({@code SR_handler}, through which a sampler stops a thread) and its JFR
     * machinery ({@code Jfr…}).
     */
    public static boolean profilerFrame(String type, String method) {
        return type.startsWith("jdk.jfr.")
                || type.startsWith("one.profiler.")
                || type.contains("libasyncProfiler")
                || method.contains("libasyncProfiler")
                || method.equals("SR_handler")
                || method.startsWith("Jfr")
                || ASYNC_PROFILER_NATIVE.matcher(method).matches();
    }

    static boolean jdkClass(String name) {
        return name.startsWith("java.")
                || name.startsWith("jdk.")
                || name.startsWith("sun.")
                || name.startsWith("com.sun.");
    }

    static String label(RecordedFrame f) {
        String method = f.getMethod().getName();
        if (nativeFrame(f)) {
            // a native frame (async-profiler records them): its symbol, or the library where it has none
            return method.startsWith("/") ? "[" + method.substring(method.lastIndexOf('/') + 1) + "]" : method;
        }
        String type = f.getMethod().getType().getName();
        return type.substring(type.lastIndexOf('.') + 1) + "." + f.getMethod().getName()
                + (f.getLineNumber() > 0 ? ":" + f.getLineNumber() : "");
    }
}
