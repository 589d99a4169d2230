package dev.loommatrix.core.conclude;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Conclusions in a line (issue #51): what a cell's progress line ends with, and the run's summary — a line per
 * workload — so the console leads with the answer; {@code loom-matrix report} says why, with the links.
 */
public final class ConclusionsInBrief {

    private ConclusionsInBrief() {}

    /** At most this many workloads (or user benchmarks) are summarized at the end of a run; the report has them all. */
    static final int MAX_LINES = 20;

    /**
     * A cell's conclusion: "pays off: virtual 5.75× over pool:100 [4.37–6.14, 90 %]"; a service's with its p99
     * beside it; a user workload's several benchmarks counted by class. Empty when the cell is not valid (its line says why) or compared nothing.
     */
    public static Optional<String> cell(List<Finding> findings) {
        List<Finding> concluded = findings.stream()
                .filter(f ->
                        f.conclusion() != Conclusion.NOT_VALID && f.headline().isPresent())
                .toList();
        if (concluded.isEmpty()) {
            // a condition that could not tell without a contrast (a footprint whose resident memory fell) says why
            return findings.stream()
                    .filter(f ->
                            f.conclusion() == Conclusion.CANNOT_TELL && f.why().isPresent())
                    .findFirst()
                    .map(f -> f.conclusion().words() + ": " + f.why().get());
        }
        if (concluded.size() > 1) {
            return Optional.of(counted(concluded));
        }
        Finding f = concluded.get(0);
        Finding.Contrasted c = f.overBest().orElse(f.headline().get());
        StringBuilder s = new StringBuilder(f.benchmark().map(b -> b + ": ").orElse(""))
                .append(f.conclusion().words())
                .append(": ")
                .append(contrast(c))
                .append(f.overBest().isPresent() ? " over the best other, " : " over ")
                .append(c.reference())
                .append(' ')
                .append(interval(c));
        f.overBest().ifPresent(b -> s.append("; over ")
                .append(f.headline().get().reference())
                .append(' ')
                .append(f.headline()
                        .get()
                        .ratioWords(ConclusionsMarkdown.ratio(f.headline().get().ratio()))));
        // a service is judged on its tail as well: the p99, lower is better, against the same variant
        f.tail().ifPresent(t -> s.append("; p99 latency ")
                .append(contrast(t))
                .append(" lower than ")
                .append(t.reference())
                .append("'s ")
                .append(interval(t))
                .append(", ")
                .append(t.conclusion().words()));
        return Optional.of(s.toString());
    }

    /** The run's summary: a line per workload (or user benchmark), its rules in brief. */
    public static List<String> run(RunConclusions run) {
        List<String> lines = new ArrayList<>();
        for (RunConclusions.Subject subject : run.subjects()) {
            if (lines.size() == MAX_LINES) {
                lines.add("… " + (run.subjects().size() - MAX_LINES) + " more");
                break;
            }
            String rules = subject.rules().stream()
                    .map(r -> r.conclusion().words()
                            + (r.where().isEmpty()
                                    ? " "
                                            + ConclusionsMarkdown.everywhere(
                                                    !subject.notValid().isEmpty())
                                    : " "
                                            + r.where().stream()
                                                    .map(ConclusionsMarkdown::clause)
                                                    .collect(Collectors.joining(" ")))
                            + ratios(r))
                    .collect(Collectors.joining("; "));
            String name =
                    subject.workload() + subject.benchmark().map(b -> " · " + b).orElse("");
            lines.add(name + ": " + (rules.isEmpty() ? "nothing to conclude" : rules)
                    + (subject.notValid().isEmpty()
                            ? ""
                            : " (" + subject.notValid().size() + " not valid)"));
        }
        return lines;
    }

    private static String ratios(BoundaryRules.Rule<Finding> r) {
        List<Finding.Contrasted> deciding = r.conditions().stream()
                .flatMap(p -> p.what().overBest().or(() -> p.what().headline()).stream())
                .toList();
        List<Double> ratios =
                deciding.stream().map(Finding.Contrasted::ratio).sorted().toList();
        if (ratios.isEmpty()) {
            return "";
        }
        // as said: two conditions whose ratios print alike are one number, not "6.81–6.81×"
        String low = ConclusionsMarkdown.ratio(ratios.get(0));
        String high = ConclusionsMarkdown.ratio(ratios.get(ratios.size() - 1));
        String said = low.equals(high) ? low : low.replace("×", "") + "–" + high;
        // a capacity only bounded below makes the ratio a floor (or a ceiling): said when every condition's is one
        boolean oneBound =
                deciding.stream().map(Finding.Contrasted::bound).distinct().count() == 1;
        return " (" + (oneBound ? deciding.get(0).ratioWords(said) : said) + ")";
    }

    private static String counted(List<Finding> findings) {
        Map<Conclusion, Integer> byClass = new LinkedHashMap<>();
        for (Conclusion c : Conclusion.values()) {
            findings.stream().filter(f -> f.conclusion() == c).forEach(f -> byClass.merge(c, 1, Integer::sum));
        }
        return findings.size() + " benchmarks: "
                + byClass.entrySet().stream()
                        .map(e -> e.getValue() + " " + e.getKey().words())
                        .collect(Collectors.joining(", "));
    }

    private static String contrast(Finding.Contrasted c) {
        return c.subject() + " " + c.ratioWords(ConclusionsMarkdown.ratio(c.ratio()));
    }

    private static String interval(Finding.Contrasted c) {
        return String.format(
                Locale.ROOT,
                "[%s–%s%s]",
                ConclusionsMarkdown.ratio(c.low()).replace("×", ""),
                ConclusionsMarkdown.ratio(c.high()).replace("×", ""),
                c.level()
                        .map(l -> String.format(Locale.ROOT, ", %.0f %%", l * 100))
                        .orElse(""));
    }
}
