package dev.loommatrix.core.conclude;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A run's conclusions in words (issue #51): per workload, where virtual threads pay off, make no difference, hurt or
 * cannot be told apart, in the fewest rules; then the conditions that are not evidence, and why. Every rule names
 * its cells, so each sentence can be followed to the numbers it rests on.
 */
public final class ConclusionsMarkdown {

    private ConclusionsMarkdown() {}

    public static String render(RunConclusions run) {
        StringBuilder out = new StringBuilder();
        out.append("## What this run concludes\n\n");
        out.append(String.format(
                Locale.ROOT,
                "Each condition is classed by its headline contrast's interval against a practical band of ±%s %%:"
                        + " beyond it in the subject's favour it **pays off**, wholly inside it is **no difference**,"
                        + " beyond it the other way it **hurts**; an interval that reaches across an edge **cannot"
                        + " tell**. Failed, disturbed or unattested cells are **not valid** and never counted.\n",
                trim(run.threshold() * 100)));
        for (RunConclusions.Subject subject : run.subjects()) {
            out.append('\n').append(heading(subject)).append('\n');
            subject.contrastWords()
                    .ifPresent(w -> out.append('\n').append("_").append(w).append("_\n"));
            out.append('\n');
            if (subject.rules().isEmpty()) {
                out.append("- no valid condition: nothing to conclude\n");
            }
            for (BoundaryRules.Rule<Finding> rule : subject.rules()) {
                out.append("- ").append(sentence(rule)).append('\n');
                for (BoundaryRules.Placed<Finding> placed : rule.conditions()) {
                    Finding f = placed.what();
                    f.causes().forEach(c -> out.append("  - why, in `")
                            .append(f.cellId())
                            .append("`: ")
                            .append(c.words())
                            .append('\n'));
                }
            }
            for (Finding f : subject.notValid()) {
                out.append("- not valid: `")
                        .append(f.cellId())
                        .append("` — ")
                        .append(f.why().orElse(""))
                        .append('\n');
            }
        }
        return out.toString();
    }

    private static String heading(RunConclusions.Subject subject) {
        return "### " + subject.workload()
                + subject.benchmark().map(b -> " · " + b).orElse("");
    }

    /** "**pays off** on JDK d25 at 1 CPU (2 of 2 conditions, 3.1–5.6×)". */
    static String sentence(BoundaryRules.Rule<Finding> rule) {
        List<Finding> cells =
                rule.conditions().stream().map(BoundaryRules.Placed::what).toList();
        String where = rule.where().isEmpty()
                ? "everywhere"
                : rule.where().stream().map(ConclusionsMarkdown::clause).collect(Collectors.joining(" "));
        StringBuilder s = new StringBuilder("**" + rule.conclusion().words() + "** " + where);
        List<Double> ratios = cells.stream()
                .flatMap(f -> f.headline().stream())
                .map(Finding.Contrasted::ratio)
                .sorted()
                .toList();
        s.append(" (").append(cells.size()).append(cells.size() == 1 ? " condition" : " conditions");
        if (!ratios.isEmpty()) {
            s.append(", ").append(range(ratios.get(0), ratios.get(ratios.size() - 1)));
        }
        s.append(")");
        List<String> notes = new ArrayList<>();
        cells.stream()
                .flatMap(f -> f.overBest().stream()
                        .map(b -> f.cellId() + ": " + b.subject() + " over the best other," + " " + b.reference() + ", "
                                + ratio(b.ratio()) + " — " + b.conclusion().words()))
                .forEach(notes::add);
        cells.stream().flatMap(f -> f.why().stream()).distinct().forEach(notes::add);
        if (!notes.isEmpty()) {
            s.append(": ").append(String.join("; ", notes));
        }
        s.append(" — ").append(cells.stream().map(f -> "`" + f.cellId() + "`").collect(Collectors.joining(", ")));
        return s.toString();
    }

    /** One clause in words: "on JDK d25", "at 1 or 2 CPUs", "with parallelism 2". */
    static String clause(BoundaryRules.Clause c) {
        String values = or(c.values());
        return switch (c.axis()) {
            case "jdk" -> "on " + values;
            case "cpus" -> "at " + values + (c.values().equals(List.of("1")) ? " CPU" : " CPUs");
            case "cpuset" -> "on CPUs " + values;
            case "os" -> "on " + values;
            default -> "with " + c.axis() + " " + values;
        };
    }

    private static String or(List<String> values) {
        if (values.size() == 1) {
            return values.get(0);
        }
        return String.join(", ", values.subList(0, values.size() - 1)) + " or " + values.get(values.size() - 1);
    }

    private static String range(double low, double high) {
        return low == high ? ratio(low) : trimRatio(low) + "–" + ratio(high);
    }

    static String ratio(double r) {
        return trimRatio(r) + "×";
    }

    private static String trimRatio(double r) {
        return r >= 10 ? String.format(Locale.ROOT, "%.0f", r) : String.format(Locale.ROOT, "%.3g", r);
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
