package dev.loommatrix.core.compare;

import java.util.Comparator;
import java.util.List;

/**
 * The comparison as GitHub-flavoured markdown, for a pull-request comment or a job summary: the
 * verdict first, the top regressions and improvements in a table, every comparison in a collapsed
 * table below. {@link MarkdownAbRun} writes an A/B run's part, {@link MarkdownVerdict} the verdict and what the
 * run could resolve, {@link MarkdownTables} the tables.
 */
public final class MarkdownReport {

    static final int TOP = 10;

    private MarkdownReport() {}

    public static String render(CompareReport report) {
        StringBuilder md = new StringBuilder();
        MarkdownAbRun.header(md, report);
        MarkdownAbRun.notMeasured(md, report);
        MarkdownVerdict.conclusions(md, report);
        MarkdownVerdict.lead(md, report);
        MarkdownVerdict.counts(md, report);
        MarkdownVerdict.resolution(md, report);
        disturbed(md, report);
        MarkdownTables.headlines(md, report.headlines());
        notable(md, report);
        MarkdownVerdict.inconclusiveHint(md, report);
        details(md, report);
        uncompared(md, report);
        return md.toString();
    }

    /** Issue #32: a comparison of a cell measured beside other work stands, with this caveat, said first. */
    private static void disturbed(StringBuilder md, CompareReport report) {
        if (report.disturbed().isEmpty()) {
            return;
        }
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

    /** The top regressions, then the top improvements, the largest first. */
    private static void notable(StringBuilder md, CompareReport report) {
        List<Comparison> notable = report.comparisons().stream()
                .filter(c ->
                        c.verdict() == Comparison.Verdict.regression || c.verdict() == Comparison.Verdict.improvement)
                .sorted(Comparator.comparing((Comparison c) -> c.verdict() != Comparison.Verdict.regression)
                        .thenComparing(c -> -Math.abs(Math.log(c.ratio()))))
                .limit(TOP)
                .toList();
        if (!notable.isEmpty()) {
            MarkdownTables.comparisons(md, notable);
            md.append('\n');
        }
    }

    /** Every comparison, collapsed, with what its test's columns mean and the forks found in two modes. */
    private static void details(StringBuilder md, CompareReport report) {
        md.append("<details><summary>All ").append(report.comparisons().size()).append(" comparisons</summary>\n\n");
        MarkdownTables.comparisons(md, report.comparisons());
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
                        .append(MarkdownTables.series(c))
                        .append(": ")
                        .append(c.nested().modes()));
        md.append("\n</details>\n");
    }

    /** The series not compared: measured differently on the two sides, or on one side only. */
    private static void uncompared(StringBuilder md, CompareReport report) {
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
    }
}
