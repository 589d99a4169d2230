package dev.loommatrix.runner.ab;

import dev.loommatrix.core.compare.CompareReport;
import dev.loommatrix.core.compare.SequentialPlan;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.result.RunStatus;
import dev.loommatrix.core.testing.TestMatrices;
import dev.loommatrix.runner.run.MatrixRun;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An A/B run of the real loop ({@link AbRun#run}) on two {@link FakeBackend}s and a {@link ScriptedClock}: the
 * settings as {@code ab --budget} makes them (the plan's looks from the first pass to {@code --max-pairs}, the
 * confirmation as many pairs as the first pass, the budget's last look up to 400 pairs, back-to-back pairs).
 */
final class FakeAb {

    /** The fixture's cell: JDK 25 in a 1-CPU container, forks of 2 warmup + 5 measured iterations (the nested t). */
    static final String ONE_CELL =
            """
            schema: 1
            jdks: [{id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}]
            cpus: [1]
            workloads:
            %s
            repetitions: 3
            warmup: 1
            iterations: {warmup: 2, measure: 5}
            memory: 1g
            pids: 20000
            """;

    static final Instant START = Instant.parse("2026-11-28T12:00:00Z");

    /** What the run left: its report, what it said, what each side's engine ran, and the plan it had. */
    record Result(
            CompareReport report,
            String console,
            List<FakeBackend.Ran> baseline,
            List<FakeBackend.Ran> candidate,
            SequentialPlan plan,
            Duration took) {

        CompareReport.Sequential sequential() {
            return report.ab().sequential();
        }

        /** The pairs the engines measured for a cell: the blocks of each side, which must agree. */
        long pairsRun(String cellId) {
            long a = baseline.stream().filter(r -> r.cellId().equals(cellId)).count();
            long b = candidate.stream().filter(r -> r.cellId().equals(cellId)).count();
            if (a != b) {
                throw new AssertionError(cellId + ": " + a + " baseline blocks, " + b + " candidate blocks");
            }
            return a;
        }
    }

    /** The knobs of {@code ab} this run is given. */
    record Options(int firstPass, int maxPairs, double threshold, double alpha, Duration budget) {}

    private FakeAb() {}

    /** The cells of a matrix of these workloads (YAML list items), on the fixture's JDK and limits. */
    static List<Cell> cells(String workloads) throws Exception {
        return TestMatrices.plan(ONE_CELL.formatted(workloads.indent(2)));
    }

    static Result run(Path root, long seed, List<Cell> cells, Map<String, FakeBackend.CellModel> models, Options o)
            throws Exception {
        ScriptedClock clock = new ScriptedClock(START);
        FakeBackend baselineEngine = FakeBackend.baseline(seed, clock, models);
        FakeBackend candidateEngine = FakeBackend.candidate(seed, clock, models);
        SequentialPlan plan = SequentialPlan.of(o.firstPass(), Math.max(o.firstPass(), o.maxPairs()), o.alpha());
        AbRun.Settings settings = new AbRun.Settings(
                plan,
                Map.of(),
                plan.firstPass(),
                o.threshold(),
                Optional.of(o.budget()),
                MatrixRun.BackendChoice.LOCAL,
                Map.of(),
                MatrixRun.OnDisturbed.RERUN,
                400,
                AbRun.Pairing.BACK_TO_BACK);
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        AbRun run = new AbRun(root, new PrintStream(console, true, StandardCharsets.UTF_8), settings, clock);
        AbRun.Outcome outcome = run.run(
                side("baseline", "ab-fake-baseline", cells, baselineEngine),
                side("candidate", "ab-fake", cells, candidateEngine));
        if (outcome.stopped() || outcome.failedCells() > 0) {
            // what each side's record says of the cell: the reason a block failed
            StringBuilder why = new StringBuilder();
            for (var side : List.of(run.candidateDir(), run.baselineDir())) {
                for (var record : side.readCells()) {
                    why.append(record.cellId())
                            .append(": ")
                            .append(record.status())
                            .append(' ');
                    why.append(record.reason().orElse("")).append('\n');
                }
            }
            throw new AssertionError("the fake run failed: " + console.toString(StandardCharsets.UTF_8) + why);
        }
        return new Result(
                outcome.report(),
                console.toString(StandardCharsets.UTF_8),
                baselineEngine.ran(),
                candidateEngine.ran(),
                plan,
                Duration.between(START, clock.instant()));
    }

    private static AbRun.Side side(String label, String runId, List<Cell> cells, FakeBackend engine) {
        RunManifest manifest = new RunManifest(
                1,
                runId,
                START.toString(),
                Optional.empty(),
                RunStatus.RUNNING,
                "test",
                new RunManifest.Git("unknown", "unknown", false),
                RunManifest.Host.of("linux", "fake", "fake", 2, 1L << 32),
                new RunManifest.MatrixInfo("m.yaml", Optional.empty(), "00", Optional.empty()),
                cells.stream().map(Cell::id).toList());
        return new AbRun.Side(label, cells, manifest, Optional.empty(), engine, Optional.empty());
    }
}
