package dev.loommatrix.runner.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.result.RunStatus;
import dev.loommatrix.core.testing.SyntheticRuns;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * What the nightly's alert is given (issue #53): the steps for the worse among the main line's newest runs, each
 * with its change, interval, the two commits around it and whatever else changed there — found by the history's
 * own change-point detection on a seeded series, never a step for the better, an old one, or a pull request's.
 */
class RegressionsTest {

    static RunManifest manifest(int day, String trigger) {
        return new RunManifest(
                1,
                "r" + day + (trigger.equals("pull_request") ? "p" : ""),
                "2026-11-%02dT02:00:00Z".formatted(day),
                Optional.empty(),
                RunStatus.FINISHED,
                trigger,
                new RunManifest.Git("c" + day, "main", false),
                RunManifest.Host.of("Linux", "6", "cpu", 2, 1L << 30),
                new RunManifest.MatrixInfo("matrix.yaml", Optional.of("full"), "0", Optional.empty()),
                List.of(),
                List.of());
    }

    /** Each day's run: the virtual variant's wall time, and a second variant that got faster on the same day. */
    private static List<CellRecord> cells(int day, double virtualMs, double poolMs) {
        return List.of(
                SyntheticRuns.cell(
                        "sleep-bound", "t21", "virtual", "wallMs", SyntheticRuns.samples(day, 5, virtualMs, 0.01)),
                SyntheticRuns.cell(
                        "sleep-bound", "t21", "pool", "wallMs", SyntheticRuns.samples(day * 31L, 5, poolMs, 0.01)));
    }

    private record Published(Trends trends, History.Index index) {}

    /** Days 1 … last, nightly, 1 % noise; from day {@code step} on virtual is 10 % slower and pool 10 % faster. */
    private static Published history(int last, int step) {
        Trends.Builder builder = new Trends.Builder();
        List<History.Entry> entries = new ArrayList<>();
        for (int day = 1; day <= last; day++) {
            boolean after = day >= step;
            List<CellRecord> cells = cells(day, after ? 16_500 : 15_000, after ? 9_000 : 10_000);
            builder.add(manifest(day, "schedule"), cells);
            entries.add(IndexEntries.entry(manifest(day, "schedule"), cells));
            if (day % 3 == 0) {
                // a pull request's slower unmerged code: in the series, never a step
                List<CellRecord> pr = cells(day + 100, 30_000, 30_000);
                builder.add(manifest(day, "pull_request"), pr);
                entries.add(IndexEntries.entry(manifest(day, "pull_request"), pr));
            }
        }
        entries.sort(History.ORDER);
        return new Published(builder.build(), new History.Index(History.SCHEMA_VERSION, entries));
    }

    @Test
    void aRecentStepForTheWorseIsListedWithItsChangeItsCommitsAndItsChart() {
        Published h = history(24, 20);
        Regressions found = Regressions.of(h.trends(), h.index());

        assertThat(found.recentRuns()).isEqualTo(7);
        // virtual's wall time and its cold start (a fork's one run here: the same values) stepped; the pool got
        // faster on the same day, which is no regression
        assertThat(found.regressions())
                .extracting(x -> x.variant() + " " + x.metric())
                .containsExactlyInAnyOrder("virtual wallMs", "virtual coldStartMs");
        Regressions.Regression r = found.regressions().stream()
                .filter(x -> x.metric().equals("wallMs"))
                .findFirst()
                .orElseThrow();
        assertThat(r.variant()).isEqualTo("virtual");
        assertThat(r.metric()).isEqualTo("wallMs");
        assertThat(r.runId()).isEqualTo("r20");
        assertThat(r.previousRunId()).isEqualTo("r19");
        assertThat(r.goodCommit()).contains("c19");
        assertThat(r.badCommit()).contains("c20");
        // +10 %, within an interval that holds it and excludes no change
        assertThat(r.change().ratio()).isBetween(1.08, 1.12);
        assertThat(r.change().low())
                .isGreaterThan(1.03)
                .isLessThanOrEqualTo(r.change().ratio());
        assertThat(r.change().high()).isGreaterThanOrEqualTo(r.change().ratio()).isLessThan(1.2);
        assertThat(r.cause()).isEqualTo("code");
        assertThat(r.annotations()).isEmpty();
        assertThat(r.chart()).isEqualTo("#/history?cell=" + r.cellId() + "&variant=virtual&workload=sleep-bound");
        assertThat(r.words()).startsWith("+" + r.change().words().substring(1)).endsWith(" worse from run r20 on");
        assertThat(r.key()).matches("[0-9a-f]{16}");
        // the same history, the same alert: the key and everything else are stable
        assertThat(Regressions.of(h.trends(), h.index())).isEqualTo(found);
    }

    @Test
    void aStepOlderThanTheNewestRunsIsNotNews() {
        Published h = history(30, 12);
        assertThat(Regressions.of(h.trends(), h.index()).regressions()).isEmpty();
    }

    @Test
    void aStepWhereTheJdkBuildChangedTooSaysSoForItsCellOnly() {
        Published h = history(24, 20);
        Trends.Series virtual = h.trends().series().stream()
                .filter(s -> s.variant().equals("virtual") && s.metric().equals("wallMs"))
                .findFirst()
                .orElseThrow();
        List<Trends.Annotation> notes = List.of(
                new Trends.Annotation("r20", Optional.of(virtual.cellId()), "jdk build", "21.0.5+11", "21.0.6+7"),
                new Trends.Annotation("r20", Optional.of("another.cell"), "image", "sha256:a", "sha256:b"));
        Trends annotated = new Trends(
                Trends.SCHEMA_VERSION, h.trends().method(), h.trends().series(), notes);
        Regressions.Regression r = Regressions.of(annotated, h.index()).regressions().stream()
                .filter(x -> x.metric().equals("wallMs"))
                .findFirst()
                .orElseThrow();
        assertThat(r.cause()).isEqualTo("jdk build");
        assertThat(r.annotations()).containsExactly(notes.getFirst());
    }
}
