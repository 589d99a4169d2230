package dev.loommatrix.core.conclude;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.loommatrix.core.plan.Coordinates;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Where two runs conclude differently (issue #51): the same condition (cell, and a user's benchmark in it) classed
 * one way before and another after — the A/B comment's first paragraph (baseline against candidate), and the
 * history's "changed since the last run" (with what else changed between the two: the JDK build, the image, the
 * runner, the commits). Only a change between two conclusions counts: pays off, no difference, hurts. A condition
 * that could not tell, or was not valid, on either side concluded nothing there to change.
 */
public final class ConclusionChanges {

    private ConclusionChanges() {}

    /**
     * One condition concluded differently.
     *
     * @param before the contrast the earlier conclusion rests on (the subject against the best other)
     * @param after the contrast the later one rests on
     */
    public record Change(
            String cellId,
            Coordinates coordinates,
            @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> benchmark,
            Conclusion from,
            Conclusion to,
            Finding.Contrasted before,
            Finding.Contrasted after) {

        /** "sleep-bound on temurin-25, 2 CPUs: pays off (virtual against pool:200, 4.67×) → no difference (…, 1.02×)". */
        public String words() {
            return String.format(
                    Locale.ROOT,
                    "%s%s, %s: %s (%s against %s, %s) → %s (%s against %s, %s)",
                    coordinates.workload(),
                    benchmark.map(b -> " · " + b).orElse(""),
                    ConclusionsMarkdown.condition(coordinates),
                    from.words(),
                    before.subject(),
                    before.reference(),
                    ConclusionsMarkdown.ratio(before.ratio()),
                    to.words(),
                    after.subject(),
                    after.reference(),
                    ConclusionsMarkdown.ratio(after.ratio()));
        }
    }

    /** The conditions both runs concluded on, whose class differs: in the later run's order. */
    public static List<Change> between(List<Finding> before, List<Finding> after) {
        Map<String, Finding> earlier = new LinkedHashMap<>();
        before.stream().filter(ConclusionChanges::concludes).forEach(f -> earlier.putIfAbsent(key(f), f));
        List<Change> out = new ArrayList<>();
        for (Finding later : after) {
            Finding was = earlier.get(key(later));
            if (was == null || !concludes(later) || was.conclusion() == later.conclusion()) {
                continue;
            }
            out.add(new Change(
                    later.cellId(),
                    later.coordinates(),
                    later.benchmark(),
                    was.conclusion(),
                    later.conclusion(),
                    deciding(was),
                    deciding(later)));
        }
        return out;
    }

    /** How many conditions both runs concluded on (pays off, no difference or hurts), whether alike or not. */
    public static int concludedOnBoth(List<Finding> before, List<Finding> after) {
        java.util.Set<String> earlier = new java.util.HashSet<>();
        before.stream().filter(ConclusionChanges::concludes).forEach(f -> earlier.add(key(f)));
        return (int) after.stream()
                .filter(ConclusionChanges::concludes)
                .map(ConclusionChanges::key)
                .distinct()
                .filter(earlier::contains)
                .count();
    }

    /** Every finding of a run's conclusions, valid or not. */
    public static List<Finding> findings(RunConclusions run) {
        List<Finding> out = new ArrayList<>();
        for (RunConclusions.Subject s : run.subjects()) {
            s.rules().forEach(r -> r.conditions().forEach(p -> out.add(p.what())));
            out.addAll(s.notValid());
        }
        return out;
    }

    private static boolean concludes(Finding f) {
        return (f.conclusion() == Conclusion.PAYS_OFF
                        || f.conclusion() == Conclusion.NO_DIFFERENCE
                        || f.conclusion() == Conclusion.HURTS)
                && f.overBest().or(f::headline).isPresent();
    }

    private static Finding.Contrasted deciding(Finding f) {
        return f.overBest().or(f::headline).orElseThrow();
    }

    private static String key(Finding f) {
        return f.cellId() + "\u0000" + f.benchmark().orElse("");
    }
}
