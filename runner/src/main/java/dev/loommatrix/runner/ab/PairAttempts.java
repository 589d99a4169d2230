package dev.loommatrix.runner.ab;

import dev.loommatrix.runner.run.PairedAttempts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A lockstep pair's attempts, decided together (issue #30). With {@code --on-disturbed rerun} a block measured beside
 * other work is measured again; in lockstep its pair's other block is then measured again too, at the same time, so
 * the pair stays a pair in time. Measured again on its own, after its sibling had ended, the disturbed block's forks
 * took their turns alone — the very drift of the machine lockstep takes out of a pair came back into it.
 *
 * <p>After each attempt each side says what it was (disturbed or not, succeeded or not) and waits for the other's
 * word on the same attempt, or for the other's block to end without one (it failed to run, or the run is stopping);
 * then both go on, or stop, as one: again when either was disturbed and both succeeded. A failed block fails its
 * pair anyway, so it is not measured again for its sibling's sake.
 */
public final class PairAttempts {

    /** What one side's attempt was. */
    public record Word(boolean disturbed, boolean succeeded) {}

    private final Map<String, List<Word>> said = new HashMap<>();
    private final Set<String> ended = new HashSet<>();
    /** Per side, the attempts it was told to measure again. */
    private final Map<String, Integer> measuredAgain = new HashMap<>();

    /**
     * Whether {@code side}'s attempt {@code attempt} (0, 1, …) is measured again, with the other side's: waits for the
     * other side's word on it. Alone (the other ended without a word) the side goes by its own.
     */
    public synchronized boolean again(String side, int attempt, Word word) throws InterruptedException {
        List<Word> mine = said.computeIfAbsent(side, s -> new ArrayList<>());
        if (mine.size() != attempt) {
            throw new IllegalStateException(side + " said attempt " + attempt + " after " + mine.size());
        }
        mine.add(word);
        notifyAll();
        String other = other(side);
        while (word(other, attempt).isEmpty() && !ended.contains(other)) {
            wait();
        }
        Word theirs = word(other, attempt).orElse(new Word(false, word.succeeded()));
        boolean again = (word.disturbed() || theirs.disturbed()) && word.succeeded() && theirs.succeeded();
        if (again) {
            measuredAgain.merge(side, 1, Integer::sum);
        }
        return again;
    }

    /** One side's view of the pair's attempts, as its block's run holds it. */
    public record Side(PairAttempts attempts, String name) implements PairedAttempts {
        public boolean again(int attempt, Word word) throws InterruptedException {
            return attempts.again(name, attempt, word);
        }

        @Override
        public boolean again(int attempt, boolean disturbed, boolean succeeded) throws InterruptedException {
            return again(attempt, new Word(disturbed, succeeded));
        }

        @Override
        public void ended() {
            attempts.ended(name);
        }
    }

    Side side(String name) {
        return new Side(this, name);
    }

    /**
     * How many times the pair was measured again: the attempts decided "again" (the last attempt, at the rerun cap,
     * says no word, so its words undercount). Their turns were taken in step too, but their forks' records were
     * replaced by the next attempt's.
     */
    public synchronized int measuredAgain() {
        return measuredAgain.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    /** {@code side}'s block has ended: it says nothing more, and the other side no longer waits for it. */
    public synchronized void ended(String side) {
        ended.add(side);
        notifyAll();
    }

    private Optional<Word> word(String side, int attempt) {
        List<Word> words = said.getOrDefault(side, List.of());
        return attempt < words.size() ? Optional.of(words.get(attempt)) : Optional.empty();
    }

    private static String other(String side) {
        return Lockstep.SIDES.get(0).equals(side) ? Lockstep.SIDES.get(1) : Lockstep.SIDES.get(0);
    }
}
