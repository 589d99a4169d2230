package dev.loommatrix.runner.ab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.runner.ab.PairAttempts.Word;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A lockstep pair's two blocks decide each attempt together, each side in its own thread as AbRun runs them: both
 * measured again when either was disturbed, neither when neither was, and a side whose sibling ended without a word
 * goes by its own.
 */
@Timeout(30)
class PairAttemptsTest {

    private static final Word QUIET = new Word(false, true);
    private static final Word DISTURBED = new Word(true, true);
    private static final Word FAILED = new Word(false, false);

    private final PairAttempts attempts = new PairAttempts();
    private final ExecutorService sides = Executors.newFixedThreadPool(2);

    @AfterEach
    void stop() {
        sides.shutdownNow();
    }

    private Future<Boolean> say(String side, int attempt, Word word) {
        return sides.submit(() -> attempts.again(side, attempt, word));
    }

    /** Both sides' words on an attempt, at once: what each then decided, a's first. */
    private List<Boolean> both(int attempt, Word a, Word b) throws Exception {
        Future<Boolean> fromA = say("a", attempt, a);
        Future<Boolean> fromB = say("b", attempt, b);
        return List.of(fromA.get(), fromB.get());
    }

    @Test
    void oneSideDisturbedMeasuresBothAgainAndTheNextAttemptIsDecidedAfresh() throws Exception {
        assertThat(both(0, DISTURBED, QUIET)).containsExactly(true, true);
        assertThat(both(1, QUIET, QUIET)).containsExactly(false, false);
    }

    @Test
    void aSideWaitsForItsSiblingsWordBeforeItDecides() throws Exception {
        Future<Boolean> a = say("a", 0, QUIET);
        // quiet itself, side a cannot know yet whether b was disturbed: it waits for b's word
        awaitASideWaiting();
        assertThat(a.isDone()).isFalse();
        Future<Boolean> b = say("b", 0, DISTURBED);
        assertThat(a.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(b.get()).isTrue();
    }

    @Test
    void aFailedBlockIsNotMeasuredAgainForItsSiblingNorItsSiblingForIt() throws Exception {
        assertThat(both(0, DISTURBED, FAILED)).containsExactly(false, false);
        assertThat(both(1, FAILED, DISTURBED)).containsExactly(false, false);
    }

    @Test
    void aSideWhoseSiblingEndedWithoutAWordGoesByItsOwn() throws Exception {
        Future<Boolean> a = say("a", 0, DISTURBED);
        awaitASideWaiting();
        attempts.ended("b");
        assertThat(a.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(say("a", 1, QUIET).get()).isFalse();
    }

    /**
     * Waits until a side's thread waits inside {@link PairAttempts#again} for its sibling — the explicit signal a "not
     * yet" check needs, so that it cannot pass merely because the side's thread had not run yet.
     */
    private static void awaitASideWaiting() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            for (var entry : Thread.getAllStackTraces().entrySet()) {
                boolean inAgain = java.util.Arrays.stream(entry.getValue())
                        .anyMatch(f -> f.getClassName().equals(PairAttempts.class.getName())
                                && f.getMethodName().equals("again"));
                if (inAgain && entry.getKey().getState() == Thread.State.WAITING) {
                    return;
                }
            }
            Thread.sleep(5);
        }
        throw new AssertionError("no side ever waited for its sibling's word");
    }
}
