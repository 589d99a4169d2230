package dev.loommatrix.core.bisect;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What one bisection step says of a commit between a range's two ends, each measured against the good build: it
 * is the same as the range's good end, the same as its bad end, it shows part of the change (a step on each side
 * of it), or the step could not tell.
 */
public enum StepVerdict {
    SAME_AS_GOOD("same as good"),
    SAME_AS_BAD("same as bad"),
    PART("part of the change"),
    UNKNOWN("unknown");

    private final String words;

    StepVerdict(String words) {
        this.words = words;
    }

    @JsonValue
    public String words() {
        return words;
    }

    /**
     * A commit's change against the range's ends. It differs from an end when their intervals are apart and its
     * ratio is more than a quarter of the range's change (on the log scale) from the end's: intervals alone would
     * call one good commit in twenty "part of the change" by chance, and a bisection probes several. It is the same
     * as an end when it differs only from the other; part of the change when it differs from both; unknown when it
     * differs from neither (its interval spans the range).
     */
    public static StepVerdict of(Change probe, Change good, Change bad) {
        double quarter = Math.log(bad.ratio() / good.ratio()) / 4;
        boolean fromGood = probe.low() > good.high() && Math.log(probe.ratio() / good.ratio()) > quarter;
        boolean fromBad = probe.high() < bad.low() && Math.log(bad.ratio() / probe.ratio()) > quarter;
        if (fromGood && fromBad) {
            return PART;
        }
        if (fromGood) {
            return SAME_AS_BAD;
        }
        if (fromBad) {
            return SAME_AS_GOOD;
        }
        return UNKNOWN;
    }

    /**
     * The threshold a step's A/B is run with: the range's middle (geometric, against the good build) as a change.
     * Its sequential looks then stop once the commit is clearly beyond the middle or clearly within it of the good
     * build — the two answers a step needs.
     */
    public static double threshold(Change good, Change bad) {
        return Math.sqrt(good.ratio() * bad.ratio()) - 1;
    }
}
