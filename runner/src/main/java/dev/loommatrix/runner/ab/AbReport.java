package dev.loommatrix.runner.ab;

import dev.loommatrix.core.compare.CompareReport;
import dev.loommatrix.core.compare.Comparison;
import dev.loommatrix.core.compare.MarkdownReport;
import dev.loommatrix.core.compare.SequentialPlan;
import dev.loommatrix.core.result.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The A/B run's verdict: each comparison as its last look or its confirmation left it, how the looks were spent,
 * how each cell's pairs were measured, the plan's own findings beside compare's — written to {@code compare.json} and
 * {@code compare.md}.
 */
final class AbReport {

    private AbReport() {}

    /** How the looks went: what {@code compare.json}'s {@code ab.sequential} says beside the plan. */
    record Looks(
            int taken,
            String ended,
            double lastLevel,
            long spentSeconds,
            Map<String, Integer> pairs,
            Map<String, String> stopped,
            Map<String, String> notRun) {}

    /** The design, as the method's words begin. */
    static final String DESIGN = "group-sequential design, Bonferroni alpha spending over the looks (each look's"
            + " tests exact at its level — the nested t, or signed-rank; Benjamini–Hochberg across comparisons at"
            + " each look";

    static final String METHOD =
            DESIGN + "; the last look taken, the plan's or the last the budget affords, spends all the alpha left)";

    /**
     * The method, as the run went: the last look taken spent all the α left when it was the plan's last or the last
     * the budget afforded; when measuring ended before either (the budget spent before its last look, every
     * comparison decided, none left that could be), that look tested at its share only, and what was left unspent is
     * said.
     *
     * @param looksTaken the looks taken, the last of them at {@code lastLevel}
     * @param ended why measuring ended ({@code ab.sequential.ended})
     */
    static String method(SequentialPlan plan, int looksTaken, double lastLevel, String ended) {
        double allLeft = plan.level(looksTaken - 1, true);
        if (lastLevel >= allLeft * (1 - 1e-9)) {
            return METHOD;
        }
        double unspent = plan.alpha() - (looksTaken - 1) * plan.levelPerLook() - lastLevel;
        return DESIGN + "; measuring ended at look " + looksTaken + " of "
                + plan.looks().size() + " ("
                + endedWords(ended) + "), that look tested at its share, alpha " + plain(lastLevel) + ": "
                + plain(unspent) + " of the alpha " + plain(plan.alpha()) + " was left unspent)";
    }

    /** Why measuring ended before the last look, in the method's words. */
    private static String endedWords(String ended) {
        return switch (ended) {
            case LookScheduler.DECIDED -> "every comparison decided";
            case LookScheduler.FUTILE -> "none of the comparisons still undecided could be decided in the pairs left";
            case LookScheduler.BUDGET -> "not one more pair fitted the budget";
            default -> ended;
        };
    }

    /** A level to three significant digits, plainly: 0.00833, 0.05. */
    private static String plain(double level) {
        return new java.math.BigDecimal(level)
                .round(new java.math.MathContext(3))
                .stripTrailingZeros()
                .toPlainString();
    }

    /**
     * Each comparison's verdict: a comparison not flagged stands as the last look gave it, unless that look left it
     * undecided; a flagged one is what its confirmation made of it.
     */
    static List<Comparison> verdicts(
            CompareReport lastLook,
            CompareReport confirmed,
            Set<String> remeasured,
            double threshold,
            int confirmBlocks) {
        Set<String> flagged = lastLook.comparisons().stream()
                .filter(LookScheduler::isFlagged)
                .map(AbReport::key)
                .collect(java.util.stream.Collectors.toSet());
        List<Comparison> verdicts = new ArrayList<>();
        for (Comparison c : confirmed.comparisons()) {
            Comparison before = lastLook.comparisons().stream()
                    .filter(f -> key(f).equals(key(c)))
                    .findFirst()
                    .orElse(c);
            if (!remeasured.contains(c.cellId()) || !flagged.contains(key(c))) {
                verdicts.add(SequentialPlan.decided(before, threshold) ? before : before.undecided());
                continue;
            }
            verdicts.add(afterConfirmation(before, c, threshold, confirmBlocks));
        }
        return verdicts;
    }

    /**
     * A flagged comparison after its confirmation: confirmed when all its pairs ({@code all}) still say what the
     * look that flagged it ({@code flagged}) said; not confirmed, it is what all its pairs now say — inconclusive
     * where its interval still straddles the threshold (a 2.0 % slowdown at {@code --threshold 2} read "unchanged"
     * with its interval at +1.3 … +2.7 %).
     */
    static Comparison afterConfirmation(Comparison flagged, Comparison all, double threshold, int extraPairs) {
        boolean confirmed = all.verdict() == flagged.verdict();
        Comparison judged = confirmed || SequentialPlan.decided(all, threshold) ? all : all.undecided();
        return judged.withConfirmation(new Comparison.Confirmation(extraPairs, flagged.verdict(), confirmed));
    }

    /** The A/B run's report: compare's of all the pairs, with these verdicts and what the run did. */
    static CompareReport of(
            CompareReport compared,
            List<Comparison> verdicts,
            AbRun.Settings settings,
            AbRun.Side baseline,
            AbRun.Side candidate,
            AbSides.Matched matched,
            List<String> remeasured,
            Looks looks,
            Map<String, String> pairing) {
        CompareReport.Sequential sequential = new CompareReport.Sequential(
                method(settings.plan(), looks.taken(), looks.lastLevel(), looks.ended()),
                settings.plan().looks(),
                settings.plan().levelPerLook(),
                settings.budget().map(java.time.Duration::toSeconds).orElse(null),
                looks.spentSeconds(),
                looks.taken(),
                looks.ended(),
                looks.pairs(),
                settings.notMeasured(),
                looks.lastLevel(),
                looks.stopped(),
                looks.notRun());
        return withPlanLists(
                compared.asAbRun(
                        new CompareReport.AbRun(
                                baseline.label(),
                                candidate.label(),
                                matched.differences(),
                                settings.blocks(),
                                settings.confirmBlocks(),
                                List.copyOf(remeasured),
                                sequential,
                                pairing),
                        verdicts),
                matched,
                settings.alpha());
    }

    /** {@code compare.json} and {@code compare.md} in the run's directory. */
    static void write(Path root, CompareReport report) throws IOException {
        Json.writeAtomically(root.resolve("compare.json"), report);
        Files.writeString(root.resolve("compare.md"), MarkdownReport.render(report), StandardCharsets.UTF_8);
    }

    /**
     * The plan's own findings (cells on one side only, cells defined differently) beside compare's, and the
     * false-alarm rate of the whole run.
     */
    private static CompareReport withPlanLists(CompareReport report, AbSides.Matched matched, double alpha) {
        List<String> onlyBaseline = new ArrayList<>(matched.onlyBaseline());
        onlyBaseline.addAll(report.onlyInBaseline());
        List<String> onlyCandidate = new ArrayList<>(matched.onlyCandidate());
        onlyCandidate.addAll(report.onlyInCandidate());
        List<CompareReport.NotComparable> unlike = new ArrayList<>(matched.notComparable());
        unlike.addAll(report.notComparable());
        return new CompareReport(
                report.schemaVersion(),
                report.baseline(),
                report.candidate(),
                report.threshold(),
                alpha, // the rate spent over every look; each look tested at the plan's level per look
                report.comparisons(),
                report.regressions(),
                report.improvements(),
                onlyBaseline,
                onlyCandidate,
                unlike,
                report.repetitionsNeeded(),
                report.resolution(),
                report.ab(),
                report.headlines(),
                report.disturbed(),
                report.conclusions());
    }

    /** The pairs each cell got, by its id: as the report says them (a cell not run here got none, and is not among them). */
    static Map<String, Integer> pairsById(AbSides.Matched matched, int[] pairs, Set<String> notRun) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i++) {
            String id = matched.pairs().get(i).candidate().id();
            if (!notRun.contains(id)) {
                out.put(id, pairs[i]);
            }
        }
        return out;
    }

    /** A comparison's identity across looks. */
    static String key(Comparison c) {
        return c.cellId() + "\u0000" + c.series();
    }
}
