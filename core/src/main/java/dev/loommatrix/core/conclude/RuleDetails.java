package dev.loommatrix.core.conclude;

import dev.loommatrix.core.plan.Coordinates;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The lines under a rule of the report ({@link ConclusionsMarkdown}): the causes its conditions measured, the variants
 * far from the subject, and the subject compared with itself along an axis.
 */
final class RuleDetails {

    private RuleDetails() {}

    /**
     * The causes under a rule, a line each; one said alike in several conditions (no profile in any of them) once,
     * with each condition linked.
     */
    static void causes(BoundaryRules.Rule<Finding> rule, ConclusionLinks links, StringBuilder out) {
        Map<String, List<Finding>> byWords = new LinkedHashMap<>();
        for (BoundaryRules.Placed<Finding> placed : rule.conditions()) {
            placed.what().causes().forEach(c -> byWords.computeIfAbsent(c.words(), w -> new ArrayList<>())
                    .add(placed.what()));
        }
        byWords.forEach((words, cells) -> out.append("  - why, ")
                .append(cells.stream()
                        .map(f -> ConclusionsMarkdown.link(
                                ConclusionsMarkdown.condition(f.coordinates()), links.why(f.cellId())))
                        .collect(Collectors.joining(", ")))
                .append(": ")
                .append(words)
                .append('\n'));
    }

    /**
     * The other variants that differ from the subject beyond the band, a line per condition: "also measured,
     * [temurin-25, 2 CPUs]: class-init against synchronized 0.254× [0.241–0.268] — worse".
     */
    static void others(BoundaryRules.Rule<Finding> rule, ConclusionLinks links, StringBuilder out) {
        for (BoundaryRules.Placed<Finding> placed : rule.conditions()) {
            Finding f = placed.what();
            if (f.others().isEmpty()) {
                continue;
            }
            out.append("  - also measured, ")
                    .append(ConclusionsMarkdown.link(
                            ConclusionsMarkdown.condition(f.coordinates()), links.cell(f.cellId())))
                    .append(": ")
                    .append(f.others().stream()
                            .map(c -> String.format(
                                    Locale.ROOT,
                                    "%s against %s %s [%s–%s] — %s",
                                    c.subject(),
                                    c.reference(),
                                    ConclusionsMarkdown.ratio(c.ratio()),
                                    ConclusionsMarkdown.trimRatio(c.low()),
                                    ConclusionsMarkdown.trimRatio(c.high()),
                                    c.conclusion() == Conclusion.HURTS ? "worse" : "better"))
                            .collect(Collectors.joining("; ")))
                    .append('\n');
        }
    }

    /**
     * The subject compared with itself along an axis: "virtual on temurin-25 against temurin-21, at 2 CPUs: 1.02×
     * [0.98–1.06] — no difference".
     */
    static void steps(RunConclusions.Subject subject, ConclusionLinks links, StringBuilder out) {
        for (AxisSteps.Step step : subject.steps()) {
            Finding.Contrasted c = step.contrast();
            String at = step.at().entrySet().stream()
                    .filter(e -> !e.getValue().equals("auto") && !e.getValue().equals(Coordinates.ALL_CPUS))
                    .filter(e -> !e.getKey().equals("os"))
                    .map(e -> ConclusionsMarkdown.clause(new BoundaryRules.Clause(e.getKey(), List.of(e.getValue()))))
                    .collect(Collectors.joining(" "));
            out.append(String.format(
                    Locale.ROOT,
                    "- %s %s against %s%s: %s [%s–%s%s] — **%s** (%s, %s)%n",
                    step.variant(),
                    ConclusionsMarkdown.clause(new BoundaryRules.Clause(step.axis(), List.of(step.to()))),
                    step.from(),
                    at.isEmpty() ? "" : ", " + at,
                    ConclusionsMarkdown.ratio(c.ratio()),
                    ConclusionsMarkdown.trimRatio(c.low()),
                    ConclusionsMarkdown.trimRatio(c.high()),
                    c.level()
                            .map(l -> String.format(Locale.ROOT, ", %.0f %%", l * 100))
                            .orElse(""),
                    c.conclusion().words(),
                    ConclusionsMarkdown.link(
                            ConclusionsMarkdown.value(step.axis(), step.from()), links.cell(step.fromCell())),
                    ConclusionsMarkdown.link(
                            ConclusionsMarkdown.value(step.axis(), step.to()), links.cell(step.toCell()))));
        }
    }
}
