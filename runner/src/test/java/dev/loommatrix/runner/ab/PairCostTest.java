package dev.loommatrix.runner.ab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.Planner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The pair-cost model ({@link PairCost}, what the plan's budget and the first pass's ETA take a pair to cost) held to
 * what pairs took: {@code benchmarks/results/2026-11-27-ab-steady/b2b-aa-1}, the ab profile on the offline image,
 * back to back (what the model prices: one side's block, then the other's), a steady 2-CPU machine, its first pass
 * of 6 pairs per cell as its console said it ("[1/7] …mass-start: 6 pairs in 22 s"). The fixture keeps the run's log
 * and the matrix file it ran (the repository's at 8a0a9c5).
 */
class PairCostTest {

    static final Path RUN = Path.of("src/test/resources/fixtures/ab/2026-11-27-ab-steady");

    /** Each cell's recorded first pass: its pairs and the whole seconds they took (the log truncates). */
    record Recorded(int pairs, long seconds) {
        /** The least a pair took, in ms (the seconds as said), and the most (a second more). */
        double leastMs() {
            return seconds * 1000.0 / pairs;
        }

        double mostMs() {
            return (seconds + 1) * 1000.0 / pairs;
        }
    }

    static Map<String, Recorded> recorded() throws Exception {
        Pattern line = Pattern.compile("^\\[\\d+/\\d+] (\\S+): (\\d+) pairs in (\\d+) s — ETA .*$");
        Map<String, Recorded> out = new LinkedHashMap<>();
        for (String l : Files.readAllLines(RUN.resolve("b2b-aa-1.log"))) {
            Matcher m = line.matcher(l);
            if (m.matches()) {
                out.put(m.group(1), new Recorded(Integer.parseInt(m.group(2)), Long.parseLong(m.group(3))));
            }
        }
        return out;
    }

    static List<Cell> cells() throws Exception {
        return Planner.plan(MatrixParser.parse(RUN.resolve("matrix.yaml"), Optional.of("ab-offline")));
    }

    private static String workload(String cellId) {
        return cellId.substring(cellId.lastIndexOf('.') + 1);
    }

    /**
     * Six of the seven cells' pairs are priced within 0.8–1.5× of what they took (sleep-bound 0.88–0.92×, primes-io
     * 0.83–0.85×, mass-start 1.18–1.24×, fib-fanout 1.24–1.29×, thread-local 1.27–1.33×, pinning 1.34–1.42×);
     * their round (one pair of each) within 15 %.
     */
    @Test
    void aPairIsPricedNearWhatItTookOnTheRecordedRun() throws Exception {
        Map<String, Recorded> recorded = recorded();
        List<Cell> cells = cells();
        assertThat(recorded).hasSize(7);
        assertThat(cells).extracting(Cell::id).containsExactlyInAnyOrderElementsOf(recorded.keySet());
        double modelRound = 0;
        double leastRound = 0;
        double mostRound = 0;
        for (Cell cell : cells) {
            Recorded r = recorded.get(cell.id());
            assertThat(r.pairs()).isEqualTo(6);
            if (workload(cell.id()).equals("echo-server")) {
                continue;
            }
            double model = PairCost.pairMs(cell);
            assertThat(model / r.mostMs()).as(workload(cell.id())).isGreaterThanOrEqualTo(0.8);
            assertThat(model / r.leastMs()).as(workload(cell.id())).isLessThanOrEqualTo(1.5);
            modelRound += model;
            leastRound += r.leastMs();
            mostRound += r.mostMs();
        }
        assertThat(modelRound / mostRound).isGreaterThanOrEqualTo(0.85);
        assertThat(modelRound / leastRound).isLessThanOrEqualTo(1.15);
    }

    /**
     * echo-server is the model's known error: it prices an iteration of 100 connections × 5 messages at 150 ms, where
     * the run's 50 iterations a fork took about 25 ms each — its pair 31.5 s by the model, 7.2 s measured (4.3–4.4×),
     * so a budgeted plan can leave it out where it would fit. When the model is mended, this test says so.
     */
    @Test
    void echoServerIsPricedFourTimesWhatItTook() throws Exception {
        Cell echo = cells().stream()
                .filter(c -> workload(c.id()).equals("echo-server"))
                .findFirst()
                .orElseThrow();
        Recorded r = recorded().get(echo.id());
        double model = PairCost.pairMs(echo);
        assertThat(model / r.mostMs()).isGreaterThan(4.0);
        assertThat(model / r.leastMs()).isLessThan(4.5);
    }

    /** A pair is both sides' blocks; a side this host skips costs nothing; one block is one repetition per variant. */
    @Test
    void aSideThisHostSkipsCostsNothing() throws Exception {
        Cell cell = cells().get(0);
        double both = PairCost.pairMs(cell);
        assertThat(PairCost.pairMs(cell, true, cell, false)).isEqualTo(both / 2);
        assertThat(PairCost.pairMs(cell, false, cell, true)).isEqualTo(both / 2);
        assertThat(PairCost.pairMs(cell, false, cell, false)).isZero();
    }
}
