package dev.loommatrix.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Optional;

/**
 * What else the host did while a cell ran (issue #32), read from the host — not from inside the cell — every few
 * hundred milliseconds: CPU used by everything outside the cell and this runner (the host's {@code /proc/stat}
 * against the cell's own use: its containers' cgroups, or its process groups and the processes it reaped — a service
 * cell's load generator is its own), the hypervisor's steal, the cell's own CPU throttling, and the kernel's CPU
 * pressure (PSI) where it has it. A cell whose outside use over its time reaches {@link #THRESHOLD_CPUS} is {@code
 * disturbed}: flagged, with its figure, its samples kept. A skipped cell is not measured, and has none of this.
 *
 * @param source how the figures were read, in words
 * @param everyMs the sampling interval
 * @param otherCpusMean CPUs used outside the cell and this runner, on average over the cell (1.0 = one CPU's time)
 * @param thresholdCpus the mean from which the cell was to be flagged ({@link #THRESHOLD_CPUS} when it ran)
 * @param series the samples (at most {@link #MAX_POINTS}: a long cell's are averaged in pairs until they fit)
 * @param unavailable what this host could not say, and why ("steal: not in /proc/stat")
 * @param disturbed present when flagged: "measured beside 1.3 CPUs of other work (…)"
 */
public record Interference(
        String source,
        int everyMs,
        double otherCpusMean,
        double otherCpusMax,
        double thresholdCpus,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Double> stealCpusMean,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Double> throttledMs,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Double> cpuPressureMean,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Frequency> cpuMhz,
        List<Point> series,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> unavailable,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> disturbed) {

    /** Mean CPUs of other work from which a cell is flagged disturbed (docs/cli.md: "Disturbed cells"). */
    public static final double THRESHOLD_CPUS = 0.25;

    public static final int MAX_POINTS = 240;

    /**
     * One sample over the interval before it.
     *
     * @param ms since the cell started
     * @param otherCpus CPUs used outside the cell and this runner
     * @param steal CPUs the hypervisor gave elsewhere (absent where /proc/stat has no steal column)
     * @param cpuPressure the kernel's "some" CPU pressure, avg10, in percent (absent without PSI)
     */
    public record Point(
            long ms,
            double otherCpus,
            @JsonInclude(JsonInclude.Include.NON_NULL) Double steal,
            @JsonInclude(JsonInclude.Include.NON_NULL) Double cpuPressure) {}

    /**
     * The CPUs' clock while the cell ran (the mean of /proc/cpuinfo's "cpu MHz" over the host's CPUs, each sample):
     * a machine that slows down under heat or a power limit shows it here, the cell's numbers with it.
     */
    public record Frequency(double mean, double min, double max) {}

    public Interference {
        series = List.copyOf(series);
        unavailable = unavailable == null ? List.of() : List.copyOf(unavailable);
        stealCpusMean = stealCpusMean == null ? Optional.empty() : stealCpusMean;
        throttledMs = throttledMs == null ? Optional.empty() : throttledMs;
        cpuPressureMean = cpuPressureMean == null ? Optional.empty() : cpuPressureMean;
        cpuMhz = cpuMhz == null ? Optional.empty() : cpuMhz;
        disturbed = disturbed == null ? Optional.empty() : disturbed;
    }

    /** Flagged disturbed (not a bean property: the record's {@code disturbed} is the figure). */
    public boolean flagged() {
        return disturbed.isPresent();
    }
}
