package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.runner.host.CellCpu;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A lockstep pair's own CPU (issue #30 beside #32): this block's and whatever its sibling is measuring. */
class PairCpuTest {

    /** A cell's reading, set by the test. */
    static final class Reading implements CellCpu {
        final AtomicLong count = new AtomicLong();

        @Override
        public OptionalLong nanos() {
            return OptionalLong.of(count.get());
        }

        @Override
        public String source() {
            return "a scripted cell";
        }
    }

    @Test
    void aSiblingsReadingThatLagsForAMomentIsNotCountedTwice() {
        Reading own = new Reading();
        Reading sibling = new Reading();
        PairCpu pair = new PairCpu(own, () -> sibling);
        own.count.set(1_000);
        sibling.count.set(20_000);
        assertThat(pair.nanos()).hasValue(21_000);
        // a JVM of the sibling's reaped between two reads: its count lags by 5 000 for one reading…
        sibling.count.set(15_000);
        assertThat(pair.nanos()).hasValue(16_000);
        // …and has it again: the pair's count is what the two cells used, not 20 000 more
        sibling.count.set(21_000);
        assertThat(pair.nanos()).hasValue(22_000);
    }

    @Test
    void theSiblingsNextCellStartsANewCountAndTheLastOnesIsKept() {
        Reading own = new Reading();
        AtomicReference<CellCpu> measuring = new AtomicReference<>(new Reading());
        PairCpu pair = new PairCpu(own, measuring::get);
        ((Reading) measuring.get()).count.set(7_000);
        assertThat(pair.nanos()).hasValue(7_000);
        Reading next = new Reading();
        measuring.set(next);
        next.count.set(500);
        assertThat(pair.nanos()).hasValue(7_500);
    }

    /**
     * The local backend's reading of a cell is its live process groups plus every process the runner reaped — both
     * sides' in a lockstep pair. A sibling's JVM that ends moves its CPU from the sibling's live groups into the
     * reaped count in both readings: the pair's CPU must not grow by it (it did, by all of it, when the sibling's whole
     * reading was added).
     */
    @Test
    void whatTheRunnerReapedOfEitherSideCountsOnce() {
        AtomicLong reaped = new AtomicLong();
        AtomicLong liveA = new AtomicLong(3_000);
        AtomicLong liveB = new AtomicLong(5_000);
        CellCpu own = local(liveA, reaped);
        CellCpu sibling = local(liveB, reaped);
        PairCpu pair = new PairCpu(own, () -> sibling);
        assertThat(pair.nanos()).hasValue(8_000);
        liveB.set(0); // the sibling's JVM exits and is reaped
        reaped.addAndGet(5_000);
        assertThat(pair.nanos()).hasValue(8_000);
        liveA.addAndGet(1_000); // then the pair works on
        assertThat(pair.nanos()).hasValue(9_000);
    }

    /**
     * A sibling's JVM reaped while the pair is read — after this block's reaped count was read, before the sibling's
     * live groups were: its CPU is in neither. At a cell's end no later reading made up for it, and a block beside a
     * 0.57-CPU hog read 1.06 CPUs of other work. Read again, the pair's count is whole.
     */
    @Test
    void aJvmReapedWhileThePairIsReadIsCountedOnce() {
        AtomicLong reaped = new AtomicLong();
        AtomicLong liveA = new AtomicLong(3_000);
        AtomicLong liveB = new AtomicLong(5_000);
        CellCpu own = local(liveA, reaped);
        AtomicLong siblingReads = new AtomicLong();
        CellCpu sibling = new CellCpu() {
            @Override
            public OptionalLong nanos() {
                throw new AssertionError("a sibling's whole reading would count the reaped processes twice");
            }

            @Override
            public OptionalLong unsharedNanos() {
                if (siblingReads.incrementAndGet() == 2) { // the sibling's JVM is reaped just before its second read
                    liveB.set(0);
                    reaped.addAndGet(5_000);
                }
                return OptionalLong.of(liveB.get());
            }

            @Override
            public String source() {
                return "a sibling whose JVM is reaped mid-reading";
            }
        };
        PairCpu pair = new PairCpu(own, () -> sibling);
        assertThat(pair.nanos()).hasValue(8_000);
        assertThat(pair.nanos()).hasValue(8_000);
        assertThat(siblingReads).hasValue(3); // the torn reading was read again
    }

    private static CellCpu local(AtomicLong live, AtomicLong reaped) {
        return new CellCpu() {
            @Override
            public OptionalLong nanos() {
                return OptionalLong.of(live.get() + reaped.get());
            }

            @Override
            public OptionalLong unsharedNanos() {
                return OptionalLong.of(live.get());
            }

            @Override
            public OptionalLong sharedNanos() {
                return OptionalLong.of(reaped.get());
            }

            @Override
            public String source() {
                return "live groups and the runner's reaped processes";
            }
        };
    }
}
