package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.runner.cli.LoomMatrix;
import dev.loommatrix.runner.publish.Chromium;
import dev.loommatrix.runner.publish.StaticHost;
import java.nio.file.Path;
import java.util.List;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walking skeleton end to end on a real Docker engine: two JDK images (built from Debian packages
 * by containers/offline/build-images.sh) × two CPU quotas × sleep-bound, through the CLI, into a run
 * directory, published, served under a sub-path and read back from real Chromium. A missing engine or
 * image fails the test: CI must not pass by skipping it.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ContainerMatrixIT {

    static final int TASKS = 1000;
    static final int POOL = 100;
    static final int SLEEP_MS = 500;

    @TempDir
    static Path work;

    static Path runDir;
    static List<CellRecord> cells;

    @BeforeAll
    static void runTheMatrix() throws Exception {
        ContainerRuns.Completed run = ContainerRuns.run(
                work,
                """
                schema: 1
                jdks:
                  - {id: debian-21, vm: hotspot, version: 21, image: "local/debian-openjdk:21"}
                  - {id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
                cpus: [1, 2]
                workloads:
                  - {id: sleep-bound, variants: [virtual, "pool:%d"], params: {tasks: %d, sleepMs: %d}}
                repetitions: 3
                warmup: 1
                timeout: 5m
                memory: 1g
                pids: 4096
                """
                        .formatted(POOL, TASKS, SLEEP_MS));
        runDir = run.runDir();
        cells = run.cells();
    }

    @Test
    @Order(1)
    void everyCellIsOkAndAttestedWithProcessorsEqualToItsQuota() {
        assertThat(cells).hasSize(4).allSatisfy(cell -> {
            assertThat(cell.status())
                    .as(cell.cellId() + " " + cell.reason().orElse(""))
                    .isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
            assertThat(cell.execution().backend()).isEqualTo("container");
            var env = cell.environment().orElseThrow();
            assertThat(env.attested())
                    .as(cell.cellId() + " " + env.attestation())
                    .isTrue();
            assertThat(env.availableProcessors())
                    .isEqualTo(cell.coordinates().cpus().intValueExact());
            assertThat(env.limits().cpus()).contains(cell.coordinates().cpus().doubleValue());
            assertThat(env.vm().get("version"))
                    .startsWith(String.valueOf(cell.coordinates().version()));
            assertThat(cell.measurements())
                    .allSatisfy(m -> assertThat(m.samples()).hasSize(3));
        });
        assertThat(cells).extracting(c -> c.coordinates().jdk()).containsOnly("debian-21", "debian-25");
    }

    @Test
    @Order(2)
    void virtualBeatsThePoolAndNothingBeatsItsBound() {
        for (CellRecord cell : cells) {
            Measurement virtual = variant(cell, "virtual");
            Measurement pool = variant(cell, "pool:" + POOL);
            double predicted =
                    pool.lowerBoundMs().orElseThrow() / virtual.lowerBoundMs().orElseThrow();
            assertThat(predicted).isEqualTo(Math.ceil((double) TASKS / POOL));
            double measured = pool.summary().orElseThrow().median()
                    / virtual.summary().orElseThrow().median();
            // What holds whatever else loads the machine (issue #18: a CPU hog beside the run brought 10 down to
            // 7.4): neither variant beats its bound, and virtual threads win by at least a third of the
            // predicted ratio. How close a quiet run comes (0.8–1.02 of it) is the fidelity benchmark's.
            assertThat(pool.efficiency().orElseThrow())
                    .as(cell.cellId())
                    .isGreaterThan(0)
                    .isLessThanOrEqualTo(1.005);
            assertThat(virtual.efficiency().orElseThrow())
                    .as(cell.cellId())
                    .isGreaterThan(0)
                    .isLessThanOrEqualTo(1.005);
            assertThat(measured)
                    .as("%s: measured %.2f vs predicted %.2f", cell.cellId(), measured, predicted)
                    .isGreaterThanOrEqualTo(predicted / 3);
        }
    }

    @Test
    @Order(3)
    void thePublishedPageShowsEveryCellInChromium() throws Exception {
        Path site = work.resolve("site");
        assertThat(LoomMatrix.mainWithoutExit(
                        new String[] {"publish", "--run", runDir.toString(), "--site", site.toString()},
                        System.out,
                        System.err))
                .isZero();
        try (StaticHost host = new StaticHost(site, "/loom-matrix/")) {
            // the dashboard, rendered by Chromium: the matrix view of the newest run, a tile per cell
            Document page = Jsoup.parse(Chromium.dumpDom(host.url("index.html#/matrix")));
            assertThat(page.title()).startsWith("loom-matrix — virtual vs platform threads");
            for (CellRecord cell : cells) {
                Element tile = page.selectFirst("rect[data-cell-id=" + cell.cellId() + "]");
                assertThat(tile).as("tile for %s", cell.cellId()).isNotNull();
                assertThat(tile.attr("aria-label")).doesNotContain("failed").doesNotContain("unattested");
            }
            assertThat(page.select("rect[data-cell-id]")).hasSize(4);
            Chromium.screenshot(host.url("index.html"), Path.of("target/screenshots/skeleton-run.png"), 1600, 600);
        }
    }

    static Measurement variant(CellRecord cell, String name) {
        return cell.measurement(name).orElseThrow();
    }
}
