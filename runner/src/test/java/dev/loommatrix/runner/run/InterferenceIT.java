package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Interference;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.runner.cli.LoomMatrix;
import dev.loommatrix.runner.host.CpuHog;
import dev.loommatrix.runner.host.InterferenceSampler;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #32: a cell measured beside other work is not recorded as clean. A known CPU hog (stress-ng, from Debian)
 * beside a container cell gets it flagged disturbed, with a figure that matches the hog's own CPU use as the kernel
 * counted it; the same cell on the quiet machine is not flagged.
 */
class InterferenceIT {

    static Path matrix(Path dir) throws Exception {
        return Files.writeString(
                dir.resolve("matrix.yaml"),
                """
                schema: 1
                jdks: [{id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}]
                cpus: [1]
                cpuset: ["0"]
                workloads:
                  - {id: sleep-bound, variants: [virtual, "pool:20"], params: {tasks: 400, sleepMs: 50}}
                repetitions: 5
                warmup: 1
                memory: 512m
                """);
    }

    record Ran(CellRecord cell, String out) {}

    static Ran run(Path dir, String name, String... more) throws Exception {
        return run(dir, name, 0, more);
    }

    static Ran run(Path dir, String name, int exit, String... more) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> args = new java.util.ArrayList<>(List.of(
                "run",
                "--matrix",
                matrix(dir).toString(),
                "--backend",
                "docker",
                "--out",
                dir.resolve(name).toString()));
        args.addAll(List.of(more));
        int code = LoomMatrix.mainWithoutExit(
                args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        assertThat(code).as(out.toString(StandardCharsets.UTF_8)).isEqualTo(exit);
        return new Ran(new RunDirectory(dir.resolve(name)).readCells().get(0), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aCpuHogBesideACellGetsItFlaggedWithTheHogsFigureAndAQuietCellIsNot(@TempDir Path dir) throws Exception {
        CellRecord quiet = run(dir, "quiet").cell();
        Interference calm = quiet.execution().interference().orElseThrow();
        assertThat(calm.flagged()).as("on the quiet machine: %s", calm).isFalse();
        assertThat(calm.otherCpusMean()).isLessThan(Interference.THRESHOLD_CPUS);
        assertThat(calm.series()).isNotEmpty();
        // the CPUs' clock during the cell, as /proc/cpuinfo has it at each sample
        var clock = calm.cpuMhz().orElseThrow();
        assertThat(clock.min()).isPositive().isLessThanOrEqualTo(clock.mean());
        assertThat(clock.mean()).isLessThanOrEqualTo(clock.max());

        // one stress-ng worker at 60 % of a CPU, on the CPU the cell does not use
        try (CpuHog hog = CpuHog.start(1, 60, dir.resolve("hog.log"))) {
            hog.startCounting();
            Ran loud = run(dir, "loud");
            double hogCpus = hog.cpusSinceCounting();
            Interference seen = loud.cell().execution().interference().orElseThrow();
            assertThat(seen.flagged())
                    .as("beside a hog of %.2f CPUs: %s", hogCpus, seen)
                    .isTrue();
            // the figure is the hog's (measured over the run, the cell a little shorter), within 0.15 CPUs
            assertThat(seen.otherCpusMean()).isCloseTo(hogCpus, within(0.15));
            assertThat(seen.disturbed().orElseThrow())
                    .startsWith(String.format(
                            java.util.Locale.ROOT, "measured beside %.2f CPUs of other work", seen.otherCpusMean()));
            assertThat(loud.out()).contains(", DISTURBED: measured beside ");
            // flagged is not failed: its samples are kept
            assertThat(loud.cell().status()).isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
            assertThat(loud.cell().measurements())
                    .allSatisfy(m -> assertThat(m.samples()).hasSize(5));

            // --on-disturbed fail: its numbers kept and called invalid, the run exits 3
            Ran failed = run(dir, "failed", 3, "--on-disturbed", "fail");
            assertThat(failed.cell().status()).isEqualTo(dev.loommatrix.core.result.CellStatus.INVALID);
            assertThat(failed.cell().reason().orElseThrow())
                    .startsWith("disturbed (--on-disturbed fail): measured beside ");
            assertThat(failed.cell().measurements())
                    .allSatisfy(m -> assertThat(m.samples()).hasSize(5));

            // --on-disturbed rerun: measured again twice while the hog stays, each attempt listed, then flagged
            Ran again = run(dir, "again", "--on-disturbed", "rerun");
            assertThat(again.out()).contains("measuring it again (1 of 2)").contains("measuring it again (2 of 2)");
            assertThat(again.cell().execution().earlierAttempts()).hasSize(2).allSatisfy(a -> assertThat(
                            a.reason().orElseThrow())
                    .startsWith("disturbed, measured again: measured beside "));
            assertThat(again.cell().execution().interference().orElseThrow().flagged())
                    .isTrue();
            assertThat(again.cell().measurements())
                    .allSatisfy(m -> assertThat(m.samples()).hasSize(5));

            // ab --on-disturbed fail: each block is judged as run judges a cell; the disturbed cell fails (exit 3)
            ByteArrayOutputStream abOut = new ByteArrayOutputStream();
            int abExit = LoomMatrix.mainWithoutExit(
                    new String[] {
                        "ab",
                        "--matrix",
                        matrix(dir).toString(),
                        "--backend",
                        "docker",
                        "--blocks",
                        "2",
                        "--on-disturbed",
                        "fail",
                        "--out",
                        dir.resolve("ab").toString()
                    },
                    new PrintStream(abOut, true, StandardCharsets.UTF_8),
                    System.err);
            assertThat(abExit).as(abOut.toString(StandardCharsets.UTF_8)).isEqualTo(3);
            for (RunDirectory side : List.of(
                    new RunDirectory(dir.resolve("ab")),
                    new RunDirectory(dir.resolve("ab").resolve("baseline")))) {
                CellRecord merged = side.readCells().get(0);
                assertThat(merged.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.INVALID);
                assertThat(merged.reason().orElseThrow())
                        .startsWith("block 0: disturbed (--on-disturbed fail): measured beside ");
            }
        }
    }

    @Test
    void aLongCellsSeriesIsAveragedInPairsUntilItFits() {
        List<Interference.Point> many = java.util.stream.IntStream.range(0, 1000)
                .mapToObj(i -> new Interference.Point(i * 500L, i % 2 == 0 ? 0.0 : 1.0, 0.0, null))
                .toList();
        List<Interference.Point> fit = InterferenceSampler.fit(many);
        assertThat(fit).hasSizeLessThanOrEqualTo(Interference.MAX_POINTS);
        assertThat(fit.stream()
                        .mapToDouble(Interference.Point::otherCpus)
                        .average()
                        .orElseThrow())
                .isCloseTo(0.5, within(1e-9));
    }
}
