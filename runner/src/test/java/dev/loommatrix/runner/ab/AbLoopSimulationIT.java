package dev.loommatrix.runner.ab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.compare.Comparison;
import dev.loommatrix.core.plan.Cell;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The false-alarm rate and the power of {@code ab --budget}, measured through the real loop ({@link AbRun#run}: its
 * looks, the budget's last look, futility, confirmation) on {@link FakeBackend}: 1,000 A/A runs and 1,000 runs whose
 * candidate is 5 % slower, each one cell of one comparison judged by the nested t (forks of 5 measured iterations),
 * forks 3.5 % apart and iterations 1 % (a pair's log-ratio 5 %: the ab profile's median comparison), the machine drifting 5 % from pair to pair, 10 s a fork, {@code --threshold 3
 * --budget 10m}, α 5 %. About 0.1–0.3 s a run (every block is a real run directory, merged and compared: 256–572 s for
 * the 2,000 on a loaded 2-CPU machine), so it runs in the IT phase.
 */
class AbLoopSimulationIT {

    static final int RUNS = Integer.getInteger("ab.simulation.runs", 1_000);
    static final double ALPHA = 0.05;

    static final FakeBackend.CellModel CELL =
            new FakeBackend.CellModel(50, 0, 0.035, 0.01, 0.05, Duration.ofSeconds(10));

    /**
     * What docs/ab-method.md and docs/statistics.md state for this simulation (seeds 1 … 1,000 and 1,000,001 …
     * 1,001,000): A/A runs with a false alarm, 4 of 1,000, and +5 % runs whose regression was found and confirmed,
     * 923 of 1,000.
     */
    static final double STATED_FALSE_ALARMS = 0.004;

    static final double STATED_POWER = 0.923;

    /** What a batch of runs came to. */
    record Tally(int runs, int flagged, Map<String, Integer> ended, double meanPairs) {
        double rate() {
            return (double) flagged / runs;
        }
    }

    @Test
    void falseAlarmsAndPowerThroughTheRealLoop(@TempDir Path fallback) throws Exception {
        List<Cell> cells = FakeAb.cells("- {id: sleep-bound, variants: [virtual], params: {tasks: 1000, sleepMs: 50}}");
        Path scratch = Files.isDirectory(Path.of("/dev/shm")) && Files.isWritable(Path.of("/dev/shm"))
                ? Path.of("/dev/shm")
                : fallback;
        long began = System.nanoTime();
        Tally aa = batch(scratch, cells, CELL, 1);
        Tally shifted = batch(scratch, cells, CELL.withEffect(0.05), 1_000_001);
        System.out.printf(
                Locale.ROOT,
                "ab --budget 10m --threshold 3 on the fake engine, %d runs each (%.0f s): A/A false alarms %d (%.2f %%),"
                        + " ended %s, %.1f pairs a run; +5 %%: caught %d (%.1f %%), ended %s, %.1f pairs a run%n",
                RUNS,
                (System.nanoTime() - began) / 1e9,
                aa.flagged(),
                100 * aa.rate(),
                aa.ended(),
                aa.meanPairs(),
                shifted.flagged(),
                100 * shifted.rate(),
                shifted.ended(),
                shifted.meanPairs());

        // the design's promise: at most α of A/A runs with a false alarm, the simulation's own noise allowed three
        // binomial standard errors at α (1,000 runs: 2.1 points)
        assertThat(aa.rate()).isLessThanOrEqualTo(ALPHA + 3 * Math.sqrt(ALPHA * (1 - ALPHA) / RUNS));
        // the figures docs/ab-method.md states: the runs are seeded, so they come out exactly as stated until the
        // loop changes; a change of the loop within three binomial standard errors of a stated figure (false alarms
        // 0.6 points, power 2.5 points at 1,000 runs) is within what another set of seeds would show, beyond them
        // the docs must follow
        assertThat(aa.rate()).isLessThanOrEqualTo(STATED_FALSE_ALARMS + 3 * standardError(STATED_FALSE_ALARMS));
        assertThat(shifted.rate()).isGreaterThanOrEqualTo(STATED_POWER - 3 * standardError(STATED_POWER));
    }

    /** The binomial standard error of a rate p over this many runs. */
    private static double standardError(double p) {
        return Math.sqrt(p * (1 - p) / RUNS);
    }

    private static Tally batch(Path scratch, List<Cell> cells, FakeBackend.CellModel model, long firstSeed)
            throws Exception {
        int flagged = 0;
        long pairs = 0;
        Map<String, Integer> ended = new TreeMap<>();
        for (int i = 0; i < RUNS; i++) {
            Path dir = Files.createTempDirectory(scratch, "ab-simulation");
            try {
                FakeAb.Result run = FakeAb.run(
                        dir,
                        firstSeed + i,
                        cells,
                        Map.of("sleep-bound", model),
                        new FakeAb.Options(6, 40, 0.03, ALPHA, Duration.ofMinutes(10)));
                Comparison c = run.report().comparisons().get(0);
                flagged += c.verdict() == Comparison.Verdict.regression || c.verdict() == Comparison.Verdict.improvement
                        ? 1
                        : 0;
                pairs += run.sequential().pairs().get(cells.get(0).id());
                ended.merge(run.sequential().ended(), 1, Integer::sum);
            } finally {
                delete(dir);
            }
        }
        return new Tally(RUNS, flagged, ended, (double) pairs / RUNS);
    }

    private static void delete(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
