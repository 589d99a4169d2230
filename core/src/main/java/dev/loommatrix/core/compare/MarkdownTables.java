package dev.loommatrix.core.compare;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Locale;

/** The markdown's tables — the headlines and the comparisons — and how their numbers are written. */
final class MarkdownTables {

    private MarkdownTables() {}

    /**
     * Each shared cell's headline contrast before and after (issue #19): what the dashboard's matrix shows
     * first, in words once per contrast, then a row per cell — collapsed, the verdicts come first.
     */
    static void headlines(StringBuilder md, List<CompareReport.Headline> headlines) {
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

    /** A row per comparison; the noise and detectable columns where any row has them (an A/B run's). */
    static void comparisons(StringBuilder md, List<Comparison> rows) {
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
                    series(c),
                    c.metric() + (c.higherIsBetter() ? " ↑" : " ↓"),
                    number(c.baseline().median()),
                    c.baseline().n(),
                    number(c.candidate().median()),
                    c.candidate().n(),
                    (c.ratio() - 1) * 100,
                    (c.ci95().get(0) - 1) * 100,
                    (c.ci95().get(1) - 1) * 100,
                    c.ciLevel() == null ? "" : " (" + level(c.ciLevel()) + ")",
                    pValue(c)));
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

    /** "0.0123 (0.0246)", with the pairs and the test where they were paired; "—" without a p-value. */
    private static String pValue(Comparison c) {
        return Double.isNaN(c.pValue())
                ? "—"
                : String.format(Locale.ROOT, "%.3g (%.3g)", c.pValue(), c.pAdjusted())
                        + (Comparison.SIGNED_RANK.equals(c.test()) ? ", " + c.pairs() + " pairs" : "")
                        + (Comparison.NESTED_T.equals(c.test()) ? ", " + c.pairs() + " pairs, nested t" : "");
    }

    /** The variant, and a user workload's benchmark: "virtual · MyBench.run". */
    static String series(Comparison c) {
        return c.benchmark().map(b -> c.variant() + " · " + b).orElse(c.variant());
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
        return new BigDecimal(value)
                .round(new MathContext(3))
                .stripTrailingZeros()
                .toPlainString();
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
