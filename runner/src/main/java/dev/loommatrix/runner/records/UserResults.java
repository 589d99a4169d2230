package dev.loommatrix.runner.records;

import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.stats.Summary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a user workload's variant's runs ({@link AgentLines}) into measurements: one per benchmark — a JMH benchmark
 * with its parameters ({@link JmhResults}), a benchmark a program reported ({@link BmfResults}), a service's load
 * level ({@link ServiceResults}) — whose samples are the variant's fresh JVMs, warmup runs dropped.
 */
public final class UserResults {

    /** A variant's measurements, and what went wrong with it (also when it produced no measurement). */
    public record Result(List<Measurement> measurements, Optional<String> problem) {}

    private UserResults() {}

    /** The variant's measurements, one per benchmark; a problem (a run without a score) fails the variant. */
    public static Result measurements(Cell cell, VariantRuns data, Optional<String> error) {
        UserWorkload user = cell.workload().user().orElseThrow();
        BenchmarkSeries series = new BenchmarkSeries();
        data.problem().ifPresent(series::problem);
        for (int i = 0; i < data.runs().size(); i++) {
            JvmRun run = data.runs().get(i);
            Map<String, Object> common = new LinkedHashMap<>();
            if (i < data.processMs().size()) {
                common.put("processMs", data.processMs().get(i));
            }
            int number = i + 1;
            boolean aProgram = user.artifact() instanceof UserWorkload.Program;
            run.host()
                    .collectedError()
                    .ifPresent(e -> series.problem("run " + number + ": " + (aProgram ? BmfResults.unreadable(e) : e)));
            switch (user.artifact()) {
                case UserWorkload.Jmh jmh -> JmhResults.add(jmh, user.settings(data.variant()), run, i, common, series);
                case UserWorkload.Program program -> {
                    common.putAll(JvmUse.of(List.of(run.host()), false));
                    BmfResults.add(cell.workload().id(), program, run, i, common, series);
                }
                case UserWorkload.Service service -> {
                    common.putAll(JvmUse.of(List.of(run.host()), false));
                    ServiceResults.add(
                            service,
                            data.variant(),
                            data.loads().get(i),
                            i,
                            common,
                            cell.coordinates().cpus().doubleValue(),
                            series);
                }
            }
        }
        Optional<String> problem = problem(cell, data, error, series.problems());
        List<Measurement> out = new ArrayList<>();
        for (BenchmarkSeries.Series s : series.all()) {
            out.add(measurement(data.variant(), s, problem));
        }
        return new Result(out, problem);
    }

    /** The variant's first few problems (or the engine's error), and too few runs when nothing else went wrong. */
    private static Optional<String> problem(
            Cell cell, VariantRuns data, Optional<String> error, List<String> problems) {
        int expected = cell.repetitions();
        List<String> all = new ArrayList<>(problems);
        if (all.isEmpty() && error.isEmpty() && data.runs().size() < expected) {
            all.add("only " + data.runs().size() + " of " + expected + " repetitions produced a record");
        }
        return error.or(() -> all.isEmpty()
                ? Optional.empty()
                : Optional.of(String.join("; ", all.stream().distinct().limit(5).toList())));
    }

    private static Measurement measurement(String variant, BenchmarkSeries.Series s, Optional<String> problem) {
        double[] judged = s.samples().stream()
                .flatMap(x -> x.metric(s.metric().name()).stream())
                .mapToDouble(Double::doubleValue)
                .toArray();
        double[] process = s.samples().stream()
                .flatMap(x -> x.metric("processMs").stream())
                .mapToDouble(Double::doubleValue)
                .toArray();
        return new Measurement(
                variant,
                Map.of(),
                s.metric(),
                s.samples(),
                judged.length == 0 ? Optional.empty() : Optional.of(Summary.of(judged)),
                process.length == 0 ? Optional.empty() : Optional.of(Summary.of(process)),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                problem,
                Optional.of(s.benchmark()));
    }
}
