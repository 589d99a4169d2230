package dev.loommatrix.core.matrix;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;
import java.util.Optional;

/**
 * A workload's headline contrast: the one comparison its matrix tile, cell view, history, compare and Grafana
 * show first, said in words, so a number never appears without what it is against (issue #19: "5.7×" of
 * virtual threads read 2.3× or 5.7× depending on an alphabetical default nobody saw).
 *
 * <p>The catalogue declares one per built-in workload, a user's matrix.yaml may declare its own; a cell
 * record carries it resolved: {@link #reference} is then the variant that cell actually compared with.
 *
 * @param kind a speedup of {@code subject} over {@code reference}, or {@code subject}'s efficiency against its
 *     own lower bound (a measure, not a contest: no reference)
 * @param reference the variant the subject is compared with; in a declaration, empty when it is the cell's
 *     fastest other variant ({@code fastestOther})
 * @param fastestOther the reference is whichever other variant was fastest in the cell (its steady-state
 *     median, in the direction of the judged metric): the contrast a skeptic asks for, against the best
 *     that platform threads did, not against a pool size picked to lose
 * @param words the contrast as a reader should say it
 */
public record Contrast(
        Kind kind,
        String subject,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> reference,
        boolean fastestOther,
        String words) {

    public enum Kind {
        @JsonProperty("speedup")
        SPEEDUP,
        @JsonProperty("efficiency")
        EFFICIENCY
    }

    public Contrast {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(words, "words");
        reference = reference == null ? Optional.empty() : reference;
    }

    /** {@code subject}'s speedup over a fixed variant. */
    public static Contrast over(String subject, String reference, String words) {
        return new Contrast(Kind.SPEEDUP, subject, Optional.of(reference), false, words);
    }

    /** {@code subject}'s speedup over the fastest other variant of each cell. */
    public static Contrast overFastestOther(String subject, String words) {
        return new Contrast(Kind.SPEEDUP, subject, Optional.empty(), true, words);
    }

    /** {@code subject}'s efficiency against its own lower bound. */
    public static Contrast againstBound(String subject, String words) {
        return new Contrast(Kind.EFFICIENCY, subject, Optional.empty(), false, words);
    }

    /** This contrast with the variant a cell compared the subject with. */
    public Contrast resolvedTo(String variant) {
        return new Contrast(kind, subject, Optional.of(variant), fastestOther, words);
    }
}
