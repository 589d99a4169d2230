package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.runner.backend.RawResults;
import dev.loommatrix.runner.backend.RawResults.TurnPlacement;
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

    private static AbRun.PairingTally twoPairs() {
        AbRun.PairingTally tally = new AbRun.PairingTally();
        tally.lockstep = 2;
        tally.pairedTurns = 48;
        return tally;
    }

    @Test
    void saysHowManyTurnsBeganOnTheTurnsCpu() {
        AbRun.PairingTally tally = twoPairs();
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
        AbRun.PairingTally tally = twoPairs();
        var jdk21 = new TurnPlacement(
                12, Optional.empty(), Optional.empty(), Optional.of("a JVM before 22 cannot" + " set a thread's CPU"));
        tally.placed(List.of(fork(jdk21), fork(jdk21), fork(jdk21), fork(jdk21)));
        assertThat(tally.words())
                .isEqualTo("lockstep: 2 pairs, 48 turns in step, not on one CPU (a JVM before 22 cannot set a"
                        + " thread's CPU)");
    }

    @Test
    void aForkWithoutTurnsAddsNothing() {
        AbRun.PairingTally tally = twoPairs();
        tally.placed(List.of(fork(Optional.empty())));
        assertThat(tally.words()).isEqualTo("lockstep: 2 pairs, 48 turns in step");
    }
}
