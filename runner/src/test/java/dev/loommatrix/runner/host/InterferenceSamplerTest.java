package dev.loommatrix.runner.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.loommatrix.core.result.Interference;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * What the sampler makes of the host's counters (issue #32), on counters scripted here: the host of a 2-CPU machine
 * that counts CPU time in clock ticks of 10 ms, as Linux's /proc/stat does, and a cell whose own count is given.
 */
class InterferenceSamplerTest {

    static final long MS = 1_000_000L;
    static final long TICK = 10 * MS;
    static final Duration EVERY = Duration.ofMillis(500);

    /** A scripted host and cell: {@link #step} moves time on and adds CPU to the host, the cell, the runner. */
    static final class Script implements HostCpu, CellCpu {
        long at = 1_000 * MS;
        long hostExact; // the host's busy time, exact; /proc/stat has it in whole ticks
        long cell; // exact, as a cgroup counts it
        long self; // exact; /proc/self/stat has it in whole ticks
        double pressure; // what PSI's avg10 says now, percent
        double mhz = 2400.0; // the CPUs' mean clock now

        /** {@code ms} later, the cell used {@code cellMs} of CPU, others {@code otherMs}, the runner {@code selfMs}. */
        void step(long ms, long cellMs, long otherMs, long selfMs) {
            at += ms * MS;
            cell += cellMs * MS;
            self += selfMs * MS;
            hostExact += (cellMs + otherMs + selfMs) * MS;
        }

        @Override
        public Optional<Counters> read() {
            return Optional.of(new Counters(at, hostExact / TICK * TICK, OptionalLong.of(0), self / TICK * TICK));
        }

        @Override
        public OptionalDouble pressure() {
            return OptionalDouble.of(pressure);
        }

        @Override
        public Optional<Double> mhz() {
            return Optional.of(mhz);
        }

        @Override
        public OptionalLong nanos() {
            return OptionalLong.of(cell);
        }

        @Override
        public String source() {
            return "a scripted cell";
        }
    }

    @Test
    void aCellThatEndsWithinOneIntervalIsNeverFlagged() {
        // a skipped cell lasts 5 ms, in which the runner's own 3 ms of work ends a tick of the host's (10 ms) and
        // none of its own: 2 CPUs of "other work" if that interval is believed
        Script host = new Script();
        host.hostExact = 7 * MS;
        InterferenceSampler sampler = InterferenceSampler.driven(host, EVERY, host);
        host.step(5, 0, 0, 3);

        Interference seen = sampler.finish();

        assertThat(seen.flagged()).as("%s", seen).isFalse();
        assertThat(seen.otherCpusMean()).isZero();
        assertThat(seen.series()).isEmpty();
    }

    /** The record's clock and pressure: over the samples, worked out by hand (mean of 3, to 0.1 MHz and 0.001 %). */
    @Test
    void theClockAndThePressureAreTheSamplesMeanAndRange() {
        Script host = new Script();
        InterferenceSampler sampler = InterferenceSampler.driven(host, EVERY, host);
        double[][] samples = {{2400, 10}, {2000, 20.5}, {1801.37, 0.25}};
        for (double[] sample : samples) {
            host.step(500, 998, 0, 0);
            host.mhz = sample[0];
            host.pressure = sample[1];
            sampler.sample();
        }

        Interference seen = sampler.finish();

        // (2400 + 2000 + 1801.37) / 3 = 2067.123…; (10 + 20.5 + 0.25) / 3 = 10.25
        assertThat(seen.cpuMhz()).hasValue(new Interference.Frequency(2067.1, 1801.37, 2400));
        assertThat(seen.cpuPressureMean()).hasValue(10.25);
        assertThat(seen.series()).extracting(Interference.Point::cpuPressure).containsExactly(10.0, 20.5, 0.25);
    }

    @Test
    void aShortLastIntervalCountsForNothingAndTheCellsRealIntervalsDo() {
        Script host = new Script();
        InterferenceSampler sampler = InterferenceSampler.driven(host, EVERY, host);
        for (int i = 0; i < 4; i++) {
            host.step(500, 998, 0, 0); // the cell on both CPUs, nothing else
            sampler.sample();
        }
        // the cell has ended; in the 3 ms before the last sample the runner's 8 ms end a tick of the host's and
        // none of its own: 3.3 CPUs if believed
        host.step(3, 0, 0, 8);

        Interference seen = sampler.finish();

        assertThat(seen.flagged()).as("%s", seen).isFalse();
        assertThat(seen.otherCpusMean()).isZero();
        assertThat(seen.series()).hasSize(4);
    }

    @Test
    void aCellWatchedForLessThanOnePeriodIsNotFlaggedAndTheRecordSaysWhy() {
        // 400 ms of a hog on a whole CPU, but 400 ms is less than one period: too little to tell
        Script host = new Script();
        InterferenceSampler sampler = InterferenceSampler.driven(host, EVERY, host);
        host.step(400, 400, 400, 0);

        Interference seen = sampler.finish();

        assertThat(seen.flagged()).isFalse();
        assertThat(seen.unavailable())
                .anySatisfy(u -> assertThat(u).contains("less than one 500 ms interval: too little to flag the cell"));
    }

    @Test
    void aJvmReapedBetweenTwoReadsIsNotOtherWork() {
        // the cell's count misses a JVM's 600 ms for one interval (reaped between the reads of its parent and of it)
        // and has it again at the next: its CPU was the cell's all along
        Script host = new Script();
        InterferenceSampler sampler = InterferenceSampler.driven(host, EVERY, host);
        for (int i = 0; i < 4; i++) {
            host.step(500, 1000, 0, 0);
            if (i == 1) {
                host.cell -= 600 * MS;
            }
            if (i == 2) {
                host.cell += 600 * MS;
            }
            sampler.sample();
        }

        Interference seen = sampler.finish();

        assertThat(seen.flagged()).as("%s", seen).isFalse();
        assertThat(seen.otherCpusMean()).isZero();
    }

    @Test
    void aHogBesideTheCellIsFlaggedWithItsFigure() {
        Script host = new Script();
        InterferenceSampler sampler = InterferenceSampler.driven(host, EVERY, host);
        for (int i = 0; i < 10; i++) {
            host.step(500, 700, 300, 20); // the cell on 1.4 CPUs, a hog on 0.6, the runner on 0.04
            sampler.sample();
        }

        Interference seen = sampler.finish();

        assertThat(seen.flagged()).isTrue();
        assertThat(seen.otherCpusMean()).isCloseTo(0.6, within(0.02));
        assertThat(seen.disturbed().orElseThrow()).startsWith("measured beside 0.60 CPUs of other work");
        assertThat(seen.series()).hasSize(10);
    }
}
