package dev.loommatrix.core.matrix;

import java.math.BigInteger;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one grammar of a duration the user writes — a cell's {@code timeout} in matrix.yaml, {@code ab --budget} on
 * the command line: a positive whole number with a unit, {@code 500ms}, {@code 90s}, {@code 10m}, {@code 1h}.
 */
public final class Durations {

    private static final Pattern DURATION = Pattern.compile("([0-9]+)(ms|s|m|h)");

    /** What to write instead, for a hint. */
    public static final String EXAMPLES = "90s, 10m, 1h, 500ms";

    private Durations() {}

    /**
     * The duration in milliseconds; {@link Long#MAX_VALUE} for one too long for a long (each caller's own limit
     * is far below it, so it reads as "too long", never as an overflow); empty when the text is not a positive
     * duration.
     */
    public static OptionalLong millis(String text) {
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            return OptionalLong.empty();
        }
        BigInteger n = new BigInteger(m.group(1));
        if (n.signum() == 0) {
            return OptionalLong.empty();
        }
        BigInteger millis = n.multiply(BigInteger.valueOf(
                switch (m.group(2)) {
                    case "ms" -> 1L;
                    case "s" -> 1_000L;
                    case "m" -> 60_000L;
                    default -> 3_600_000L;
                }));
        return OptionalLong.of(millis.bitLength() < 63 ? millis.longValue() : Long.MAX_VALUE);
    }
}
