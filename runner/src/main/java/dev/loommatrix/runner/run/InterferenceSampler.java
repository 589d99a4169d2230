package dev.loommatrix.runner.run;

import dev.loommatrix.core.result.Interference;
import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.ProcStat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * /proc/stat}) less the cell's own ({@link Backend.CellCpu}: its container's cgroup, or its process group and the
 * JVMs this runner reaped) and this runner's, as CPUs of other work; the hypervisor's steal; the kernel's CPU
 * pressure; the cell's throttling; and the CPUs' clock (the frequency during the cell). {@link #finish} makes the
 * record's {@link Interference}, flagged disturbed from {@link Interference#THRESHOLD_CPUS} CPUs of other work on
 * average. Where the host says nothing (no
 * {@code /proc}: Windows, macOS) the record says so instead of a number.
 */
public final class InterferenceSampler implements AutoCloseable {

    private static final Path STAT = Path.of("/proc/stat");
    private static final Path SELF = Path.of("/proc/self");
    private static final Path PRESSURE = Path.of("/proc/pressure/cpu");
    private static final Path CPUINFO = Path.of("/proc/cpuinfo");
    /** The CPUs' mean clock at each sample, MHz (issue #32: the frequency during the run). */
    private final List<Double> mhz = new ArrayList<>();

    private final Backend.CellCpu cell;
    private final Duration every;
    private final long startNanos = System.nanoTime();
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

    /** One look at the host: nanoseconds of CPU, cumulative since boot (host, steal), or since whenever (the rest). */
    private record Reading(long at, long hostBusy, OptionalLong steal, OptionalLong cell, long self) {}

    private InterferenceSampler(Backend.CellCpu cell, Duration every) {
        this.cell = cell;
        this.every = every;
        this.last = read();
        this.thread =
                Thread.ofPlatform().daemon().name("loom-matrix-interference").start(this::loop);
    }

    public static InterferenceSampler start(Backend.CellCpu cell) {
        return start(cell, Duration.ofMillis(500));
    }

    static InterferenceSampler start(Backend.CellCpu cell, Duration every) {
        return new InterferenceSampler(cell, every);
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

    private synchronized void sample() {
        Reading now = read();
        if (last == null || now == null) {
            last = now;
            return;
        }
        double dt = (now.at() - last.at()) / 1e9;
        if (dt <= 0) {
            return;
        }
        // an interval without the cell's own reading (its container gone, between two JVMs) says nothing of others
        if (now.cell().isPresent() && last.cell().isPresent()) {
            long cellUsed = Math.max(0, now.cell().getAsLong() - last.cell().getAsLong());
            long other = now.hostBusy() - last.hostBusy() - cellUsed - (now.self() - last.self());
            double otherCpus = Math.max(0, other / 1e9 / dt);
            Double steal = null;
            if (now.steal().isPresent() && last.steal().isPresent()) {
                steal = Math.max(0, (now.steal().getAsLong() - last.steal().getAsLong()) / 1e9 / dt);
                stealSeconds += steal * dt;
                stealSeen = true;
            }
            OptionalDouble pressure = pressure();
            HostFacts.meanMhz(CPUINFO).ifPresent(mhz::add);
            otherCpuSeconds += otherCpus * dt;
            seconds += dt;
            points.add(new Interference.Point(
                    Math.round((now.at() - startNanos) / 1e6),
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
        last = now;
    }

    private Reading read() {
        try {
            String[] cpu = Files.readAllLines(STAT).get(0).trim().split("\\s+");
            // cpu user nice system idle iowait irq softirq steal guest guest_nice (USER_HZ ticks; guest is in user)
            long tick = ProcStat.TICK_NANOS;
            long busy = (Long.parseLong(cpu[1])
                            + Long.parseLong(cpu[2])
                            + Long.parseLong(cpu[3])
                            + Long.parseLong(cpu[6])
                            + Long.parseLong(cpu[7]))
                    * tick;
            OptionalLong steal = cpu.length > 8 ? OptionalLong.of(Long.parseLong(cpu[8]) * tick) : OptionalLong.empty();
            if (steal.isEmpty()) {
                unavailable.add("steal: /proc/stat has no steal column");
            }
            long selfNanos = ProcStat.ticks(SELF, ProcStat.UTIME, ProcStat.STIME) * tick;
            return new Reading(System.nanoTime(), busy, steal, cell.nanos(), selfNanos);
        } catch (IOException | RuntimeException e) {
            unavailable.add("the host's CPU use: no /proc/stat here (Linux only), so other work is not measured");
            return null;
        }
    }

    private OptionalDouble pressure() {
        try {
            String some = Files.readAllLines(PRESSURE).get(0); // some avg10=7.58 avg60=… avg300=… total=…
            for (String field : some.split(" ")) {
                if (field.startsWith("avg10=")) {
                    return OptionalDouble.of(Double.parseDouble(field.substring(6)));
                }
            }
        } catch (IOException | RuntimeException e) {
            unavailable.add("CPU pressure: this kernel has no /proc/pressure/cpu (PSI)");
        }
        return OptionalDouble.empty();
    }

    private static double round(double v) {
        return Math.round(v * 1000) / 1000.0;
    }

    /** Stops watching and says what was seen; flagged when the mean other work reached the threshold. */
    public synchronized Interference finish() {
        stopping = true;
        thread.interrupt();
        sample();
        List<Interference.Point> series = fit(points);
        double mean = seconds > 0 ? round(otherCpuSeconds / seconds) : 0;
        double max =
                points.stream().mapToDouble(Interference.Point::otherCpus).max().orElse(0);
        Optional<Double> throttled = throttledFirst.isPresent()
                ? Optional.of(round((throttledLast.getAsLong() - throttledFirst.getAsLong()) / 1e6))
                : Optional.empty();
        Optional<Double> pressureMean = points.stream().anyMatch(p -> p.cpuPressure() != null)
                ? Optional.of(round(points.stream()
                        .filter(p -> p.cpuPressure() != null)
                        .mapToDouble(Interference.Point::cpuPressure)
                        .average()
                        .orElse(0)))
                : Optional.empty();
        Optional<String> disturbed = seconds > 0 && mean >= Interference.THRESHOLD_CPUS
                ? Optional.of(String.format(
                        Locale.ROOT,
                        "measured beside %.2f CPUs of other work (mean over the cell, at most %.2f; flagged from %.2f)",
                        mean,
                        max,
                        Interference.THRESHOLD_CPUS))
                : Optional.empty();
        if (seconds == 0 && unavailable.isEmpty()) {
            // (its first and last moments always are: before its container or JVM starts, after it is gone)
            unavailable.add("other work: no interval had the cell's own CPU use to tell it apart (" + cell.source()
                    + "), or the cell ended within one interval");
        }
        return new Interference(
                "the host's /proc/stat against " + cell.source() + " and this runner's own CPU",
                (int) every.toMillis(),
                mean,
                round(max),
                Interference.THRESHOLD_CPUS,
                stealSeen && seconds > 0 ? Optional.of(round(stealSeconds / seconds)) : Optional.empty(),
                throttled,
                pressureMean,
                mhz.isEmpty()
                        ? Optional.empty()
                        : Optional.of(new Interference.Frequency(
                                Math.round(mhz.stream()
                                                        .mapToDouble(Double::doubleValue)
                                                        .average()
                                                        .orElseThrow()
                                                * 10)
                                        / 10.0,
                                mhz.stream()
                                        .mapToDouble(Double::doubleValue)
                                        .min()
                                        .orElseThrow(),
                                mhz.stream()
                                        .mapToDouble(Double::doubleValue)
                                        .max()
                                        .orElseThrow())),
                series,
                List.copyOf(unavailable),
                disturbed);
    }

    @Override
    public void close() {
        stopping = true;
        thread.interrupt();
    }

    /** At most MAX_POINTS: neighbours averaged in pairs until they fit (the mean stays the mean). */
    static List<Interference.Point> fit(List<Interference.Point> points) {
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
