package dev.loommatrix.core.compare;

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
        md.append("### loom-matrix: ")
                .append(report.candidate())
                .append(" against ")
                .append(report.baseline())
                .append("\n\n");
        long unchanged = count(report, Comparison.Verdict.unchanged);
        long inconclusive = count(report, Comparison.Verdict.inconclusive);
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
                        " — a change counts when it is beyond %.0f %% and significant (two-sided Mann-Whitney U,"
                                + " Benjamini–Hochberg at %.0f %% FDR).%n%n",
                        report.threshold() * 100,
                        report.alpha() * 100));
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
        if (inconclusive > 0) {
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

    private static long count(CompareReport report, Comparison.Verdict verdict) {
        return report.comparisons().stream().filter(c -> c.verdict() == verdict).count();
    }

    private static void table(StringBuilder md, List<Comparison> rows) {
        md.append(
                "| | cell | variant | metric | baseline median (n) | candidate median (n) | change | 95 % CI | p (adjusted) |\n");
        md.append("|---|---|---|---|---|---|---|---|---|\n");
        for (Comparison c : rows) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | `%s` | %s | %s | %s (%d) | %s (%d) | %+.1f %% | %+.1f %% … %+.1f %% | %s |%n",
                    icon(c.verdict()),
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
                    Double.isNaN(c.pValue())
                            ? "—"
                            : String.format(Locale.ROOT, "%.3g (%.3g)", c.pValue(), c.pAdjusted())));
        }
    }

    private static String icon(Comparison.Verdict verdict) {
        return switch (verdict) {
            case regression -> "🔴 regression";
            case improvement -> "🟢 improvement";
            case unchanged -> "unchanged";
            case inconclusive -> "❔ inconclusive";
        };
    }

    private static String number(double value) {
        return Math.abs(value) >= 100
                ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.3g", value);
    }
}
