package dev.loommatrix.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Optional;

/**
 * What one variant's extra, untimed JVM run recorded to explain the cell (issue #20): a JFR summary, the file it
 * came from (kept with the cell's raw output), or why there is none — never zeros in place of a missing source.
 *
 * @param file the recording, relative to the cell's raw output directory
 */
public record Profile(
        String variant,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> file,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> unavailable,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Jfr> jfr,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Flame> flame,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> flameUnavailable) {

    public Profile {
        file = file == null ? Optional.empty() : file;
        unavailable = unavailable == null ? Optional.empty() : unavailable;
        jfr = jfr == null ? Optional.empty() : jfr;
        flame = flame == null ? Optional.empty() : flame;
        flameUnavailable = flameUnavailable == null ? Optional.empty() : flameUnavailable;
    }

    public Profile(String variant, Optional<String> file, Optional<String> unavailable, Optional<Jfr> jfr) {
        this(variant, file, unavailable, jfr, Optional.empty(), Optional.empty());
    }

    public static Profile missing(String variant, String why) {
        return new Profile(variant, Optional.empty(), Optional.of(why), Optional.empty());
    }

    /** This profile with its flame graphs, or why there are none. */
    public Profile withFlame(Optional<Flame> graphs, Optional<String> why) {
        return new Profile(variant, file, unavailable, jfr, graphs, why);
    }

    /** Every file of the profile in the cell's raw output: what publish copies for the cell view to offer. */
    public java.util.List<String> files() {
        java.util.List<String> out = new java.util.ArrayList<>();
        file.ifPresent(out::add);
        flame.ifPresent(f -> {
            out.add(f.cpu());
            out.add(f.wall());
        });
        return out;
    }

    /**
     * async-profiler's flame graphs of the profiling run (issue #20): self-contained HTML pages made by its own
     * converter, one of CPU samples and one of wall-clock samples.
     *
     * @param engine how CPU was sampled: {@code perf_events}, or {@code ctimer} (a per-thread timer, where the cell
     *     may not open perf events — the locked-down container here), as the recording states
     * @param cpuFrames the methods most often on top of a CPU sample
     */
    public record Flame(
            String engine, long cpuSamples, long wallSamples, String cpu, String wall, List<Frame> cpuFrames) {

        public Flame {
            cpuFrames = List.copyOf(cpuFrames);
        }
    }

    /** A stack frame and how often (and for how long) it was at the top of the events it summarizes. */
    public record Frame(String frame, long count, @JsonInclude(JsonInclude.Include.NON_NULL) Double totalMs) {}

    /** CPU load at {@code ms} after the recording started: the JVM's (user + system) and the machine's, 0 to 1. */
    public record Load(double ms, double jvm, double machine) {}

    /**
     * A JFR recording summarized: what the JVM did while the variant ran once more, untimed.
     *
     * @param durationMs the recording's length
     * @param pinnedEvents virtual threads that parked while pinned to their carrier (any duration), with
     *     {@code pinnedMs} their total and {@code pinnedFrames} the application frames they pinned at, the longest
     *     pinned first
     * @param submitFailed virtual threads the scheduler could not start or continue
     * @param gcPauses collections' pauses: count, total and longest
     * @param allocatedBytes sampled allocation (JFR's weights), and its rate over the recording
     * @param monitorEnters contended {@code synchronized} entries (JFR's threshold), with their total and frames (the
     *     longest waited first)
     * @param parks threads that parked (JFR's threshold), {@code sleeps} that slept
     * @param cpuSamples execution samples, with {@code cpuFrames} the methods most often on top of the stack:
     *     where the CPU went
     * @param jvmCpu the JVM's mean CPU load over the recording (user + system, of the machine's CPUs), and
     *     {@code machineCpu} the machine's
     * @param cpuLoad the same over time: JFR's CPU load samples (every 100 ms), at most 120, each at its offset
     *     from the recording's start — carriers busy or starved, the run's shape
     */
    public record Jfr(
            double durationMs,
            long pinnedEvents,
            double pinnedMs,
            List<Frame> pinnedFrames,
            long submitFailed,
            long gcPauses,
            double gcPauseMs,
            double gcMaxPauseMs,
            long allocatedBytes,
            double allocationBytesPerSecond,
            long monitorEnters,
            double monitorEnterMs,
            List<Frame> monitorFrames,
            long parks,
            long sleeps,
            long cpuSamples,
            List<Frame> cpuFrames,
            @JsonInclude(JsonInclude.Include.NON_NULL) Double jvmCpu,
            @JsonInclude(JsonInclude.Include.NON_NULL) Double machineCpu,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Load> cpuLoad) {

        public Jfr {
            cpuLoad = cpuLoad == null ? List.of() : List.copyOf(cpuLoad);
            pinnedFrames = List.copyOf(pinnedFrames);
            monitorFrames = List.copyOf(monitorFrames);
            cpuFrames = List.copyOf(cpuFrames);
        }
    }
}
