package dev.loommatrix.core.conclude;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * What one condition of a workload says about virtual threads, in the report's five words (issue #51). The first
 * three are said only when the headline contrast's interval says them: beyond the practical band (the compare
 * threshold) in virtual threads' favour, wholly inside it, or beyond it against them.
 */
public enum Conclusion {
    @JsonProperty("pays-off")
    PAYS_OFF("pays off"),
    @JsonProperty("no-difference")
    NO_DIFFERENCE("no difference"),
    @JsonProperty("hurts")
    HURTS("hurts"),
    /** The interval reaches across an edge of the band: more evidence would decide. */
    @JsonProperty("cannot-tell")
    CANNOT_TELL("cannot tell"),
    /** Failed, invalid, disturbed or not attested: never counted as evidence. */
    @JsonProperty("not-valid")
    NOT_VALID("not valid");

    private final String words;

    Conclusion(String words) {
        this.words = words;
    }

    public String words() {
        return words;
    }

    /**
     * The class of a speedup's interval {@code [low, high]} (above 1: the subject is better) against a practical
     * band of ± {@code threshold} (0.10: within 10 % either way is no material difference).
     */
    public static Conclusion of(double low, double high, double threshold) {
        if (!(low <= high) || threshold < 0) {
            throw new IllegalArgumentException("an interval [" + low + ", " + high + "] and a threshold ≥ 0");
        }
        double up = 1 + threshold;
        double down = 1 / up;
        if (low > up) {
            return PAYS_OFF;
        }
        if (high < down) {
            return HURTS;
        }
        if (low >= down && high <= up) {
            return NO_DIFFERENCE;
        }
        return CANNOT_TELL;
    }
}
