package dev.loommatrix.runner.ab;

import dev.loommatrix.runner.records.RawResults;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * What a cell's pairs were, as {@code compare.json}'s {@code ab.pairing} says it: how many of each way, the turns
 * given alone, where the turns began, and why not lockstep when not.
 */
public final class PairingTally {
    public int lockstep;
    int backToBack;
    public long pairedTurns;
    long aloneTurns;
    /** Attempts of its pairs measured again (disturbed): their turns are in the counts, their forks' records not. */
    public int measuredAgain;

    String why;
    /** The forks' turns as their records count them, and how many began on the turns' CPU. */
    long turnsTaken;

    long turnsOnCpu;
    final SortedSet<Integer> cpus = new TreeSet<>();
    final SortedSet<String> cpuNotSet = new TreeSet<>();

    public String words() {
        if (lockstep == 0) {
            return "back to back" + (why == null ? "" : " (" + why + ")");
        }
        String words = "lockstep: " + pairs(lockstep) + ", " + pairedTurns + " turns in step"
                + (aloneTurns == 0 ? "" : ", " + aloneTurns + " alone")
                + (measuredAgain == 0
                        ? ""
                        : " (with " + measuredAgain + (measuredAgain == 1 ? " attempt" : " attempts")
                                + " measured again, disturbed)")
                + placement();
        return backToBack == 0 ? words : words + "; back to back: " + pairs(backToBack);
    }

    /** Where the turns began: ", 140 of 144 begun on CPU 0", and why not where forks could not say. */
    private String placement() {
        String on = cpus.isEmpty()
                ? ""
                : ", " + turnsOnCpu + " of " + (measuredAgain == 0 ? "" : "the kept forks' ") + turnsTaken
                        + " begun on CPU "
                        + cpus.stream().map(String::valueOf).collect(Collectors.joining(" or "));
        return on + (cpuNotSet.isEmpty() ? "" : ", not on one CPU (" + String.join("; ", cpuNotSet) + ")");
    }

    /** Counts where a block's forks began their turns (their records' {@code turns}). */
    public void placed(List<RawResults.HarnessRecord> records) {
        for (RawResults.HarnessRecord record : records) {
            record.turns().ifPresent(t -> {
                turnsTaken += t.taken();
                t.cpu().ifPresent(cpus::add);
                turnsOnCpu += t.beganOnCpu().orElse(0);
                t.cpuNotSet().ifPresent(cpuNotSet::add);
            });
        }
    }

    /** How each cell's pairs were measured, as the report says it (a cell not run here had no pairs to speak of). */
    static Map<String, String> words(Map<String, PairingTally> tallies, Set<String> notRun) {
        Map<String, String> words = new TreeMap<>();
        tallies.forEach((cell, tally) -> {
            if (!notRun.contains(cell)) {
                words.put(cell, tally.words());
            }
        });
        return words;
    }

    private static String pairs(int n) {
        return n + (n == 1 ? " pair" : " pairs");
    }
}
