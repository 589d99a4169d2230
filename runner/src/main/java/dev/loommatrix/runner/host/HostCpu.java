package dev.loommatrix.runner.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What {@link InterferenceSampler} reads of the host at each sample: its CPU counters, its CPU pressure and clock.
 * On Linux they come from {@code /proc}; a test scripts them, so that what the sampler makes of a given series of
 * counters is checked exactly, without the noise of the machine the test runs on.
 */
interface HostCpu {

    /**
     * The host's counters at one moment, cumulative nanoseconds of CPU.
     *
     * @param at {@link System#nanoTime()} when read
     * @param busy every CPU's busy time since boot (user, nice, system, irq, softirq)
     * @param steal the time the hypervisor gave the CPUs elsewhere, where the host says
     * @param self this runner's own CPU (its JVM's threads)
     */
    record Counters(long at, long busy, OptionalLong steal, long self) {}

    /** The counters now; empty where the host has none to read (no {@code /proc/stat}: Windows, macOS). */
    Optional<Counters> read();

    /** The kernel's "some" CPU pressure, avg10, in percent; empty without PSI. */
    OptionalDouble pressure();

    /** The CPUs' mean clock in MHz; empty where the host does not say. */
    Optional<Double> mhz();

    /** This host's {@code /proc}. */
    static HostCpu proc() {
        return new Proc();
    }

    final class Proc implements HostCpu {
        private static final Path STAT = Path.of("/proc/stat");
        private static final Path SELF = Path.of("/proc/self");
        private static final Path PRESSURE = Path.of("/proc/pressure/cpu");
        private static final Path CPUINFO = Path.of("/proc/cpuinfo");

        @Override
        public Optional<Counters> read() {
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
                OptionalLong steal =
                        cpu.length > 8 ? OptionalLong.of(Long.parseLong(cpu[8]) * tick) : OptionalLong.empty();
                long self = ProcStat.ticks(SELF, ProcStat.UTIME, ProcStat.STIME) * tick;
                return Optional.of(new Counters(System.nanoTime(), busy, steal, self));
            } catch (IOException | RuntimeException e) {
                return Optional.empty();
            }
        }

        @Override
        public OptionalDouble pressure() {
            try {
                String some = Files.readAllLines(PRESSURE).get(0); // some avg10=7.58 avg60=… avg300=… total=…
                for (String field : some.split(" ")) {
                    if (field.startsWith("avg10=")) {
                        return OptionalDouble.of(Double.parseDouble(field.substring(6)));
                    }
                }
            } catch (IOException | RuntimeException e) {
                // no PSI
            }
            return OptionalDouble.empty();
        }

        @Override
        public Optional<Double> mhz() {
            return HostFacts.meanMhz(CPUINFO);
        }
    }
}
