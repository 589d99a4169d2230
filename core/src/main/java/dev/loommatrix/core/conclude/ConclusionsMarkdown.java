package dev.loommatrix.core.conclude;

import dev.loommatrix.core.plan.Coordinates;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A run's conclusions in words (issue #51): per workload, where the subject pays off, makes no difference, hurts or
 * cannot be told apart from the best alternative measured, in the fewest rules; the causes each condition measured;
 * the conditions that are not evidence, and why. Every condition named links to its cell.
 */
public final class ConclusionsMarkdown {

    private ConclusionsMarkdown() {}

    public static String render(RunConclusions run, ConclusionLinks links) {
        StringBuilder out = new StringBuilder();
        out.append("## What this run concludes\n\n");
        out.append(String.format(
                Locale.ROOT,
                "Each condition (a cell: one JDK, CPU limit and scheduler setting) compares the workload's subject"
                        + " with the best alternative it measured. Beyond a practical band of ±%s %% in the"
                        + " subject's favour it **pays off**; wholly inside the band it makes **no difference**;"
                        + " beyond it the other way it **hurts**; an interval that reaches across an edge of the band"
                        + " **cannot tell**. Failed, disturbed or unattested cells are **not valid** and never"
                        + " counted.\n",
                trim(run.threshold() * 100)));
        out.append('\n').append(measured(run)).append('\n');
        if (!run.notRun().isEmpty()) {
            out.append("\nNot run on this host, so concluded nowhere below: ")
                    .append(run.notRun().stream()
                            .map(n -> n.jdk() + " (" + n.cells() + (n.cells() == 1 ? " cell" : " cells") + ": "
                                    + n.why() + ")")
                            .collect(Collectors.joining("; ")))
                    .append(".\n");
        }
        for (RunConclusions.Subject subject : run.subjects()) {
            out.append('\n').append(heading(subject)).append('\n');
            subject.contrastWords().ifPresent(w -> out.append("\n_").append(w).append("_\n"));
            out.append('\n');
            if (subject.rules().isEmpty()) {
                out.append("- no valid condition: nothing to conclude\n");
            }
            boolean someNotValid = !subject.notValid().isEmpty();
            for (BoundaryRules.Rule<Finding> rule : subject.rules()) {
                out.append("- ").append(sentence(rule, someNotValid, links)).append('\n');
                RuleDetails.others(rule, links, out);
                RuleDetails.causes(rule, links, out);
            }
            RuleDetails.steps(subject, links, out);
            List<String> advice = Advice.of(subject, someNotValid);
            if (!advice.isEmpty()) {
                out.append("- **what to do**: ")
                        .append(String.join("; ", advice))
                        .append('\n');
            }
            for (Finding f : subject.notValid()) {
                out.append("- not valid: ")
                        .append(link(condition(f.coordinates()), links.cell(f.cellId())))
                        .append(" — ")
                        .append(f.why().orElse(""))
                        .append('\n');
            }
        }
        out.append(METHOD);
        return out.toString();
    }

    /** How the numbers are made, folded: a reader who distrusts them can check each step against a cell file. */
    static final String METHOD = "\n<details><summary>How this is computed</summary>\n\n"
            + "Each repetition is a fresh JVM (a fork); its value is the median of its measured iterations (or its one"
            + " run). A ratio is of the two variants' medians over their forks, oriented so that above 1 the subject"
            + " is better (its time lower, its throughput higher, its memory per thread lower). Its interval is"
            + " distribution-free: of the n₁·n₂ ratios between every fork of one variant and every fork of the other,"
            + " sorted, the k-th from each end (Moses' interval, the one that goes with the Mann-Whitney test, on the"
            + " log scale), at the level it really has — 3 forks against 3 reach 90 % at most (the whole range of the 9"
            + " ratios), 5 against 5 reach 95 %. The class compares that interval with the practical band. The rules"
            + " are the fewest clauses along the matrix's axes that give every valid condition its class. A cause is"
            + " only what the cell recorded: its JFR profile where it was profiled, else what every fork counts itself"
            + " (pinned parks, allocation, collections), the variants' times against their bounds, and the load"
            + " generator's latencies. Each cell file has its forks' values (`measurements`), the ratios"
            + " (`speedups`, each said in words) and the JVM's own report of its settings (`environment`).\n"
            + "</details>\n";

    /** What was measured: the conditions (JDK and CPU limit) and where the cells ran, before any conclusion. */
    private static String measured(RunConclusions run) {
        Map<String, java.util.Set<String>> cpusByJdk = new LinkedHashMap<>();
        java.util.Set<String> backends = new java.util.TreeSet<>();
        for (RunConclusions.Subject subject : run.subjects()) {
            for (BoundaryRules.Rule<Finding> rule : subject.rules()) {
                for (BoundaryRules.Placed<Finding> p : rule.conditions()) {
                    Coordinates c = p.what().coordinates();
                    // the JDK's id as the matrix names it, and what it is: "debian-21 (JDK 21, HotSpot)"
                    cpusByJdk
                            .computeIfAbsent(
                                    c.jdk() + " (JDK " + c.version() + ", " + vmName(c.vm()) + ")",
                                    k -> new java.util.TreeSet<>())
                            .add(cpus(c.cpus().toPlainString()));
                }
            }
        }
        backends.addAll(run.backends());
        if (cpusByJdk.isEmpty()) {
            return "Measured: no valid condition.";
        }
        return "Measured: "
                + cpusByJdk.entrySet().stream()
                        .map(e -> e.getKey() + " at " + String.join(" and ", e.getValue()))
                        .collect(Collectors.joining("; "))
                + (backends.isEmpty() ? "" : " — " + String.join(" and ", backends))
                + ". A rule below holds in these conditions only.";
    }

    private static String vmName(String vm) {
        return switch (vm) {
            case "hotspot" -> "HotSpot";
            case "openj9" -> "OpenJ9";
            default -> vm;
        };
    }

    private static String heading(RunConclusions.Subject subject) {
        return "### " + subject.workload()
                + subject.benchmark().map(b -> " · " + b).orElse("");
    }

    /**
     * "**pays off** on d25: virtual against the best other (pool:100): 3.1–5.6× — [d25, 1 CPU](…), [d25, 2 CPUs](…)"; a
     * headline over a weaker variant said beside it.
     */
    static String sentence(BoundaryRules.Rule<Finding> rule, boolean someNotValid, ConclusionLinks links) {
        List<Finding> cells =
                rule.conditions().stream().map(BoundaryRules.Placed::what).toList();
        String where = rule.where().isEmpty()
                ? everywhere(someNotValid)
                : rule.where().stream().map(ConclusionsMarkdown::clause).collect(Collectors.joining(" "));
        StringBuilder s = new StringBuilder("**" + rule.conclusion().words() + "** " + where);
        List<Finding.Contrasted> deciding = cells.stream()
                .flatMap(f -> f.overBest().or(f::headline).stream())
                .toList();
        if (!deciding.isEmpty()) {
            Set<String> subjects = new LinkedHashSet<>();
            Set<String> references = new LinkedHashSet<>();
            deciding.forEach(c -> {
                subjects.add(c.subject());
                references.add(c.reference());
            });
            List<Double> ratios =
                    deciding.stream().map(Finding.Contrasted::ratio).sorted().toList();
            s.append(": ")
                    .append(String.join(" / ", subjects))
                    .append(
                            cells.stream().allMatch(f -> f.alternatives() == 1)
                                    ? " against the one other variant measured ("
                                    : " against the best other (")
                    .append(String.join(", ", references))
                    .append("), on ")
                    .append(deciding.stream()
                            .map(c -> dev.loommatrix.core.stats.Speedup.metricWords(c.metric()))
                            .distinct()
                            .collect(Collectors.joining(" / ")))
                    .append(": ");
            if (deciding.size() > 1 && deciding.size() <= EACH_CONDITION_UP_TO && deciding.size() == cells.size()) {
                // a few conditions: each one's own number, so "which JDK?" is read off, not guessed from a range
                List<String> each = new ArrayList<>();
                for (int i = 0; i < cells.size(); i++) {
                    Finding.Contrasted c = deciding.get(i);
                    each.add(String.format(
                            Locale.ROOT,
                            "%s [%s–%s] on %s",
                            c.ratioWords(ratio(c.ratio())),
                            trimRatio(c.low()),
                            trimRatio(c.high()),
                            condition(cells.get(i).coordinates())));
                }
                s.append(String.join("; ", each)).append(levels(deciding));
            } else {
                // a capacity that was only a lower bound makes its ratio a floor or a ceiling: said with the number
                Set<Optional<Finding.Bound>> bounds =
                        deciding.stream().map(Finding.Contrasted::bound).collect(Collectors.toSet());
                String said = range(ratios.get(0), ratios.get(ratios.size() - 1));
                s.append(
                                bounds.size() == 1
                                        ? deciding.get(0).ratioWords(said)
                                        : said + " (a floor or a ceiling where a capacity was only a lower bound)")
                        .append(intervals(deciding));
            }
        }
        List<String> notes = new ArrayList<>();
        for (Finding f : cells) {
            if (f.overBest().isPresent() && f.headline().isPresent()) {
                Finding.Contrasted h = f.headline().get();
                notes.add(String.format(
                        Locale.ROOT,
                        "over %s, the headline's reference, %s (%s)",
                        h.reference(),
                        h.ratioWords(ratio(h.ratio())),
                        h.conclusion().words()));
            }
        }
        for (Finding f : cells) {
            f.tail()
                    .ifPresent(t -> notes.add(String.format(
                            Locale.ROOT,
                            "at p99 latency%s, %s's is %s lower than %s's [%s–%s] — %s",
                            cells.size() > 1 ? " on " + condition(f.coordinates()) : "",
                            t.subject(),
                            ratio(t.ratio()),
                            t.reference(),
                            trimRatio(t.low()),
                            trimRatio(t.high()),
                            t.conclusion().words())));
        }
        cells.stream().flatMap(f -> f.why().stream()).distinct().forEach(notes::add);
        for (Finding f : cells) {
            f.caveats()
                    .forEach(c -> notes.add(
                            "caveat" + (cells.size() > 1 ? " on " + condition(f.coordinates()) : "") + ": " + c));
        }
        notes.stream().distinct().forEach(n -> s.append("; ").append(n));
        s.append(" — ")
                .append(cells.stream()
                        .map(f -> link(condition(f.coordinates()), links.cell(f.cellId())))
                        .collect(Collectors.joining(", ")));
        return s.toString();
    }

    /**
     * A rule without clauses: it holds in every condition this run measured — never "everywhere", since a run
     * measures the conditions its matrix and host allowed (the report's first lines say which).
     */
    static String everywhere(boolean someNotValid) {
        return someNotValid ? "in every valid condition measured" : "in every condition measured";
    }

    /** Up to this many conditions in a rule, each is said with its own number; more, as a range. */
    static final int EACH_CONDITION_UP_TO = 4;

    /** The intervals' coverage, when the conditions are said one by one: " (90 % intervals)". */
    private static String levels(List<Finding.Contrasted> deciding) {
        double level = deciding.stream()
                .mapToDouble(c -> c.level().orElse(Double.NaN))
                .min()
                .orElse(Double.NaN);
        return Double.isNaN(level) ? "" : String.format(Locale.ROOT, " (%.0f %% intervals)", level * 100);
    }

    /** How sure: one condition's interval and its coverage, or the span of several conditions' intervals. */
    private static String intervals(List<Finding.Contrasted> deciding) {
        double low =
                deciding.stream().mapToDouble(Finding.Contrasted::low).min().orElse(Double.NaN);
        double high =
                deciding.stream().mapToDouble(Finding.Contrasted::high).max().orElse(Double.NaN);
        double level = deciding.stream()
                .mapToDouble(c -> c.level().orElse(Double.NaN))
                .min()
                .orElse(Double.NaN);
        String coverage = Double.isNaN(level) ? "" : String.format(Locale.ROOT, ", %.0f %% interval", level * 100);
        return String.format(
                Locale.ROOT,
                " [%s–%s%s%s]",
                trimRatio(low),
                trimRatio(high),
                coverage,
                deciding.size() > 1 ? "s, lowest to highest" : "");
    }

    /** A condition in the reader's words: "d25, 2 CPUs", with its scheduler settings where they are set. */
    static String condition(Coordinates c) {
        StringBuilder s =
                new StringBuilder(c.jdk()).append(", ").append(cpus(c.cpus().toPlainString()));
        if (!c.cpuset().equals(Coordinates.ALL_CPUS)) {
            s.append(" on CPUs ").append(c.cpuset());
        }
        if (!c.parallelism().equals("auto")) {
            s.append(", parallelism ").append(c.parallelism());
        }
        if (!c.maxPoolSize().equals("auto")) {
            s.append(", maxPoolSize ").append(c.maxPoolSize());
        }
        if (!c.minRunnable().equals("auto")) {
            s.append(", minRunnable ").append(c.minRunnable());
        }
        return s.toString();
    }

    /** One clause in words: "on d25", "at 1 or 2 CPUs", "with parallelism 2". */
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

    /** An axis value as a reader names it: "d25", "2 CPUs", "parallelism 2". */
    static String value(String axis, String v) {
        return switch (axis) {
            case "jdk", "os" -> v;
            case "cpus" -> cpus(v);
            default -> axis + " " + v;
        };
    }

    private static String cpus(String n) {
        return n + (n.equals("1") ? " CPU" : " CPUs");
    }

    static String link(String text, String url) {
        return "[" + text + "](" + url + ")";
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

    static String trimRatio(double r) {
        return r >= 10 ? String.format(Locale.ROOT, "%.0f", r) : String.format(Locale.ROOT, "%.3g", r);
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
