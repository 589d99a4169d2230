package dev.loommatrix.core.conclude;

import dev.loommatrix.core.plan.Coordinates;
import dev.loommatrix.core.result.CellRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A run concluded per workload (and per benchmark of a user's workload): the fewest rules that say where its
 * conclusion changes along the matrix's axes, and the conditions that are not evidence, each with why.
 *
 * @param threshold the practical band: within ± this fraction is no material difference
 */
public record RunConclusions(double threshold, List<Subject> subjects, List<NotRun> notRun, List<String> backends) {

    public RunConclusions {
        subjects = List.copyOf(subjects);
        notRun = List.copyOf(notRun);
        backends = List.copyOf(backends);
    }

    /** What is concluded about: a workload, or one benchmark of a user's workload, and its headline contrast. */
    public record Subject(
            String workload,
            Optional<String> benchmark,
            Optional<String> contrastWords,
            List<BoundaryRules.Rule<Finding>> rules,
            List<Finding> notValid,
            List<AxisSteps.Step> steps) {
        public Subject {
            rules = List.copyOf(rules);
            notValid = List.copyOf(notValid);
            steps = List.copyOf(steps);
        }
    }

    /**
     * The cells this host did not run (no such JDK, no image), by JDK: the conditions the conclusions say nothing
     * about, said so that "which JDK?" is never answered from a JDK that was not measured.
     */
    public record NotRun(String jdk, int cells, String why) {}

    /** The practical band unless one is asked for: compare's default threshold, ±10 %. */
    public static final double DEFAULT_THRESHOLD = 0.10;

    /** The axes a rule may name, in the order a tie prefers them: JDK first, the CPU limit next. */
    public static final List<String> AXES =
            List.of("jdk", "cpus", "cpuset", "parallelism", "maxPoolSize", "minRunnable", "os");

    /**
     * The cells in the order the run planned them (its manifest's list: the matrix's order of JDKs, limits and
     * workloads), so the report follows the matrix; cells the plan does not name keep their order, after.
     */
    public static List<CellRecord> inPlanOrder(List<CellRecord> cells, List<String> planned) {
        Map<String, Integer> at = new java.util.HashMap<>();
        for (int i = 0; i < planned.size(); i++) {
            at.putIfAbsent(planned.get(i), i);
        }
        return cells.stream()
                .sorted(java.util.Comparator.comparingInt(c -> at.getOrDefault(c.cellId(), Integer.MAX_VALUE)))
                .toList();
    }

    public static RunConclusions of(List<CellRecord> cells, double threshold) {
        Map<String, List<Finding>> bySubject = new LinkedHashMap<>();
        Map<String, Optional<String>> words = new LinkedHashMap<>();
        Map<String, Optional<String>> variants = new LinkedHashMap<>();
        Map<String, List<CellRecord>> validCells = new LinkedHashMap<>();
        for (CellRecord cell : cells) {
            for (Finding f : Findings.of(cell, threshold)) {
                String key = cell.coordinates().workload()
                        + f.benchmark().map(b -> "\u0000" + b).orElse("");
                bySubject.computeIfAbsent(key, k -> new ArrayList<>()).add(f);
                words.putIfAbsent(key, cell.contrast().map(c -> c.words()));
                variants.putIfAbsent(key, cell.contrast().map(c -> c.subject()));
                if (f.conclusion() != Conclusion.NOT_VALID) {
                    validCells.computeIfAbsent(key, k -> new ArrayList<>()).add(cell);
                }
            }
        }
        List<Subject> subjects = new ArrayList<>();
        bySubject.forEach((key, findings) -> subjects.add(subject(
                findings,
                words.get(key),
                variants.get(key)
                        .map(v -> AxisSteps.of(
                                validCells.getOrDefault(key, List.of()),
                                v,
                                findings.get(0).benchmark(),
                                threshold))
                        .orElse(List.of()))));
        return new RunConclusions(threshold, subjects, notRun(cells), backends(cells));
    }

    private static Subject subject(List<Finding> findings, Optional<String> words, List<AxisSteps.Step> steps) {
        List<Finding> valid = findings.stream()
                .filter(f -> f.conclusion() != Conclusion.NOT_VALID)
                .toList();
        List<String> varying = varying(valid);
        List<BoundaryRules.Placed<Finding>> placed = valid.stream()
                .map(f -> new BoundaryRules.Placed<>(axes(f.coordinates(), varying), f.conclusion(), f))
                .toList();
        Finding first = findings.get(0);
        return new Subject(
                first.coordinates().workload(),
                first.benchmark(),
                words,
                BoundaryRules.of(placed, varying),
                findings.stream()
                        .filter(f -> f.conclusion() == Conclusion.NOT_VALID)
                        .toList(),
                steps);
    }

    /** Where the measured cells ran, in words: "in containers", "on this host's JDKs (the local backend)". */
    private static List<String> backends(List<CellRecord> cells) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        cells.stream()
                .filter(c -> c.status() != dev.loommatrix.core.result.CellStatus.SKIPPED)
                .forEach(c -> out.add(
                        c.execution().backend().equals("local")
                                ? "on this host's JDKs (the local backend"
                                        + (c.execution().fallbackReason().isPresent()
                                                ? ", not in containers: each cell's record says why"
                                                : "")
                                        + ")"
                                : "in containers"));
        return List.copyOf(out);
    }

    private static List<NotRun> notRun(List<CellRecord> cells) {
        Map<String, List<CellRecord>> byJdk = new LinkedHashMap<>();
        cells.stream()
                .filter(c -> c.status() == dev.loommatrix.core.result.CellStatus.SKIPPED)
                .forEach(c -> byJdk.computeIfAbsent(c.coordinates().jdk(), k -> new ArrayList<>())
                        .add(c));
        List<NotRun> out = new ArrayList<>();
        byJdk.forEach((jdk, skipped) ->
                out.add(new NotRun(jdk, skipped.size(), skipped.get(0).reason().orElse("not run on this host"))));
        return out;
    }

    /** The axes along which these conditions differ, in {@link #AXES}' order. */
    private static List<String> varying(List<Finding> findings) {
        List<String> out = new ArrayList<>();
        for (String axis : AXES) {
            Set<String> values = new LinkedHashSet<>();
            findings.forEach(f -> values.add(f.coordinates().axisValues().get(axis)));
            if (values.size() > 1) {
                out.add(axis);
            }
        }
        return out;
    }

    private static Map<String, String> axes(Coordinates at, List<String> varying) {
        Map<String, String> all = at.axisValues();
        Map<String, String> out = new LinkedHashMap<>();
        varying.forEach(a -> out.put(a, all.get(a)));
        return out;
    }
}
