package dev.loommatrix.core.conclude;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Optional;

/**
 * {@code loom-matrix report --format json}: a run's conclusions as a document ({@code schemas/results.schema.json},
 * {@code $defs/conclusions}). Each workload's rules name their cells; each cell's finding carries its class, its
 * contrasts with their intervals, why, and its causes.
 */
public record ConclusionsDocument(
        int schemaVersion,
        String runId,
        double thresholdPercent,
        List<Workload> conclusions,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<RunConclusions.NotRun> notRun,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Since> since) {

    public ConclusionsDocument {
        conclusions = List.copyOf(conclusions);
        notRun = notRun == null ? List.of() : List.copyOf(notRun);
        since = since == null ? Optional.empty() : since;
    }

    /**
     * In a published history, the run against the one it is compared with (its baseline there): how many conditions
     * both concluded alike, and each concluded otherwise, with what else changed between the two.
     *
     * @param commits "abc..def" between the two runs' commits, or "the same commit abc" (absent when unknown)
     */
    public record Since(
            String runId,
            String startedAt,
            @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> commits,
            int alike,
            List<Changed> changed) {
        public Since {
            changed = List.copyOf(changed);
        }
    }

    /**
     * A condition concluded otherwise than in the earlier run.
     *
     * @param alongside what else changed at this run for its cell: the JDK build, the image, the runner
     * @param changePoint a series of the cell starts a new level at this run (the trends' change points)
     */
    public record Changed(ConclusionChanges.Change change, List<String> alongside, boolean changePoint) {
        public Changed {
            alongside = List.copyOf(alongside);
        }
    }

    /** This document with what changed since the run it is compared with in the history. */
    public ConclusionsDocument since(Optional<Since> earlier) {
        return new ConclusionsDocument(schemaVersion, runId, thresholdPercent, conclusions, notRun, earlier);
    }

    /**
     * A workload (or a user's benchmark in it), its rules, its cells' findings, and its subject compared with itself
     * along each axis (another JDK, CPU limit, scheduler setting).
     */
    public record Workload(
            String workload,
            @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> benchmark,
            @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> contrast,
            List<Rule> rules,
            List<Finding> findings,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) List<AxisSteps.Step> steps) {
        public Workload {
            rules = List.copyOf(rules);
            findings = List.copyOf(findings);
            steps = List.copyOf(steps);
        }
    }

    /** Where (no clause: everywhere), the conclusion there, its cells, and the headline ratios' range among them. */
    public record Rule(
            List<BoundaryRules.Clause> where,
            Conclusion conclusion,
            List<String> cells,
            @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Double> lowestRatio,
            @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<Double> highestRatio) {
        public Rule {
            where = List.copyOf(where);
            cells = List.copyOf(cells);
        }
    }

    public static ConclusionsDocument of(String runId, RunConclusions run) {
        return new ConclusionsDocument(
                dev.loommatrix.core.result.CellRecord.SCHEMA_VERSION,
                runId,
                run.threshold() * 100,
                run.subjects().stream().map(ConclusionsDocument::workload).toList(),
                run.notRun(),
                Optional.empty());
    }

    private static Workload workload(RunConclusions.Subject s) {
        List<Finding> findings = new java.util.ArrayList<>();
        s.rules().forEach(r -> r.conditions().forEach(p -> findings.add(p.what())));
        findings.addAll(s.notValid());
        return new Workload(
                s.workload(),
                s.benchmark(),
                s.contrastWords(),
                s.rules().stream().map(ConclusionsDocument::rule).toList(),
                findings,
                s.steps());
    }

    private static Rule rule(BoundaryRules.Rule<Finding> r) {
        List<Double> ratios = r.conditions().stream()
                .flatMap(p -> p.what().headline().stream())
                .map(Finding.Contrasted::ratio)
                .sorted()
                .toList();
        return new Rule(
                r.where(),
                r.conclusion(),
                r.conditions().stream().map(p -> p.what().cellId()).toList(),
                ratios.isEmpty() ? Optional.empty() : Optional.of(ratios.get(0)),
                ratios.isEmpty() ? Optional.empty() : Optional.of(ratios.get(ratios.size() - 1)));
    }
}
