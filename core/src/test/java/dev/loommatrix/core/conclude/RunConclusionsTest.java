package dev.loommatrix.core.conclude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.CellRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunConclusionsTest {

    static List<CellRecord> cells(String... files) throws Exception {
        List<CellRecord> out = new ArrayList<>();
        for (String f : files) {
            out.add(FindingsTest.cell(f));
        }
        return out;
    }

    @Test
    void pinningSaysWhereItChangesInOneRuleAJdk() throws Exception {
        RunConclusions run = RunConclusions.of(
                cells("golden/cell-pinning-21.json", "golden/cell-pinning-25.json", "golden/cell-sleep-bound.json"),
                0.10);
        RunConclusions.Subject pinning = run.subjects().stream()
                .filter(s -> s.workload().equals("pinning"))
                .findFirst()
                .orElseThrow();
        assertThat(pinning.rules()).hasSize(2);
        assertThat(pinning.rules().get(0).where()).hasSize(1);
        assertThat(pinning.rules().get(0).where().get(0).axis()).isEqualTo("jdk");
        String md = ConclusionsMarkdown.render(run, ConclusionLinks.runDirectory());
        assertThat(md)
                .contains(
                        "Measured: debian-21 (JDK 21, HotSpot) at 1 CPU and 2 CPUs; debian-25 (JDK 25, HotSpot) at 2 CPUs — in"
                                + " containers. A rule below"
                                + " holds in these conditions only.")
                .contains("### pinning")
                // the best other to synchronized on 21 is object-wait (51.27 ms against reentrant-lock's 51.38)
                .containsPattern(
                        "- \\*\\*hurts\\*\\* on debian-21: synchronized against the best other \\(object-wait\\), on time \\(lower is better\\): 0\\.127×"
                                + " \\[0\\.\\d+–0\\.\\d+, 90 % interval\\]; over reentrant-lock, the headline's reference, 0\\.127×"
                                + " \\(hurts\\) — \\[debian-21, 2 CPUs\\]\\(cells/debian-21\\.linux\\.cpus-2\\.par-auto\\.max-auto"
                                + "\\.minr-auto\\.pinning\\.json\\)")
                .containsPattern(
                        "- \\*\\*no difference\\*\\* on debian-25: synchronized against the best other"
                                + " \\(reentrant-lock\\), on time \\(lower is better\\): 1\\.00× \\[[0-9.]+–[0-9.]+, 90 % interval\\] — \\[debian-25, 2 CPUs\\]")
                .contains("### sleep-bound")
                .contains(
                        "- **pays off** in every condition measured: virtual against the one other variant measured (pool:100), on time"
                                + " (lower is better): 5.75× [4.37–6.14, 90 % interval]; caveat: virtual unstable (its forks"
                                + " spread 14 % around their mean) — ")
                .contains("  - why, [debian-21, 1 CPU](cells/debian-21.linux.cpus-1.par-auto.max-auto.minr-auto"
                        + ".sleep-bound.json): pool-bound: pool:100's 100 threads set its time");
    }

    @Test
    void aDisturbedCellIsListedApartAndNeverInARule() throws Exception {
        RunConclusions run = RunConclusions.of(
                cells("golden/cell-sleep-bound.json", "fixtures/records/sleep-bound-disturbed.json"), 0.10);
        RunConclusions.Subject sleep = run.subjects().get(0);
        assertThat(sleep.notValid()).hasSize(1);
        assertThat(sleep.rules()).hasSize(1);
        assertThat(sleep.rules().get(0).conditions()).hasSize(1);
        assertThat(ConclusionsMarkdown.render(run, ConclusionLinks.runDirectory()))
                .contains("- **pays off** in every valid condition measured: ")
                .contains("- not valid: [debian-25, 1 CPU on CPUs 0](cells/debian-25.linux.cpus-1.cpuset-0.par-auto"
                        + ".max-auto.minr-auto.sleep-bound.json) — disturbed: measured beside 0.71 CPUs");
    }

    @Test
    void theReportFollowsThePlansOrder() throws Exception {
        List<dev.loommatrix.core.result.CellRecord> cells =
                cells("golden/cell-sleep-bound.json", "golden/cell-pinning-21.json", "golden/cell-fib-fanout.json");
        List<String> planned = List.of(cells.get(1).cellId(), cells.get(0).cellId());
        assertThat(RunConclusions.inPlanOrder(cells, planned))
                .extracting(dev.loommatrix.core.result.CellRecord::cellId)
                .containsExactly(
                        cells.get(1).cellId(),
                        cells.get(0).cellId(),
                        cells.get(2).cellId());
    }

    @Test
    void theCellsNotRunHereAreSaidByJdkAndConcludedNowhere() throws Exception {
        CellRecord ran = FindingsTest.cell("golden/cell-sleep-bound.json");
        CellRecord skipped = new CellRecord(
                ran.schemaVersion(),
                "temurin-21.linux.cpus-2.par-auto.max-auto.minr-auto.sleep-bound",
                new dev.loommatrix.core.plan.Coordinates(
                        "temurin-21",
                        "hotspot",
                        21,
                        "linux",
                        java.math.BigDecimal.valueOf(2),
                        "all",
                        "auto",
                        "auto",
                        "auto",
                        "sleep-bound"),
                dev.loommatrix.core.result.CellStatus.SKIPPED,
                java.util.Optional.of("no hotspot JDK 21 on this host"),
                java.util.Optional.empty(),
                java.util.Optional.empty(),
                List.of(),
                ran.execution(),
                List.of(),
                java.util.Optional.empty(),
                java.util.Optional.empty(),
                List.of());
        RunConclusions run = RunConclusions.of(List.of(ran, skipped), 0.10);
        assertThat(run.notRun())
                .containsExactly(new RunConclusions.NotRun("temurin-21", 1, "no hotspot JDK 21 on this host"));
        assertThat(run.subjects()).hasSize(1);
        assertThat(run.subjects().get(0).notValid()).isEmpty();
        assertThat(ConclusionsMarkdown.render(run, ConclusionLinks.runDirectory()))
                .contains("Not run on this host, so concluded nowhere below: temurin-21 (1 cell: no hotspot JDK 21 on"
                        + " this host).")
                .doesNotContain("[temurin-21");
    }
}
