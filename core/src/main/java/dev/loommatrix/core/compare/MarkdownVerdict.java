package dev.loommatrix.core.compare;

import dev.loommatrix.core.stats.NestedPaired;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The verdict's part of the markdown: the verdict that was reached (none at all is not "no regression"), the counts
 * with the test that gave them, what the run could resolve, and what an inconclusive comparison would need.
 */
final class MarkdownVerdict {

    private MarkdownVerdict() {}

    /** The verdict that was reached leads: none at all is not "no regression". */
    /**
     * What the two sides conclude, before any count (issue #51): the conditions whose answer changed — pays off, no
     * difference or hurts, at the comparison's threshold as the practical band — or that none did.
     */
    static void conclusions(StringBuilder md, CompareReport report) {
        CompareReport.Conclusions both = report.conclusions();
        if (both == null || (both.alike() == 0 && both.changed().isEmpty())) {
            return;
        }
        if (both.changed().isEmpty()) {
            md.append(String.format(
                    Locale.ROOT,
                    "**The answer is the same on both sides**: in %s both sides concluded on, the subject"
                            + " (virtual threads, most often) against the best alternative measured pays off, makes no"
                            + " difference or hurts alike (a practical band of ±%.0f %%).%n%n",
                    both.alike() == 1 ? "the one condition" : "each of the " + both.alike() + " conditions",
                    both.band() * 100));
            return;
        }
        md.append(String.format(
                Locale.ROOT,
                "**The answer changed in %d of %d %s** both sides concluded on (the subject against the best"
                        + " alternative measured, a practical band of ±%.0f %%):%n",
                both.changed().size(),
                both.changed().size() + both.alike(),
                both.changed().size() + both.alike() == 1 ? "condition" : "conditions",
                both.band() * 100));
        both.changed().forEach(c -> md.append("- ").append(c.words()).append('\n'));
        md.append('\n');
    }

    static void lead(StringBuilder md, CompareReport report) {
        long inconclusive = count(report, Comparison.Verdict.inconclusive);
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
    }

    /** The counts, and what made a change count: the threshold, the test, the FDR, confirmation. */
    static void counts(StringBuilder md, CompareReport report) {
        CompareReport.AbRun ab = report.ab();
        double lookLevel = MarkdownAbRun.lookLevel(report);
        md.append(report.regressions() > 0 ? "**" + report.regressions() + " regression(s)**" : "No regression")
                .append(", ")
                .append(report.improvements())
                .append(" improvement(s), ")
                .append(count(report, Comparison.Verdict.unchanged))
                .append(" unchanged, ")
                .append(count(report, Comparison.Verdict.inconclusive))
                .append(" inconclusive")
                .append(String.format(
                        Locale.ROOT,
                        " — a change counts when it is beyond %.0f %% and significant (%s, Benjamini–Hochberg at"
                                + " %s %% FDR%s)%s.%n%n",
                        report.threshold() * 100,
                        testWords(report),
                        MarkdownTables.plain(lookLevel * 100),
                        lookLevel < report.alpha() ? " at each look" + MarkdownAbRun.lastLookWords(report) : "",
                        ab != null && ab.confirmBlocks() > 0
                                ? String.format(
                                        Locale.ROOT,
                                        ", and a change flagged in the first pass counts only when %d more block"
                                                + " pairs of its cell confirm it",
                                        ab.confirmBlocks())
                                : ""));
    }

    /** The tests the comparisons used, in words. */
    private static String testWords(CompareReport report) {
        if (report.comparisons().stream().anyMatch(c -> Comparison.NESTED_T.equals(c.test()))) {
            return "two-sided paired t on the paired forks' means of their iterations (the fork"
                    + " the unit) where every fork measured iterations in one mode, else Wilcoxon"
                    + " signed-rank on the pairs, else Mann-Whitney U; each row says which";
        }
        return report.comparisons().stream().anyMatch(c -> Comparison.SIGNED_RANK.equals(c.test()))
                ? "two-sided Wilcoxon signed-rank on the back-to-back block pairs where pairing"
                        + " can reach significance, else Mann-Whitney U"
                : "two-sided Mann-Whitney U";
    }

    /** What an A/B run could resolve: the baseline against itself, and the smallest change it could detect. */
    static void resolution(StringBuilder md, CompareReport report) {
        CompareReport.Resolution resolution = report.resolution();
        if (resolution == null) {
            return;
        }
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

    /** What an inconclusive comparison would need: more pairs (an A/B run), or more repetitions. */
    static void inconclusiveHint(StringBuilder md, CompareReport report) {
        if (count(report, Comparison.Verdict.inconclusive) == 0) {
            return;
        }
        if (report.ab() != null) {
            CompareReport.Resolution resolution = report.resolution();
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
            return;
        }
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

    static long count(CompareReport report, Comparison.Verdict verdict) {
        return report.comparisons().stream().filter(c -> c.verdict() == verdict).count();
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
        Optional<Comparison> blind =
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
                        MarkdownTables.series(c)))
                .orElse("");
    }
}
