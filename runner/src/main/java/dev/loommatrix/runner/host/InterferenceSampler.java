package dev.loommatrix.runner.host;

import dev.loommatrix.core.result.Interference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Watches the host while one cell runs (issue #32): every {@code every}, the CPU time the whole host used ({@code
 * /proc/stat}) less the cell's own ({@link CellCpu}: its containers' cgroups, or its process groups and the
 * processes this runner reaped) and this runner's, as CPUs of other work; the hypervisor's steal; the kernel's CPU
 * pressure; the cell's throttling; and the CPUs' clock (the frequency during the cell). {@link #finish} makes the
 * record's {@link Interference}, flagged disturbed from {@link Interference#THRESHOLD_CPUS} CPUs of other work on
 * average. Where the host says nothing (no {@code /proc}: Windows, macOS) the record says so instead of a number.
 *
 * <p>The mean is the other work over the whole time watched — the host's CPU time less the cell's and the runner's,
 * summed over every interval, then divided by that time — not the mean of the samples, which cannot go below zero:
 * a cell's count that lags for one interval (a JVM reaped between two reads) and catches up in the next would
 * otherwise leave its lag behind as other work. An interval far shorter than the period (the last one, when the
 * cell ends) is left out: the host counts CPU time in clock ticks of 10 ms, so one tick over 5 ms on two CPUs reads
 * as two whole CPUs. A cell watched for less than one whole period is never flagged: too little to tell.
 */
public final class InterferenceSampler implements AutoCloseable {

    /** The CPUs' mean clock at each sample, MHz (issue #32: the frequency during the run). */
    private final List<Double> mhz = new ArrayList<>();

    private final CellCpu cell;
    private final HostCpu host;
    private final Duration every;
    private final long startNanos;
    private final List<Interference.Point> points = new ArrayList<>();
    private final Set<String> unavailable = new LinkedHashSet<>();
    private final Thread thread;
    private volatile boolean stopping;
    private Reading last;
    private double otherCpuSeconds;
    private double seconds;
    private double stealSeconds;
    private boolean stealSeen;
    private OptionalLong throttledFirst = OptionalLong.empty();
    private OptionalLong throttledLast = OptionalLong.empty();

    /** One look at the host and the cell: nanoseconds of CPU, cumulative since boot (host), or since whenever. */
    private record Reading(HostCpu.Counters host, OptionalLong cell) {}

    private InterferenceSampler(CellCpu cell, Duration every, HostCpu host, boolean sampling) {
        this.cell = cell;
        this.host = host;
        this.every = every;
        this.last = read();
        this.startNanos = last == null ? System.nanoTime() : last.host().at();
        this.thread = sampling
                ? Thread.ofPlatform().daemon().name("loom-matrix-interference").start(this::loop)
                : null;
    }

    public static InterferenceSampler start(CellCpu cell) {
        return start(cell, Duration.ofMillis(500));
    }

    static InterferenceSampler start(CellCpu cell, Duration every) {
        return new InterferenceSampler(cell, every, HostCpu.proc(), true);
    }

    /** A sampler that samples only when {@link #sample} is called, on the host's counters {@code host} gives. */
    static InterferenceSampler driven(CellCpu cell, Duration every, HostCpu host) {
        return new InterferenceSampler(cell, every, host, false);
    }

    private void loop() {
        while (!stopping) {
            try {
                Thread.sleep(every.toMillis());
            } catch (InterruptedException e) {
                return;
            }
            sample();
        }
    }

    /** One sample over the interval since the last one. */
    synchronized void sample() {
        sample(false);
    }

    private void sample(boolean last) {
        Reading now = read();
        if (this.last == null || now == null) {
            this.last = now;
            return;
        }
        Reading before = this.last;
        long nanos = now.host().at() - before.host().at();
        if (nanos * 2 < every.toNanos()) {
            // far shorter than the period: the host's clock ticks make its figure noise. Not the last one: the
            // next sample covers it; the last one (the cell has ended) is left out
            if (last) {
                this.last = now;
            }
            return;
        }
        double dt = nanos / 1e9;
        // an interval without the cell's own reading (its container gone, between two JVMs) says nothing of others
        if (now.cell().isPresent() && before.cell().isPresent()) {
            long cellUsed = now.cell().getAsLong() - before.cell().getAsLong();
            long other = now.host().busy()
                    - before.host().busy()
                    - cellUsed
                    - (now.host().self() - before.host().self());
            // the sum keeps its sign (see the class comment); a sample, a CPU count, cannot be below zero
            otherCpuSeconds += other / 1e9;
            seconds += dt;
            double otherCpus = Math.max(0, other / 1e9 / dt);
            Double steal = null;
            if (now.host().steal().isPresent() && before.host().steal().isPresent()) {
                steal = Math.max(
                        0,
                        (now.host().steal().getAsLong() - before.host().steal().getAsLong()) / 1e9 / dt);
                stealSeconds += steal * dt;
                stealSeen = true;
            }
            OptionalDouble pressure = host.pressure();
            if (pressure.isEmpty()) {
                unavailable.add("CPU pressure: this kernel has no /proc/pressure/cpu (PSI)");
            }
            host.mhz().ifPresent(mhz::add);
            points.add(new Interference.Point(
                    Math.round((now.host().at() - startNanos) / 1e6),
                    round(otherCpus),
                    steal == null ? null : round(steal),
                    pressure.isPresent() ? round(pressure.getAsDouble()) : null));
        }
        cell.throttledNanos().ifPresent(t -> {
            if (throttledFirst.isEmpty()) {
                throttledFirst = OptionalLong.of(t);
            }
            throttledLast = OptionalLong.of(t);
        });
        this.last = now;
    }

    private Reading read() {
        Optional<HostCpu.Counters> counters = host.read();
        if (counters.isEmpty()) {
            unavailable.add("the host's CPU use: no /proc/stat here (Linux only), so other work is not measured");
            return null;
        }
        if (counters.get().steal().isEmpty()) {
            unavailable.add("steal: /proc/stat has no steal column");
        }
        return new Reading(counters.get(), cell.nanos());
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /**
     * Stops watching and says what was seen; flagged when the other work over the time watched reached the threshold,
     * and the cell was watched for one whole period at least.
     */
    public synchronized Interference finish() {
        stopping = true;
        if (thread != null) {
            thread.interrupt();
        }
        sample(true);
        List<Interference.Point> series = fit(points);
        double mean = seconds > 0 ? round(Math.max(0, otherCpuSeconds / seconds)) : 0;
        double max =
                points.stream().mapToDouble(Interference.Point::otherCpus).max().orElse(0);
        Optional<Double> throttled = throttledFirst.isPresent()
                ? Optional.of(round((throttledLast.getAsLong() - throttledFirst.getAsLong()) / 1e6))
                : Optional.empty();
        boolean enough = seconds * 1e9 >= every.toNanos();
        Optional<String> disturbed = enough && mean >= Interference.THRESHOLD_CPUS
                ? Optional.of(String.format(
                        Locale.ROOT,
                        "measured beside %.2f CPUs of other work (mean over the cell, at most %.2f; flagged from %.2f)",
                        mean,
                        max,
                        Interference.THRESHOLD_CPUS))
                : Optional.empty();
        sayWhyOtherWorkIsUnknown(enough);
        return new Interference(
                "the host's /proc/stat against " + cell.source() + " and this runner's own CPU",
                (int) every.toMillis(),
                mean,
                round(max),
                Interference.THRESHOLD_CPUS,
                stealSeen && seconds > 0 ? Optional.of(round(stealSeconds / seconds)) : Optional.empty(),
                throttled,
                pressureMean(),
                frequency(),
                series,
                List.copyOf(unavailable),
                disturbed);
    }

    /** The mean CPU pressure over the samples that had one. */
    private Optional<Double> pressureMean() {
        return points.stream().anyMatch(p -> p.cpuPressure() != null)
                ? Optional.of(round(points.stream()
                        .filter(p -> p.cpuPressure() != null)
                        .mapToDouble(Interference.Point::cpuPressure)
                        .average()
                        .orElse(0)))
                : Optional.empty();
    }

    /** The CPUs' clock over the samples: mean (to 0.1 MHz), lowest, highest. */
    private Optional<Interference.Frequency> frequency() {
        if (mhz.isEmpty()) {
            return Optional.empty();
        }
        double mean = mhz.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        return Optional.of(new Interference.Frequency(
                Math.round(mean * 10) / 10.0,
                mhz.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
                mhz.stream().mapToDouble(Double::doubleValue).max().orElseThrow()));
    }

    /** Where no interval, or too little time, told the cell's own CPU use apart: said, not a number. */
    private void sayWhyOtherWorkIsUnknown(boolean enough) {
        if (seconds == 0 && unavailable.isEmpty()) {
            // (its first and last moments always are: before its container or JVM starts, after it is gone)
            unavailable.add("other work: no interval had the cell's own CPU use to tell it apart (" + cell.source()
                    + "), or the cell ended within one interval");
        } else if (seconds > 0 && !enough) {
            unavailable.add(String.format(
                    Locale.ROOT,
                    "other work: watched for %.2f s, less than one %d ms interval: too little to flag the cell",
                    seconds,
                    every.toMillis()));
        }
    }

    @Override
    public void close() {
        stopping = true;
        if (thread != null) {
            thread.interrupt();
        }
    }

    /** At most MAX_POINTS: neighbours averaged in pairs until they fit (the mean stays the mean). */
    public static List<Interference.Point> fit(List<Interference.Point> points) {
        List<Interference.Point> out = List.copyOf(points);
        while (out.size() > Interference.MAX_POINTS) {
            List<Interference.Point> halved = new ArrayList<>();
            for (int i = 0; i < out.size(); i += 2) {
                Interference.Point a = out.get(i);
                Interference.Point b = i + 1 < out.size() ? out.get(i + 1) : a;
                halved.add(new Interference.Point(
                        b.ms(),
                        round((a.otherCpus() + b.otherCpus()) / 2),
                        a.steal() == null || b.steal() == null ? null : round((a.steal() + b.steal()) / 2),
                        a.cpuPressure() == null || b.cpuPressure() == null
                                ? null
                                : round((a.cpuPressure() + b.cpuPressure()) / 2)));
            }
            out = halved;
        }
        return out;
    }
}
