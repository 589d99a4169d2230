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
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<RunConclusions.NotRun> notRun) {

    public ConclusionsDocument {
        conclusions = List.copyOf(conclusions);
        notRun = notRun == null ? List.of() : List.copyOf(notRun);
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
                run.notRun());
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
