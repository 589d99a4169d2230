package dev.loommatrix.runner.ab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.harness.measure.Turns;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lockstep coordinator against the harness's own end of the protocol ({@link Turns}, as a fork runs it), over
 * real named pipes: forks in threads, each taking its iterations by turns and its tail, as the harness's Main does.
 */
@Timeout(60)
class LockstepTest {

    @TempDir
    Path dir;

    /** Who held the turn, in order: "a0" = side a's fork 0. A turn's holder checks nobody else holds one. */
    private final List<String> turns = java.util.Collections.synchronizedList(new ArrayList<>());

    /**
     * A fork's JVM starting, before it opens its pipes: a dying fork's next one comes no sooner (the coordinator then
     * sees the old one's end first; the protocol's tail covers a fork that ends well however soon the next comes).
     */
    private static final long JVM_START_MS = 50;

    private final AtomicInteger holding = new AtomicInteger();
    private volatile boolean overlapped;

    /** One fork: opens its pipes, takes {@code iterations} turns and its tail, as the harness does. */
    private void fork(Lockstep lockstep, String side, int forkNo, int iterations, int dieAfter) throws Exception {
        try (Turns fork = Turns.at(lockstep.dir(side))) {
            for (int i = 0; i < iterations; i++) {
                if (i == dieAfter) {
                    return; // the JVM dies mid-fork: its pipes close
                }
                fork.take();
                hold(side + forkNo);
                fork.give();
            }
            fork.tail(); // the tail, said: until the fork exits
            hold(side + forkNo);
        }
    }

    private void hold(String who) throws InterruptedException {
        if (holding.incrementAndGet() != 1) {
            overlapped = true;
        }
        turns.add(who);
        Thread.sleep(1);
        holding.decrementAndGet();
    }

    private Thread side(Lockstep lockstep, String side, int forks, int iterations, int dieAfter) {
        return Thread.ofPlatform().start(() -> {
            try {
                for (int f = 0; f < forks; f++) {
                    Thread.sleep(JVM_START_MS);
                    fork(lockstep, side, f, iterations, f == 0 ? dieAfter : Integer.MAX_VALUE);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            } finally {
                lockstep.ended(side);
            }
        });
    }

    @Test
    void bothSidesForksTakeTheirIterationsByTurnsAbbaOneRoundAFork() throws Exception {
        Lockstep lockstep = Lockstep.start(dir, 7).orElseThrow();
        Thread a = side(lockstep, "a", 2, 4, Integer.MAX_VALUE);
        Thread b = side(lockstep, "b", 2, 4, Integer.MAX_VALUE);
        a.join();
        b.join();
        Lockstep.Tally tally = lockstep.finish();

        assertThat(overlapped).as("two forks' turns at once").isFalse();
        // two rounds of two forks, 4 iterations and a tail each: all 20 turns with both forks alive
        assertThat(tally).isEqualTo(new Lockstep.Tally(2, 20, 0));
        assertThat(turns).hasSize(20);
        for (int round = 0; round < 2; round++) {
            List<String> inRound = turns.subList(round * 10, round * 10 + 10);
            String fork = String.valueOf(round);
            assertThat(inRound).allMatch(t -> t.endsWith(fork));
            // ABBA: each step the other side first — never three turns of one side running
            String first = inRound.get(0);
            String second = inRound.get(1);
            assertThat(first.charAt(0)).isNotEqualTo(second.charAt(0));
            for (int step = 0; step < 5; step++) {
                List<String> expected = step % 2 == 0 ? List.of(first, second) : List.of(second, first);
                assertThat(inRound.subList(step * 2, step * 2 + 2)).isEqualTo(expected);
            }
        }
    }

    @Test
    void aSideWhoseBlockEndedWithoutAForkLeavesTheOtherItsTurnsAloneAtOnce() throws Exception {
        Lockstep lockstep = Lockstep.start(dir, 7, Duration.ofMinutes(10)).orElseThrow();
        lockstep.ended("b"); // its block failed before any fork: no round waits ten minutes for it
        long started = System.nanoTime();
        Thread a = side(lockstep, "a", 1, 3, Integer.MAX_VALUE);
        a.join();
        Lockstep.Tally tally = lockstep.finish();

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
        assertThat(tally).isEqualTo(new Lockstep.Tally(1, 0, 4));
        assertThat(turns).containsExactly("a0", "a0", "a0", "a0");
    }

    @Test
    void aForkThatDiesMidwayEndsOnlyItsOwnTurnsAndTheNextForksPairAgain() throws Exception {
        Lockstep lockstep = Lockstep.start(dir, 11).orElseThrow();
        Thread a = side(lockstep, "a", 2, 4, 2); // a's first fork dies after 2 iterations
        Thread b = side(lockstep, "b", 2, 4, Integer.MAX_VALUE);
        a.join();
        b.join();
        Lockstep.Tally tally = lockstep.finish();

        assertThat(overlapped).isFalse();
        // round 0: a0 held 2 turns (its third found it gone), b0 5, its last 2 alone; round 1: 5 each, paired
        assertThat(turns.stream().filter("a0"::equals)).hasSize(2);
        assertThat(turns.stream().filter("b0"::equals)).hasSize(5);
        assertThat(turns.subList(7, 17)).allMatch(t -> t.endsWith("1"));
        assertThat(tally).isEqualTo(new Lockstep.Tally(2, 16, 2));
    }

    @Test
    void closingWithNoForkEverComingReturnsPromptly() throws Exception {
        Lockstep lockstep = Lockstep.start(dir, 3).orElseThrow();
        long started = System.nanoTime();
        Lockstep.Tally tally = lockstep.finish();

        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
        assertThat(tally).isEqualTo(new Lockstep.Tally(0, 0, 0));
    }
}
