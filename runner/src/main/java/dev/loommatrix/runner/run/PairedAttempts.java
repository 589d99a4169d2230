package dev.loommatrix.runner.run;

/**
 * A block measured as one side of a pair decides its attempts with the pair's other side: measured again when
 * either side was disturbed (the A/B method's lockstep supplies it; a matrix run's own cells decide alone).
 */
public interface PairedAttempts {

    /**
     * Whether attempt {@code attempt} (0, 1, …) is measured again, given what it was on this side; waits for the
     * other side's word on the same attempt.
     */
    boolean again(int attempt, boolean disturbed, boolean succeeded) throws InterruptedException;

    /** This side's block has ended: it says nothing more, and the other side no longer waits for it. */
    void ended();
}
