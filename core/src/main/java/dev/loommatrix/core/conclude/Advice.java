package dev.loommatrix.core.conclude;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What to do, where the run's evidence supports it (issue #51): per rule, use the subject or keep the best other;
 * where it hurts with pinning measured, the code to change first (the pinned frames by count) and what the numbers
 * say changing it would gain — the same variant on a JDK of this run where it does not pin; the scheduler setting
 * that beat the JDK's default, by how much. Nothing is advised from a cell that is not valid or could not tell.
 */
public final class Advice {

    private Advice() {}

    /** The advice for one workload, a sentence each (Markdown, the conditions linked). */
    public static List<String> of(RunConclusions.Subject subject, boolean someNotValid) {
        List<String> out = new ArrayList<>();
        for (BoundaryRules.Rule<Finding> rule : subject.rules()) {
            List<Finding> cells =
                    rule.conditions().stream().map(BoundaryRules.Placed::what).toList();
            String where = rule.where().isEmpty()
                    ? ConclusionsMarkdown.everywhere(someNotValid)
                    : rule.where().stream().map(ConclusionsMarkdown::clause).collect(Collectors.joining(" "));
            Set<String> subjects = new LinkedHashSet<>();
            Set<String> others = new LinkedHashSet<>();
            cells.forEach(f -> f.overBest().or(f::headline).ifPresent(c -> {
                subjects.add(c.subject());
                others.add(c.reference());
            }));
            if (subjects.isEmpty()) {
                continue;
            }
            String subjectNames = String.join(" / ", subjects);
            String otherNames = String.join(" or ", others);
            switch (rule.conclusion()) {
                case PAYS_OFF -> {
                    Set<String> bound = boundByTheirSize(cells, others);
                    out.add("use " + subjectNames + " " + where + ": it beats the best other (" + otherNames
                            + ") beyond the practical band"
                            + (bound.isEmpty()
                                    ? ""
                                    : " — but " + String.join(" and ", bound) + " ran at the bound of its own size"
                                            + " (why, above): against a larger pool, not measured here, it may not"));
                }
                case NO_DIFFERENCE ->
                    out.add(subjectNames + " or " + otherNames + " " + where
                            + ": no material difference — choose on other grounds");
                case HURTS -> {
                    boolean tooSmall = cells.stream()
                            .anyMatch(f -> f.causes().stream().anyMatch(c -> c.kind() == Cause.Kind.TOO_SMALL));
                    out.add("keep " + otherNames + " " + where + ": " + subjectNames + " is worse beyond the practical"
                            + " band"
                            + (tooSmall ? " — at this workload's scale only: too small to tell how it scales" : ""));
                    pinnedFrames(cells).ifPresent(out::add);
                    gain(subject, rule).ifPresent(out::add);
                }
                case CANNOT_TELL ->
                    out.add("decide nothing yet " + where + ": "
                            + cells.stream()
                                    .flatMap(f -> f.why().stream())
                                    .distinct()
                                    .findFirst()
                                    .orElse("measure more"));
                case NOT_VALID -> {}
            }
        }
        settings(subject).forEach(out::add);
        return out;
    }

    /** The alternatives a pool-bound cause says were held by their own size, in the rule's cells. */
    private static Set<String> boundByTheirSize(List<Finding> cells, Set<String> alternatives) {
        Set<String> out = new LinkedHashSet<>();
        cells.forEach(f -> f.causes().stream()
                .filter(c -> c.kind() == Cause.Kind.POOL_BOUND && alternatives.contains(c.variant()))
                .forEach(c -> out.add(c.variant())));
        return out;
    }

    /** The pinned frames across the rule's cells, by count: the code to change first. */
    private static java.util.Optional<String> pinnedFrames(List<Finding> cells) {
        Map<String, Long> frames = new LinkedHashMap<>();
        for (Finding f : cells) {
            for (Cause c : f.causes()) {
                if (c.kind() == Cause.Kind.PINNING) {
                    // "…, at `Frame:1` (64), `Other:2` (3)": the frames and counts the cause names
                    var m = java.util.regex.Pattern.compile("`([^`]+)` \\((\\d+)\\)")
                            .matcher(c.words());
                    while (m.find()) {
                        frames.merge(m.group(1), Long.parseLong(m.group(2)), Long::sum);
                    }
                }
            }
        }
        if (frames.isEmpty()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of("change first the code that blocks while pinned: "
                + frames.entrySet().stream()
                        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                        .map(e -> "`" + e.getKey() + "` (" + e.getValue() + " pinned parks)")
                        .collect(Collectors.joining(", ")));
    }

    /**
     * What it would gain: the same variant, measured on another JDK of this run where the rule does not hold and it
     * is better — e.g. synchronized on a JDK that no longer pins.
     */
    private static java.util.Optional<String> gain(RunConclusions.Subject subject, BoundaryRules.Rule<Finding> rule) {
        Set<String> here = new LinkedHashSet<>();
        rule.conditions().forEach(p -> here.add(p.what().cellId()));
        return subject.steps().stream()
                .filter(s -> s.axis().equals("jdk") && here.contains(s.fromCell()))
                .filter(s -> s.contrast().conclusion() == Conclusion.PAYS_OFF)
                .findFirst()
                .map(s -> String.format(
                        Locale.ROOT,
                        "what it would gain: %s on %s is %s better than on %s on %s (the same variant, measured in"
                                + " this run)",
                        s.variant(),
                        s.to(),
                        ConclusionsMarkdown.ratio(s.contrast().ratio()),
                        s.from(),
                        dev.loommatrix.core.stats.Speedup.metricWords(
                                s.contrast().metric())));
    }

    /** A scheduler setting that beat the JDK's default beyond the band, per JDK and CPU limit. */
    private static List<String> settings(RunConclusions.Subject subject) {
        List<String> out = new ArrayList<>();
        subject.steps().stream()
                .filter(s ->
                        List.of("parallelism", "maxPoolSize", "minRunnable").contains(s.axis()))
                .filter(s -> s.from().equals("auto") && s.contrast().conclusion() == Conclusion.PAYS_OFF)
                .forEach(s -> out.add(String.format(
                        Locale.ROOT,
                        "set %s %s %s: %s %s over the default",
                        s.axis(),
                        s.to(),
                        s.at().entrySet().stream()
                                .filter(e ->
                                        e.getKey().equals("jdk") || e.getKey().equals("cpus"))
                                .map(e -> ConclusionsMarkdown.clause(
                                        new BoundaryRules.Clause(e.getKey(), List.of(e.getValue()))))
                                .collect(Collectors.joining(" ")),
                        s.variant(),
                        ConclusionsMarkdown.ratio(s.contrast().ratio()))));
        return out;
    }
}
