package dev.loommatrix.core.compare;

import java.util.Locale;
import java.util.Map;

/**
 * The A/B run's part of the markdown: what the two sides were and how they were measured, how a sequential run spent
 * its looks, the comparisons futility stopped, and the cells the budget left out or this host did not run.
 */
final class MarkdownAbRun {

    private MarkdownAbRun() {}

    /** The heading and, for an A/B run, how it was measured. */
    static void header(StringBuilder md, CompareReport report) {
        CompareReport.AbRun ab = report.ab();
        if (ab == null) {
            md.append("### loom-matrix: ")
                    .append(report.candidate())
                    .append(" against ")
                    .append(report.baseline())
                    .append("\n\n");
            return;
        }
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
            list(md, ab.pairing());
        }
        CompareReport.Sequential sequential = ab.sequential();
        if (sequential != null && sequential.looks().size() > 1) {
            looks(md, report, sequential);
        }
    }

    /** How a sequential run spent its looks, and the comparisons it measured no more (futility). */
    private static void looks(StringBuilder md, CompareReport report, CompareReport.Sequential sequential) {
        md.append(String.format(
                Locale.ROOT,
                "Sequential: looks at %s pairs per cell, each testing the comparisons still undecided at α"
                        + " %s%s (%s, so the false-alarm rate stays %.0f %%); %d of %d looks taken in %s%s, %s."
                        + "%n%n",
                sequential.looks(),
                MarkdownTables.plain(sequential.levelPerLook()),
                lastLookWords(report),
                sequential.method(),
                report.alpha() * 100,
                sequential.looksTaken(),
                sequential.looks().size(),
                duration(sequential.spentSeconds()),
                sequential.budgetSeconds() == null ? "" : " of a " + duration(sequential.budgetSeconds()) + " budget",
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
            list(md, sequential.stopped());
        }
    }

    /** The cells without a verdict for want of measuring: those the budget left out, those this host did not run. */
    static void notMeasured(StringBuilder md, CompareReport report) {
        CompareReport.Sequential sequential = report.ab() != null ? report.ab().sequential() : null;
        Map<String, String> notMeasured = sequential != null ? sequential.notMeasured() : Map.of();
        if (!notMeasured.isEmpty()) {
            // cells the budget left out have no verdict either, said before anything else
            md.append(String.format(
                    Locale.ROOT,
                    "**No verdict on %d cell(s): not measured within the budget.**%n",
                    notMeasured.size()));
            list(md, notMeasured);
        }
        Map<String, String> notRun = sequential != null ? sequential.notRun() : Map.of();
        if (!notRun.isEmpty()) {
            // cells this host skipped (as run skips them): no comparison, and no part of the counts below
            md.append(String.format(Locale.ROOT, "%d cell(s) not run on this host, so not compared:%n", notRun.size()));
            list(md, notRun);
        }
    }

    /** "- `key`: value" per entry, then a blank line. */
    private static void list(StringBuilder md, Map<String, String> entries) {
        entries.forEach((key, why) ->
                md.append("- `").append(key).append("`: ").append(why).append('\n'));
        md.append('\n');
    }

    /** The level each comparison was tested at: a sequential run's level per look, else α. */
    static double lookLevel(CompareReport report) {
        return report.ab() != null && report.ab().sequential() != null
                ? report.ab().sequential().levelPerLook()
                : report.alpha();
    }

    /** ", the last at 3.33 %" when the last look taken tested at more than the others (the budget made it last). */
    static String lastLookWords(CompareReport report) {
        CompareReport.Sequential s = report.ab() == null ? null : report.ab().sequential();
        return s != null && s.lastLevel() != null && s.lastLevel() > s.levelPerLook() * 1.0001
                ? " (the last look taken, at " + MarkdownTables.plain(s.lastLevel() * 100)
                        + " %: all the α the others left)"
                : "";
    }

    private static String duration(long seconds) {
        return seconds >= 120 ? (seconds + 30) / 60 + " min" : seconds + " s";
    }
}
