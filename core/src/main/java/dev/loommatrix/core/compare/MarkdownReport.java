package dev.loommatrix.core.compare;

import dev.loommatrix.core.stats.NestedPaired;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The comparison as GitHub-flavoured markdown, for a pull-request comment or a job summary: the
 * verdict first, the top regressions and improvements in a table, every comparison in a collapsed
 * table below.
 */
public final class MarkdownReport {

    static final int TOP = 10;

    private MarkdownReport() {}

    public static String render(CompareReport report) {
        StringBuilder md = new StringBuilder();
        CompareReport.AbRun ab = report.ab();
        if (ab != null) {
            md.append("### loom-matrix A/B: ")
                    .append(ab.candidateLabel())
                    .append(" against ")
                    .append(ab.baselineLabel())
                    .append("\n\n");
            md.append(String.format(
                    Locale.ROOT,
                    "Both sides measured in one run on one machine: at least %d block pairs per cell (each cell's"
                            + " count in `compare.json`), the sides alternating"
                            + " in balanced random order, a fresh JVM each. %s%n%n",
                    ab.blocks(),
                    ab.differences().isEmpty()
                            ? "An **A/A run**: both sides are the same, so every flag would be a false alarm."
                            : "The sides differ in: " + String.join("; ", ab.differences()) + "."));
            if (ab.pairing().values().stream().anyMatch(p -> p.startsWith("lockstep"))) {
                // --pairing lockstep: which cells' pairs were, and why the others were not
                md.append("Pairs in lockstep where a cell allows it: both sides' blocks at once, their forks taking"
                        + " turns one iteration at a time, so the machine's drift falls out of each pair.\n");
                ab.pairing().forEach((cell, how) -> md.append("- `")
                        .append(cell)
                        .append("`: ")
                        .append(how)
                        .append('\n'));
                md.append('\n');
            }
            CompareReport.Sequential sequential = ab.sequential();
            if (sequential != null && sequential.looks().size() > 1) {
                md.append(String.format(
                        Locale.ROOT,
                        "Sequential: looks at %s pairs per cell, each testing the comparisons still undecided at α"
                                + " %s%s (%s, so the false-alarm rate stays %.0f %%); %d of %d looks taken in %s%s, %s."
                                + "%n%n",
                        sequential.looks(),
                        plain(sequential.levelPerLook()),
                        lastLookWords(report),
                        sequential.method(),
                        report.alpha() * 100,
                        sequential.looksTaken(),
                        sequential.looks().size(),
                        duration(sequential.spentSeconds()),
                        sequential.budgetSeconds() == null
                                ? ""
                                : " of a " + duration(sequential.budgetSeconds()) + " budget",
                        switch (sequential.ended()) {
                            case "decided" -> "every comparison decided";
                            case "budget" -> "stopped by the budget";
                            case "futile" -> "stopped: what was undecided could not be decided in the pairs left";
                            default -> "the last look reached";
                        }));
                if (!sequential.stopped().isEmpty()) {
                    // futility: said per comparison, so "inconclusive" there reads as "could not be decided here"
                    md.append(String.format(
                            Locale.ROOT,
                            "Measured no more (futility: its interval could not clear ±%.0f %% in the pairs left;"
                                    + " inconclusive, with what it could catch): %d comparison(s).%n",
                            report.threshold() * 100,
                            sequential.stopped().size()));
                    sequential.stopped().forEach((series, why) -> md.append("- `")
                            .append(series)
                            .append("`: ")
                            .append(why)
                            .append('\n'));
                    md.append('\n');
                }
            }
        } else {
            md.append("### loom-matrix: ")
                    .append(report.candidate())
                    .append(" against ")
                    .append(report.baseline())
                    .append("\n\n");
        }
        long unchanged = count(report, Comparison.Verdict.unchanged);
        long inconclusive = count(report, Comparison.Verdict.inconclusive);
        CompareReport.Sequential sequential = report.ab() != null ? report.ab().sequential() : null;
        java.util.Map<String, String> notMeasured = sequential != null ? sequential.notMeasured() : java.util.Map.of();
        if (!notMeasured.isEmpty()) {
            // cells the budget left out have no verdict either, said before anything else
            md.append(String.format(
                    Locale.ROOT,
                    "**No verdict on %d cell(s): not measured within the budget.**%n",
                    notMeasured.size()));
            notMeasured.forEach((cell, why) ->
                    md.append("- `").append(cell).append("`: ").append(why).append('\n'));
            md.append('\n');
        }
        java.util.Map<String, String> notRun = sequential != null ? sequential.notRun() : java.util.Map.of();
        if (!notRun.isEmpty()) {
            // cells this host skipped (as run skips them): no comparison, and no part of the counts below
            md.append(String.format(Locale.ROOT, "%d cell(s) not run on this host, so not compared:%n", notRun.size()));
            notRun.forEach((cell, why) ->
                    md.append("- `").append(cell).append("`: ").append(why).append('\n'));
            md.append('\n');
        }
        // the verdict that was reached leads: none at all is not "no regression"
        if (report.comparisons().isEmpty()) {
            md.append("**No verdict: nothing was compared** — no cell was measured on both sides.\n\n");
        } else if (inconclusive > 0 && inconclusive == report.comparisons().size()) {
            md.append(String.format(
                    Locale.ROOT,
                    "**No verdict: %d of %d comparisons inconclusive** — the data could not tell a change beyond"
                            + " %.0f %% from none (below: what would).%n%n",
                    inconclusive,
                    report.comparisons().size(),
                    report.threshold() * 100));
        } else if (inconclusive > 0) {
            md.append(String.format(
                    Locale.ROOT,
                    "**No verdict on %d of %d comparisons** (inconclusive); the others:%n%n",
                    inconclusive,
                    report.comparisons().size()));
        }
        md.append(report.regressions() > 0 ? "**" + report.regressions() + " regression(s)**" : "No regression")
                .append(", ")
                .append(report.improvements())
                .append(" improvement(s), ")
                .append(unchanged)
                .append(" unchanged, ")
                .append(inconclusive)
                .append(" inconclusive")
                .append(String.format(
                        Locale.ROOT,
                        " — a change counts when it is beyond %.0f %% and significant (%s, Benjamini–Hochberg at"
                                + " %s %% FDR%s)%s.%n%n",
                        report.threshold() * 100,
                        report.comparisons().stream().anyMatch(c -> Comparison.NESTED_T.equals(c.test()))
                                ? "two-sided paired t on the paired forks' means of their iterations (the fork"
                                        + " the unit) where every fork measured iterations in one mode, else Wilcoxon"
                                        + " signed-rank on the pairs, else Mann-Whitney U; each row says which"
                                : report.comparisons().stream().anyMatch(c -> Comparison.SIGNED_RANK.equals(c.test()))
                                        ? "two-sided Wilcoxon signed-rank on the back-to-back block pairs where pairing"
                                                + " can reach significance, else Mann-Whitney U"
                                        : "two-sided Mann-Whitney U",
                        plain(lookLevel(report) * 100),
                        lookLevel(report) < report.alpha() ? " at each look" + lastLookWords(report) : "",
                        ab != null && ab.confirmBlocks() > 0
                                ? String.format(
                                        Locale.ROOT,
                                        ", and a change flagged in the first pass counts only when %d more block"
                                                + " pairs of its cell confirm it",
                                        ab.confirmBlocks())
                                : ""));
        CompareReport.Resolution resolution = report.resolution();
        if (resolution != null) {
            md.append(String.format(
                    Locale.ROOT,
                    "**What this run could resolve.** The baseline against itself (its odd blocks against its even"
                            + " ones) differed by %.1f %% (median of %d comparisons; at most %.1f %%). %s"
                            + "%s%n%n",
                    resolution.aToAMedian() * 100,
                    resolution.comparisons(),
                    resolution.aToAMax() * 100,
                    resolution.detectableMedian() == null
                            ? (report.comparisons().stream().anyMatch(c -> c.detectable() != null)
                                    ? "Half of the comparisons or more could have detected no change at all (each row"
                                            + " says its own)."
                                    : "No comparison could have detected a change.")
                            : String.format(
                                            Locale.ROOT,
                                            "The smallest change a comparison could have detected: %.1f %% (median; each"
                                                    + " row says its own).",
                                            resolution.detectableMedian() * 100)
                                    + worst(report),
                    pairsNeeded(report, resolution.pairsNeeded())));
        }
        if (!report.disturbed().isEmpty()) {
            // issue #32: a comparison of a cell measured beside other work stands, with this caveat, said first
            md.append("**Measured beside other work** (the cells' numbers are kept; their changes may be the"
                    + " neighbours'):\n");
            report.disturbed().forEach(d -> md.append("- `")
                    .append(d.cellId())
                    .append("`, ")
                    .append(d.side())
                    .append(": ")
                    .append(d.figure())
                    .append('\n'));
            md.append('\n');
        }
        headlines(md, report.headlines());
        List<Comparison> notable = report.comparisons().stream()
                .filter(c ->
                        c.verdict() == Comparison.Verdict.regression || c.verdict() == Comparison.Verdict.improvement)
                .sorted(Comparator.comparing((Comparison c) -> c.verdict() != Comparison.Verdict.regression)
                        .thenComparing(c -> -Math.abs(Math.log(c.ratio()))))
                .limit(TOP)
                .toList();
        if (!notable.isEmpty()) {
            table(md, notable);
            md.append('\n');
        }
        if (inconclusive > 0 && ab != null) {
            md.append(String.format(
                    Locale.ROOT,
                    "Inconclusive: its interval still holds both a change beyond %.0f %% and less than that. More"
                            + " pairs narrow it: `ab --blocks N` for the first pass (%s at least %d),"
                            + " `--budget` for later looks at the undecided ones; the detectable column says what each"
                            + " could resolve.%n%n",
                    report.threshold() * 100,
                    report.comparisons().size() == 1
                            ? "1 comparison needs"
                            : report.comparisons().size() + " comparisons need",
                    // no resolution before 4 blocks a side: what the paired test needs among this many, still
                    pairsToDecide(
                            report,
                            resolution == null
                                    ? SequentialPlan.pairsNeeded(
                                            report.alpha(), report.comparisons().size())
                                    : resolution.pairsNeeded())));
        } else if (inconclusive > 0) {
            long tested = report.comparisons().stream()
                    .filter(c -> !Double.isNaN(c.pValue()))
                    .count();
            md.append(String.format(
                    Locale.ROOT,
                    "Inconclusive: with %d comparison(s), these sample sizes could not reach significance even for"
                            + " a complete separation (the smallest p of n against n is 2 / C(2n, n), and it must"
                            + " pass %.0f %% / %d); at least %d repetitions per side are needed, more where the noise"
                            + " is near the threshold.%n%n",
                    tested,
                    report.alpha() * 100,
                    tested,
                    report.repetitionsNeeded()));
        }
        md.append("<details><summary>All ").append(report.comparisons().size()).append(" comparisons</summary>\n\n");
        table(md, report.comparisons());
        if (report.comparisons().stream().anyMatch(c -> Comparison.SIGNED_RANK.equals(c.test()))) {
            md.append("\nWhere a row says \"pairs\", its change is the Hodges–Lehmann estimate over the pairs' ratios"
                    + " (it can differ from the ratio of the two medians beside it), and its interval goes with it.\n");
        }
        if (report.comparisons().stream().anyMatch(c -> Comparison.NESTED_T.equals(c.test()))) {
            md.append("\nWhere a row says \"nested t\", each fork's iterations were averaged (on the log scale) and the"
                    + " pairs' differences of those means tested: the fork, not the iteration, is the independent"
                    + " unit, since a fork's iterations share its JIT's decisions.\n");
        }
        report.comparisons().stream()
                .filter(c -> c.nested() != null && c.nested().modes() != null)
                .forEach(c -> md.append("\n- `")
                        .append(c.cellId())
                        .append("` ")
                        .append(c.benchmark().map(b -> c.variant() + " · " + b).orElse(c.variant()))
                        .append(": ")
                        .append(c.nested().modes()));
        md.append("\n</details>\n");
        if (!report.notComparable().isEmpty()) {
            md.append("\nNot comparable (measured differently on the two sides):\n");
            report.notComparable().forEach(n -> md.append("- `")
                    .append(n.cellId())
                    .append("` ")
                    .append(n.series())
                    .append(": ")
                    .append(n.reason())
                    .append('\n'));
        }
        if (!report.onlyInBaseline().isEmpty() || !report.onlyInCandidate().isEmpty()) {
            md.append("\nNot compared (on one side only):\n");
            report.onlyInBaseline()
                    .forEach(id -> md.append("- baseline only: `").append(id).append("`\n"));
            report.onlyInCandidate()
                    .forEach(id -> md.append("- candidate only: `").append(id).append("`\n"));
        }
        return md.toString();
    }

    /**
     * Each shared cell's headline contrast before and after (issue #19): what the dashboard's matrix shows
     * first, in words once per contrast, then a row per cell — collapsed, the verdicts come first.
     */
    private static void headlines(StringBuilder md, List<CompareReport.Headline> headlines) {
        if (headlines.isEmpty()) {
            return;
        }
        md.append("<details><summary>Headlines: ")
                .append(headlines.size())
                .append(" cell(s), each workload's declared contrast before and after</summary>\n\n");
        headlines.stream().map(CompareReport.Headline::words).distinct().forEach(w -> md.append("- ")
                .append(w)
                .append('\n'));
        md.append("\n| cell | headline | baseline | candidate |\n|---|---|---|---|\n");
        for (CompareReport.Headline h : headlines) {
            md.append("| `")
                    .append(h.cellId())
                    .append("` | ")
                    .append(h.subject())
                    .append(h.reference().map(r -> " vs " + r).orElse(" of its bound"))
                    .append(" | ")
                    .append(h.baseline().map(v -> side(h, v)).orElse("—"))
                    .append(" | ")
                    .append(h.candidate().map(v -> side(h, v)).orElse("—"))
                    .append(" |\n");
        }
        md.append("\n</details>\n\n");
    }

    /** "0.127× (0.127–0.128)" for a speedup, "73 %" for an efficiency. */
    private static String side(CompareReport.Headline h, CompareReport.Side v) {
        if (h.kind().equals("efficiency")) {
            return String.format(Locale.ROOT, "%.0f %%", v.value() * 100);
        }
        String ratio = String.format(Locale.ROOT, "%.3g×", v.value());
        return v.ci95() == null || v.ci95().size() != 2
                ? ratio
                : ratio
                        + String.format(
                                Locale.ROOT,
                                " (%.3g–%.3g)",
                                v.ci95().get(0),
                                v.ci95().get(1));
    }

    private static long count(CompareReport report, Comparison.Verdict verdict) {
        return report.comparisons().stream().filter(c -> c.verdict() == verdict).count();
    }

    private static void table(StringBuilder md, List<Comparison> rows) {
        boolean resolving = rows.stream().anyMatch(c -> c.noise() != null);
        md.append(
                "| | cell | variant | metric | baseline median (n) | candidate median (n) | change | interval (its level) | p (adjusted) |"
                        + (resolving ? " noise | detectable |" : "") + "\n");
        md.append("|---|---|---|---|---|---|---|---|---|" + (resolving ? "---|---|" : "") + "\n");
        for (Comparison c : rows) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | `%s` | %s | %s | %s (%d) | %s (%d) | %+.1f %% | %+.1f %% … %+.1f %%%s | %s |",
                    verdict(c),
                    c.cellId(),
                    c.benchmark().map(b -> c.variant() + " · " + b).orElse(c.variant()),
                    c.metric() + (c.higherIsBetter() ? " ↑" : " ↓"),
                    number(c.baseline().median()),
                    c.baseline().n(),
                    number(c.candidate().median()),
                    c.candidate().n(),
                    (c.ratio() - 1) * 100,
                    (c.ci95().get(0) - 1) * 100,
                    (c.ci95().get(1) - 1) * 100,
                    c.ciLevel() == null ? "" : " (" + level(c.ciLevel()) + ")",
                    Double.isNaN(c.pValue())
                            ? "—"
                            : String.format(Locale.ROOT, "%.3g (%.3g)", c.pValue(), c.pAdjusted())
                                    + (Comparison.SIGNED_RANK.equals(c.test()) ? ", " + c.pairs() + " pairs" : "")
                                    + (Comparison.NESTED_T.equals(c.test())
                                            ? ", " + c.pairs() + " pairs, nested t"
                                            : "")));
            if (resolving) {
                md.append(String.format(
                        Locale.ROOT,
                        " %s | %s |",
                        c.noise() == null ? "—" : String.format(Locale.ROOT, "%.1f %%", c.noise() * 100),
                        c.detectable() == null
                                ? "none at this n"
                                : String.format(Locale.ROOT, "≥ %.1f %%", c.detectable() * 100)));
            }
            md.append('\n');
        }
    }

    /** The verdict, and for a change an A/B run measured again, whether more pairs confirmed it. */
    private static String verdict(Comparison c) {
        Comparison.Confirmation confirmation = c.confirmation();
        if (confirmation == null) {
            return icon(c.verdict());
        }
        return confirmation.confirmed()
                ? icon(c.verdict()) + ", confirmed after " + confirmation.extraPairs() + " more pairs"
                : icon(c.verdict()) + " (first pass: " + confirmation.firstVerdict() + "; not confirmed by "
                        + confirmation.extraPairs() + " more pairs)";
    }

    private static String icon(Comparison.Verdict verdict) {
        return switch (verdict) {
            case regression -> "🔴 regression";
            case improvement -> "🟢 improvement";
            case unchanged -> "unchanged";
            case inconclusive -> "❔ inconclusive";
        };
    }

    /** 3 significant digits, no trailing zeros: 5, 1.25, 0.0125. */
    static String plain(double value) {
        return new java.math.BigDecimal(value)
                .round(new java.math.MathContext(3))
                .stripTrailingZeros()
                .toPlainString();
    }

    /** The level each comparison was tested at: a sequential run's level per look, else α. */
    private static double lookLevel(CompareReport report) {
        return report.ab() != null && report.ab().sequential() != null
                ? report.ab().sequential().levelPerLook()
                : report.alpha();
    }

    /** ", the last at 3.33 %" when the last look taken tested at more than the others (the budget made it last). */
    private static String lastLookWords(CompareReport report) {
        CompareReport.Sequential s = report.ab() == null ? null : report.ab().sequential();
        return s != null && s.lastLevel() != null && s.lastLevel() > s.levelPerLook() * 1.0001
                ? " (the last look taken, at " + plain(s.lastLevel() * 100) + " %: all the α the others left)"
                : "";
    }

    private static String duration(long seconds) {
        return seconds >= 120 ? (seconds + 30) / 60 + " min" : seconds + " s";
    }

    /**
     * What the run's tests need before they can say anything among this many comparisons: the signed-rank test's
     * pairs ({@code signedRankNeeds}: 2 / 2ⁿ ≤ α / m), the nested t's {@link NestedPaired#MIN_PAIRS} where every
     * fork measured iterations — each said for the comparisons that used it (the signed-rank count said of nested-t
     * rows would tell a team at 9 pairs that none could be significant).
     */
    private static String pairsNeeded(CompareReport report, int signedRankNeeds) {
        long nested = report.comparisons().stream()
                .filter(c -> Comparison.NESTED_T.equals(c.test()))
                .count();
        int m = report.comparisons().size();
        if (nested == 0) {
            return String.format(
                    Locale.ROOT,
                    " With %s, fewer than %d pairs per cell cannot reach significance at all.",
                    m == 1 ? "1 comparison" : m + " comparisons",
                    signedRankNeeds);
        }
        if (nested == m) {
            return String.format(
                    Locale.ROOT,
                    " Every comparison used the nested t, which needs %d pairs per cell to say anything; past that"
                            + " its pairs' noise sets what it can resolve.",
                    NestedPaired.MIN_PAIRS);
        }
        return String.format(
                Locale.ROOT,
                " With %d comparisons, fewer than %d pairs per cell cannot reach significance at all in the %d that"
                        + " did not use the nested t; the nested t (%d of them) needs %d.",
                m,
                signedRankNeeds,
                m - nested,
                nested,
                NestedPaired.MIN_PAIRS);
    }

    /** The pairs the inconclusive comparisons' tests need at least: the most any of them needs. */
    private static int pairsToDecide(CompareReport report, int signedRankNeeds) {
        return report.comparisons().stream()
                .filter(c -> c.verdict() == Comparison.Verdict.inconclusive)
                .mapToInt(c -> Comparison.NESTED_T.equals(c.test()) ? NestedPaired.MIN_PAIRS : signedRankNeeds)
                .max()
                .orElse(signedRankNeeds);
    }

    /** The comparison that could detect the least, named: what a reader must not take as covered. */
    private static String worst(CompareReport report) {
        List<Comparison> rows = report.comparisons();
        java.util.Optional<Comparison> blind =
                rows.stream().filter(Comparison::detectsNothing).findFirst();
        if (blind.isPresent()) {
            return " The worst: `" + blind.get().cellId() + "` " + blind.get().variant()
                    + " could have detected no change at all.";
        }
        return rows.stream()
                .filter(c -> c.detectable() != null)
                .max(Comparator.comparingDouble(Comparison::detectable))
                .map(c -> String.format(
                        Locale.ROOT,
                        " The worst: %.1f %% (`%s` %s).",
                        c.detectable() * 100,
                        c.cellId(),
                        c.benchmark().map(b -> c.variant() + " · " + b).orElse(c.variant())))
                .orElse("");
    }

    /** An interval's level as a percentage that says it: 95 %, 96.9 %, 99.88 % (never a rounded 100 %). */
    static String level(double level) {
        double percent = level * 100;
        if (Math.abs(percent - Math.rint(percent)) < 0.005 && percent < 100) {
            return String.format(Locale.ROOT, "%.0f %%", percent);
        }
        for (int digits = 1; digits < 6; digits++) {
            String text = String.format(Locale.ROOT, "%." + digits + "f", percent);
            if (Double.parseDouble(text) < 100 || percent >= 100) {
                return text + " %";
            }
        }
        return String.format(Locale.ROOT, "%.6f %%", percent);
    }

    private static String number(double value) {
        return Math.abs(value) >= 100
                ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.3g", value);
    }
}
