package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.Interference;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.runner.backend.service.Oha;
import dev.loommatrix.runner.backend.service.TestService;
import dev.loommatrix.runner.cli.LoomMatrix;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #32 on the local backend, through the real CLI: a cell reads as quiet as the host is. A user's first quick
 * run on an idle 2-CPU host called 14 cells disturbed — 12 skipped ones, ping-pong (JVMs started and reaped one
 * after another) and the Spring Boot service (its own load generator counted as other work). Here a skipped cell,
 * a built-in cell, ping-pong with its JMH case, and a service under a closed loop of oha run on the host's JDK; each
 * measured cell's figure is held against the kernel's own count — everything the host did outside this JVM and
 * what it started ({@link KernelCount}) — so the test says the same on a quiet host (nothing flagged) and on a
 * shared one (the figure is the others' work, not the cell's own).
 */
class QuietHostIT {

    /** How far a cell's figure may be from the kernel's count: clock ticks, and the cell's edges read 50 ms apart. */
    static final double WITHIN_CPUS = 0.15;

    @Test
    void aQuietHostReadsQuietAndASkippedCellIsNotMeasured(@TempDir Path dir) throws Exception {
        Oha.binary().orElseThrow(() -> new AssertionError(Oha.missing())); // a tool missing fails, never skips
        Path service = TestService.jar(Files.createDirectories(dir.resolve("svc")));
        Path matrix = Files.writeString(
                dir.resolve("matrix.yaml"),
                """
                schema: 1
                jdks:
                  - {id: host, vm: hotspot, version: %d, javaHome: "%s"}
                  - {id: absent, vm: openj9, version: 21}
                cpus: [2]
                workloads:
                  - {id: sleep-bound, variants: [virtual, "pool:20"], params: {tasks: 200, sleepMs: 20}}
                  - id: ping-pong
                    variants: [virtual, platform]
                    params: {roundTrips: 2000, jmhWarmupIterations: 1, jmhIterations: 1, jmhIterationMs: 200}
                  - id: quiet-service
                    service: {jar: "%s", args: [ok, "9107"], port: 9107, ready: {tcp: true}}
                    load: {path: /, users: 20, warmup: 1s, duration: 2s}
                    variants:
                      small-heap: {jvmArgs: [-Xmx64m]}
                      large-heap: {jvmArgs: [-Xmx128m]}
                    baseline: small-heap
                repetitions: 2
                warmup: 0
                memory: 512m
                """
                        .formatted(Runtime.version().feature(), System.getProperty("java.home"), service));
        Path out = dir.resolve("run");
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        List<CellRecord> cells;
        StringBuilder table = new StringBuilder("cell: its figure / the kernel's (CPUs of other work)\n");
        try (KernelCount kernel = KernelCount.start()) {
            int code = LoomMatrix.mainWithoutExit(
                    new String[] {"run", "--matrix", matrix.toString(), "--backend", "local", "--out", out.toString()},
                    new PrintStream(console, true, StandardCharsets.UTF_8),
                    System.err);
            assertThat(code).as(console.toString(StandardCharsets.UTF_8)).isZero();
            cells = new RunDirectory(out).readCells();
            assertThat(cells).hasSize(6);
            // every cell's problem, not only the first's
            SoftAssertions soft = new SoftAssertions();
            for (CellRecord cell : cells) {
                String name =
                        cell.coordinates().jdk() + " " + cell.coordinates().workload();
                if (cell.coordinates().jdk().equals("absent")) {
                    soft.assertThat(cell.status()).as(name).isEqualTo(CellStatus.SKIPPED);
                    soft.assertThat(cell.execution().interference())
                            .as("%s: skipped, so not measured", name)
                            .isEmpty();
                    continue;
                }
                assertThat(cell.status())
                        .as("%s: %s", name, cell.reason().orElse(""))
                        .isEqualTo(CellStatus.OK);
                Interference seen = cell.execution().interference().orElseThrow();
                soft.assertThat(seen.series()).as(name).isNotEmpty();
                if (seen.series().isEmpty()) {
                    continue;
                }
                Instant start = Instant.parse(cell.execution().startedAt());
                double kernelSays = kernel.otherCpus(
                        start, start.plusMillis(seen.series().getLast().ms()));
                table.append(String.format(Locale.ROOT, "  %s: %.2f / %.2f%n", name, seen.otherCpusMean(), kernelSays));
                soft.assertThat(seen.otherCpusMean())
                        .as("%s beside %.2f CPUs of other work by the kernel's count: %s", name, kernelSays, seen)
                        .isCloseTo(kernelSays, within(WITHIN_CPUS));
                if (kernelSays < Interference.THRESHOLD_CPUS - WITHIN_CPUS) {
                    soft.assertThat(seen.flagged())
                            .as("%s on a quiet host (%.2f CPUs of other work): %s", name, kernelSays, seen)
                            .isFalse();
                }
            }
            soft.assertAll();
        } finally {
            System.out.print(table);
        }
    }
}
