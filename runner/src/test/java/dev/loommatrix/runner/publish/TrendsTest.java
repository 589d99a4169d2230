package dev.loommatrix.runner.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.result.RunStatus;
import dev.loommatrix.core.testing.SyntheticRuns;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue #16, case 6: a history series is one cell under one profile, and pull-request runs are shown but
 * never make a change point. Before, quick-profile dispatches (600 ms) among nightly runs (15,000 ms) and a
 * pull request's slower unmerged code opened change points in the nightly series.
 */
class TrendsTest {

    static RunManifest manifest(String runId, String profile, String trigger) {
        return new RunManifest(
                1,
                runId,
                "2026-11-" + runId.substring(1) + "T02:00:00Z",
                Optional.empty(),
                RunStatus.FINISHED,
                trigger,
                new RunManifest.Git("abc", trigger.equals("pull_request") ? "feature" : "main", false),
                RunManifest.Host.of("Linux", "6", "cpu", 2, 1L << 30),
                new RunManifest.MatrixInfo("matrix.yaml", Optional.of(profile), "0", Optional.empty()),
                List.of(),
                List.of());
    }

    static List<CellRecord> cell(long seed, double wallMs) {
        return List.of(SyntheticRuns.cell(
                "sleep-bound", "t21", "virtual", "wallMs", SyntheticRuns.samples(seed, 5, wallMs, 0.01)));
    }

    @Test
    void aSeriesIsOneProfileAndPullRequestsNeverMakeAChangePoint() {
        Trends.Builder builder = new Trends.Builder();
        for (int day = 10; day < 28; day++) {
            builder.add(manifest("r" + day, "full", "schedule"), cell(day, 15_000));
            if (day % 4 == 0) {
                builder.add(manifest("r" + day + "q", "quick", "workflow_dispatch"), cell(day * 7L, 600));
            }
            if (day % 5 == 0) {
                builder.add(manifest("r" + day + "p", "full", "pull_request"), cell(day * 11L, 20_000));
            }
        }
        Trends trends = builder.build();
        // each series twice: the judged metric, and the cold start (a single run's value is one)
        assertThat(trends.series()).extracting(Trends.Series::metric).containsOnly("wallMs", "coldStartMs");
        List<Trends.Series> steady = wallTime(trends);
        assertThat(steady).hasSize(2);
        Trends.Series nightly = steady.stream()
                .filter(s -> s.profile().equals(Optional.of("full")))
                .findFirst()
                .orElseThrow();
        assertThat(nightly.points()).hasSize(18 + 4); // the pull requests are shown
        assertThat(nightly.changePoints()).as("no level from unmerged code").isEmpty();
        Trends.Series quick = steady.stream()
                .filter(s -> s.profile().equals(Optional.of("quick")))
                .findFirst()
                .orElseThrow();
        assertThat(quick.points()).hasSize(4);
    }

    @Test
    void aRealStepInTheNightlySeriesIsStillFound() {
        Trends.Builder builder = new Trends.Builder();
        for (int day = 10; day < 28; day++) {
            builder.add(manifest("r" + day, "full", "schedule"), cell(day, day < 19 ? 15_000 : 18_000));
        }
        assertThat(wallTime(builder.build()).get(0).changePoints()).containsExactly("r19");
    }

    static List<Trends.Series> wallTime(Trends trends) {
        return trends.series().stream().filter(s -> s.metric().equals("wallMs")).toList();
    }

    /**
     * Issue #18: when a matrix starts iterating inside each fork, its steady state opens a new series (a fork's
     * warm median is not the next point after single cold runs — that drop would read as a huge improvement),
     * while the cold start goes on in one series: a fork's first iteration is what a single run measured.
     */
    @Test
    void iteratingStartsANewSteadySeriesAndTheColdStartGoesOn() {
        var design = new dev.loommatrix.core.matrix.Iterations(2, 5);
        Trends.Builder builder = new Trends.Builder();
        for (int day = 10; day < 20; day++) {
            builder.add(manifest("r" + day, "full", "schedule"), cell(day, 500));
        }
        for (int day = 20; day < 28; day++) {
            builder.add(
                    manifest("r" + day, "full", "schedule"),
                    List.of(SyntheticRuns.iteratedCell(
                            "sleep-bound",
                            "t21",
                            "virtual",
                            design,
                            SyntheticRuns.samples(day, 5, 300, 0.01),
                            SyntheticRuns.samples(day * 3L, 5, 500, 0.01))));
        }
        Trends trends = builder.build();
        List<Trends.Series> steady = wallTime(trends);
        assertThat(steady).hasSize(2);
        assertThat(steady)
                .filteredOn(s -> s.iterations().equals(Optional.of("2+5")))
                .singleElement()
                .satisfies(s -> assertThat(s.points()).hasSize(8));
        assertThat(steady)
                .filteredOn(s -> s.iterations().isEmpty())
                .singleElement()
                .satisfies(s -> assertThat(s.points()).hasSize(10));
        assertThat(trends.series())
                .filteredOn(s -> s.metric().equals("coldStartMs"))
                .singleElement()
                .satisfies(s -> {
                    assertThat(s.points()).hasSize(18);
                    assertThat(s.changePoints())
                            .as("the cold start did not move")
                            .isEmpty();
                });
    }

    /**
     * Issue #54: the headline over the runs — the tile's number, virtual threads' speedup over the fastest other
     * variant, with its interval — is a series of its own, its step found as a variant's is, a pull request's shown
     * but never a level, and kept with its JDK's part.
     */
    @Test
    void theHeadlineIsASeriesOfItsOwnWithItsIntervalAndItsStep() throws Exception {
        Trends.Builder builder = new Trends.Builder();
        for (int day = 10; day < 28; day++) {
            // the speedup halves from day 19 on, each run within 1 % of its level
            double level = (day < 19 ? 1.0 : 0.5) * (1 + 0.01 * (day % 3));
            builder.add(manifest("r" + day, "full", "schedule"), List.of(speedupScaled(level)));
            if (day % 5 == 0) {
                builder.add(manifest("r" + day + "p", "full", "pull_request"), List.of(speedupScaled(3)));
            }
        }
        Trends trends = builder.build();
        HeadlineSeries head = trends.headlineSeries().getFirst();
        assertThat(trends.headlineSeries()).hasSize(1);
        assertThat(head.words()).isEqualTo(golden().contrast().orElseThrow().words());
        assertThat(head.kind()).isEqualTo("speedup");
        assertThat(head.points()).hasSize(18 + 4);
        assertThat(head.points().getFirst().median()).isCloseTo(9.404698272657676 * 1.01, within(1e-9));
        assertThat(head.points().getFirst().ci95().orElseThrow())
                .containsExactly(9.208605708402446 * 1.01, 9.548996999069656 * 1.01);
        assertThat(head.changePoints())
                .as("the step, and no level from a pull request")
                .containsExactly("r19");
        assertThat(trends.byJdk().get("debian-25").headlineSeries()).containsExactly(head);
        assertThat(trends.byWorkload().get("sleep-bound").headlineSeries()).containsExactly(head);
    }

    static CellRecord golden() throws Exception {
        return dev.loommatrix.core.result.Json.MAPPER.readValue(
                java.nio.file.Path.of("src/test/resources/golden/cell-sleep-bound-iterated.json")
                        .toFile(),
                CellRecord.class);
    }

    /** The golden iterated sleep-bound cell, its speedups (the headline's number and interval) scaled. */
    static CellRecord speedupScaled(double factor) throws Exception {
        var cell = (com.fasterxml.jackson.databind.node.ObjectNode) dev.loommatrix.core.result.Json.MAPPER.readTree(
                java.nio.file.Path.of("src/test/resources/golden/cell-sleep-bound-iterated.json")
                        .toFile());
        for (var sp : cell.get("speedups")) {
            var o = (com.fasterxml.jackson.databind.node.ObjectNode) sp;
            o.put("ratio", o.get("ratio").asDouble() * factor);
            var ci = (com.fasterxml.jackson.databind.node.ArrayNode) o.get("ci95");
            o.set(
                    "ci95",
                    dev.loommatrix.core.result.Json.MAPPER
                            .createArrayNode()
                            .add(ci.get(0).asDouble() * factor)
                            .add(ci.get(1).asDouble() * factor));
        }
        return dev.loommatrix.core.result.Json.MAPPER.treeToValue(cell, CellRecord.class);
    }
}
