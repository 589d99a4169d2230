package dev.loommatrix.runner.ab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.runner.records.RawResults;
import dev.loommatrix.runner.records.RawResults.TurnPlacement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What {@code compare.json}'s {@code ab.pairing} says of a cell's pairs in lockstep, where their turns began. */
class PairingWordsTest {

    private static RawResults.HarnessRecord fork(TurnPlacement turns) {
        return fork(Optional.of(turns));
    }

    /** A fork's record, with where its turns began when it took turns. */
    private static RawResults.HarnessRecord fork(Optional<TurnPlacement> turns) {
        return new RawResults.HarnessRecord(
                1,
                20.0,
                Optional.empty(),
                Map.of(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                turns);
    }

    private static PairingTally twoPairs() {
        PairingTally tally = new PairingTally();
        tally.lockstep = 2;
        tally.pairedTurns = 48;
        return tally;
    }

    @Test
    void saysHowManyTurnsBeganOnTheTurnsCpu() {
        PairingTally tally = twoPairs();
        tally.placed(List.of(
                fork(new TurnPlacement(12, Optional.of(0), Optional.of(12), Optional.empty())),
                fork(new TurnPlacement(12, Optional.of(0), Optional.of(11), Optional.empty()))));
        tally.placed(List.of(
                fork(new TurnPlacement(12, Optional.of(0), Optional.of(12), Optional.empty())),
                fork(new TurnPlacement(12, Optional.of(0), Optional.of(12), Optional.empty()))));
        assertThat(tally.words()).isEqualTo("lockstep: 2 pairs, 48 turns in step, 47 of 48 begun on CPU 0");
    }

    @Test
    void saysWhyTurnsWereNotPlacedOnAJdkThatCannot() {
        PairingTally tally = twoPairs();
        var jdk21 = new TurnPlacement(
                12, Optional.empty(), Optional.empty(), Optional.of("a JVM before 22 cannot" + " set a thread's CPU"));
        tally.placed(List.of(fork(jdk21), fork(jdk21), fork(jdk21), fork(jdk21)));
        assertThat(tally.words())
                .isEqualTo("lockstep: 2 pairs, 48 turns in step, not on one CPU (a JVM before 22 cannot set a"
                        + " thread's CPU)");
    }

    /**
     * A pair measured again (disturbed) took its first attempt's turns in step too, but its forks' records are the
     * last attempt's: the words say so, so that the turns begun on the CPU are not read as a share of every turn.
     */
    @Test
    void turnsOfAttemptsMeasuredAgainAreSaidApartFromTheKeptForks() {
        PairingTally tally = twoPairs();
        tally.pairedTurns = 72;
        tally.measuredAgain = 1;
        tally.placed(List.of(
                fork(new TurnPlacement(12, Optional.of(0), Optional.of(12), Optional.empty())),
                fork(new TurnPlacement(12, Optional.of(0), Optional.of(12), Optional.empty())),
                fork(new TurnPlacement(12, Optional.of(0), Optional.of(12), Optional.empty())),
                fork(new TurnPlacement(12, Optional.of(0), Optional.of(12), Optional.empty()))));
        assertThat(tally.words())
                .isEqualTo("lockstep: 2 pairs, 72 turns in step (with 1 attempt measured again, disturbed), 48 of the"
                        + " kept forks' 48 begun on CPU 0");
    }

    @Test
    void pairsMeasuredAgainCountInEveryAttempt() throws InterruptedException {
        PairAttempts once = new PairAttempts();
        assertThat(once.measuredAgain()).isZero();
        once.ended("b");
        assertThat(once.again("a", 0, new PairAttempts.Word(false, true))).isFalse();
        assertThat(once.measuredAgain()).isZero();
        PairAttempts twice = new PairAttempts();
        twice.ended("b");
        assertThat(twice.again("a", 0, new PairAttempts.Word(true, true))).isTrue();
        assertThat(twice.again("a", 1, new PairAttempts.Word(false, true))).isFalse();
        assertThat(twice.measuredAgain()).isEqualTo(1);
    }

    @Test
    void aForkWithoutTurnsAddsNothing() {
        PairingTally tally = twoPairs();
        tally.placed(List.of(fork(Optional.empty())));
        assertThat(tally.words()).isEqualTo("lockstep: 2 pairs, 48 turns in step");
    }

    /**
     * A pair measured again up to the rerun cap (MatrixRun.RERUNS, 2): the last attempt is not asked about, so it
     * says no word — its two attempts measured again are two, as the blocks' records count them (LockstepAbIT on a
     * busy machine read "with 2 attempts measured again" where the records held 4).
     */
    @Test
    void attemptsMeasuredAgainUpToTheCapAreCountedAll() throws Exception {
        PairAttempts capped = new PairAttempts();
        capped.ended("b");
        assertThat(capped.again("a", 0, new PairAttempts.Word(true, true))).isTrue();
        assertThat(capped.again("a", 1, new PairAttempts.Word(true, true))).isTrue();
        // attempt 2, the cap's: measured, recorded, and not asked about
        assertThat(capped.measuredAgain()).isEqualTo(2);
    }
}
