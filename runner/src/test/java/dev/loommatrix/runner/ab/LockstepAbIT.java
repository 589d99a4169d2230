package dev.loommatrix.runner.ab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Interference;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.runner.cli.LoomMatrix;
import dev.loommatrix.runner.host.CpuHog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ab --pairing lockstep} end to end (issue #30): both sides' blocks of a pair at once, the real harness's forks
 * taking their iterations by turns through the coordinator — in one locked-down container per side, and as local
 * JVMs. The coordinator's count of the turns it gave with both sides' forks alive proves that every fork of every
 * block took every turn through it; the interference each block records shows the other side's JVM is its pair's
 * own work, not other work.
 */
class LockstepAbIT {

    /** Per fork: 3 warmup and 8 measured iterations, and the tail. */
    private static final int TURNS_PER_FORK = 3 + 8 + 1;

    private static final int VARIANTS = 2;
    private static final int PAIRS = 2;

    static Path matrix(Path dir) throws Exception {
        return Files.writeString(
                dir.resolve("matrix.yaml"),
                """
                schema: 1
                jdks: [{id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}]
                cpus: [1]
                workloads:
                  - {id: fib-fanout, variants: [sequential, caller-virtual], params: {n: 22, calls: 100}}
                  - {id: mass-start, variants: [virtual], params: {threads: 200}, iterations: {warmup: 0, measure: 1}}
                repetitions: 2
                warmup: 1
                iterations: {warmup: 3, measure: 8}
                memory: 512m
                """);
    }

    @Test
    void inContainersBothSidesForksTakeEveryTurnInStep(@TempDir Path dir) throws Exception {
        abInLockstep(dir, "docker");
    }

    @Test
    void asLocalJvmsBothSidesForksTakeEveryTurnInStep(@TempDir Path dir) throws Exception {
        abInLockstep(dir, "local");
    }

    /**
     * A CPU hog beside a lockstep pair of local JVMs is other work for both blocks, with the hog's figure: the pair's
     * CPU (each side's, and what the runner reaped of either) is counted once, not more — counted twice, the reaped
     * JVMs of the sibling would read as negative other work and hide the hog.
     */
    @Test
    void asLocalJvmsAHogBesideThePairIsOtherWorkWithTheHogsFigure(@TempDir Path dir) throws Exception {
        Path matrix = Files.writeString(
                dir.resolve("matrix.yaml"),
                """
                schema: 1
                jdks: [{id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}]
                cpus: [1]
                workloads:
                  - {id: fib-fanout, variants: [sequential], params: {n: 22, calls: 100}}
                repetitions: 2
                warmup: 1
                iterations: {warmup: 3, measure: 8}
                memory: 512m
                """);
        // one stress-ng worker at 60 % of a CPU, on the CPU the pair's turns do not begin on
        try (CpuHog hog = CpuHog.start(1, 60, dir.resolve("hog.log"))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int exit = LoomMatrix.mainWithoutExit(
                    new String[] {
                        "ab",
                        "--matrix",
                        matrix.toString(),
                        "--backend",
                        "local",
                        "--blocks",
                        "2",
                        "--confirm",
                        "0",
                        "--on-disturbed",
                        "flag",
                        "--pairing",
                        "lockstep",
                        "--out",
                        dir.resolve("ab").toString()
                    },
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    System.err);
            double hogCpus = hog.cpusSinceCounting();
            String said = out.toString(StandardCharsets.UTF_8);
            assertThat(exit).as(said).isZero();
            String fib = cellId(dir, "fib-fanout");
            for (String side : List.of("0-a", "0-b", "1-a", "1-b")) { // each pair's two blocks
                CellRecord block = new RunDirectory(
                                dir.resolve("ab").resolve("blocks").resolve(fib).resolve(side))
                        .readCell(fib)
                        .orElseThrow();
                Interference seen = block.execution().interference().orElseThrow();
                assertThat(seen.flagged())
                        .as("side %s beside a hog of %.2f CPUs: %s", side, hogCpus, seen)
                        .isTrue();
                assertThat(seen.otherCpusMean())
                        .as("side %s: %s", side, seen)
                        .isCloseTo(hogCpus, org.assertj.core.api.Assertions.within(0.2));
            }
        }
    }

    private static void abInLockstep(Path dir, String backend) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        List<String> args = new ArrayList<>(List.of(
                "ab",
                "--matrix",
                matrix(dir).toString(),
                "--backend",
                backend,
                "--blocks",
                String.valueOf(PAIRS),
                "--confirm",
                "0",
                "--on-disturbed",
                "rerun",
                "--pairing",
                "lockstep",
                "--out",
                dir.resolve("ab").toString()));
        int exit = LoomMatrix.mainWithoutExit(
                args.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
        String said = out.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(said).isZero();

        JsonNode report = new ObjectMapper()
                .readTree(dir.resolve("ab").resolve("compare.json").toFile());
        JsonNode pairing = report.get("ab").get("pairing");
        String fib = cellId(dir, "fib-fanout");
        String massStart = cellId(dir, "mass-start");
        // every turn of every fork of both sides, given with the other side's fork alive: none alone, a disturbed
        // block measured again (--on-disturbed rerun) having been measured again with its sibling, in step
        InStep fibInStep = inStep(dir.resolve("ab").resolve("blocks").resolve(fib));
        int inStep = 2 * TURNS_PER_FORK * fibInStep.forks();
        // the records are the last attempt's: the turns begun on the CPU are counted of the forks kept
        int kept = 2 * TURNS_PER_FORK * fibInStep.keptForks();
        int again = fibInStep.measuredAgain();
        assertThat(pairing.get(fib).asText())
                .as(said)
                .matches(
                        again == 0
                                ? "lockstep: " + PAIRS + " pairs, " + inStep + " turns in step, (\\d+) of " + kept
                                        + " begun on CPU \\d+"
                                : "lockstep: " + PAIRS + " pairs, " + inStep + " turns in step \\(with " + again
                                        + " attempts? measured again, disturbed\\), (\\d+) of the kept forks' " + kept
                                        + " begun on CPU \\d+");
        // a fork that runs its workload once has no turns to take: back to back, and why
        assertThat(pairing.get(massStart).asText()).isEqualTo("back to back (its forks run once, not by iterations)");

        for (RunDirectory side : List.of(
                new RunDirectory(dir.resolve("ab")),
                new RunDirectory(dir.resolve("ab").resolve("baseline")))) {
            CellRecord merged = side.readCell(fib).orElseThrow();
            assertThat(merged.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
            // each block's iterations all measured: 8 per fork, a fork per variant and pair
            assertThat(merged.measurements())
                    .filteredOn(m -> m.metric().name().equals("wallMs"))
                    .hasSize(VARIANTS)
                    .allSatisfy(m -> assertThat(m.samples()).hasSize(PAIRS));
            for (int k = 0; k < PAIRS; k++) {
                CellRecord block = new RunDirectory(dir.resolve("ab")
                                .resolve("blocks")
                                .resolve(fib)
                                .resolve(k + "-" + (side.root().endsWith("baseline") ? "a" : "b")))
                        .readCell(fib)
                        .orElseThrow();
                Interference seen = block.execution().interference().orElseThrow();
                // the other side's JVM ran as much as this one, by turns: counted as other work, each block would
                // read about half a CPU of it
                assertThat(seen.otherCpusMean())
                        .as("block %d of %s: %s", k, side.root(), seen)
                        .isLessThan(Interference.THRESHOLD_CPUS);
                assertTurnsBeganOnOneCpu(dir.resolve("ab").resolve("blocks").resolve(fib), k);
            }
        }
        // the pipes are gone with the pairs
        try (var blocks = Files.walk(dir.resolve("ab").resolve("blocks"))) {
            assertThat(blocks.filter(p -> p.getFileName().toString().endsWith("-turns")))
                    .isEmpty();
        }
    }

    /**
     * Both sides' forks of pair k began their turns on one CPU, the same on both sides (the harness jar's JDK 22+
     * build, as the cells' JDK 25 runs it): each record says so, and so do at least 95 % of the pair's turns, as
     * docs/ab-method.md states (the look comes after the thread gets its CPUs back, so the scheduler may have moved
     * it on in between: on 2026-11-27, 1,836 of 1,836 turns were still there).
     */
    private static void assertTurnsBeganOnOneCpu(Path cellBlocks, int k) throws Exception {
        java.util.Set<Integer> cpus = new java.util.HashSet<>();
        int taken = 0;
        int beganOnCpu = 0;
        for (String side : List.of("a", "b")) {
            Path raw = cellBlocks.resolve(k + "-" + side).resolve("raw").resolve(cellBlocks.getFileName());
            List<Path> recordFiles;
            try (var files = Files.list(raw)) {
                recordFiles = files.filter(p -> p.toString().endsWith(".records.jsonl"))
                        .toList();
            }
            assertThat(recordFiles).hasSize(VARIANTS);
            for (Path file : recordFiles) {
                for (String line : Files.readAllLines(file)) {
                    JsonNode turns = new ObjectMapper().readTree(line).get("turns");
                    assertThat(turns).as("%s: %s", file, line).isNotNull();
                    assertThat(turns.get("taken").asInt()).as("%s", turns).isEqualTo(TURNS_PER_FORK);
                    assertThat(turns.has("cpu")).as("%s", turns).isTrue();
                    taken += turns.get("taken").asInt();
                    beganOnCpu += turns.get("beganOnCpu").asInt();
                    cpus.add(turns.get("cpu").asInt());
                }
            }
        }
        assertThat(cpus).as("pair %d's turns' CPUs", k).hasSize(1);
        assertThat(beganOnCpu)
                .as("pair %d: turns begun on CPU %s of %d", k, cpus, taken)
                .isGreaterThanOrEqualTo((int) Math.ceil(0.95 * taken));
    }

    /**
     * A side's forks in step: over every attempt of its blocks, of the attempts kept alone, and how many attempts its
     * pairs were measured again.
     */
    private record InStep(int forks, int keptForks, int measuredAgain) {}

    /**
     * A cell's {@link InStep}, checking that the two sides of each pair were measured as often (a block measured again
     * because it was disturbed, its sibling with it, said so in the sibling's record).
     */
    private static InStep inStep(Path cellBlocks) throws Exception {
        String cell = cellBlocks.getFileName().toString();
        int forks = 0;
        int kept = 0;
        int again = 0;
        for (int k = 0; k < PAIRS; k++) {
            List<CellRecord.Attempt> a = new RunDirectory(cellBlocks.resolve(k + "-a"))
                    .readCell(cell)
                    .orElseThrow()
                    .execution()
                    .earlierAttempts();
            List<CellRecord.Attempt> b = new RunDirectory(cellBlocks.resolve(k + "-b"))
                    .readCell(cell)
                    .orElseThrow()
                    .execution()
                    .earlierAttempts();
            assertThat(b)
                    .as("pair %d: both blocks measured as often (a: %s)", k, a)
                    .hasSameSizeAs(a);
            for (int n = 0; n < a.size(); n++) {
                String whyA = a.get(n).reason().orElseThrow();
                String whyB = b.get(n).reason().orElseThrow();
                assertThat(List.of(whyA, whyB))
                        .as("pair %d, attempt %d: one at least disturbed", k, n)
                        .anyMatch(why -> why.startsWith("disturbed, measured again"))
                        .allMatch(why -> why.startsWith("disturbed, measured again")
                                || why.equals("measured again with its lockstep pair's other block, which was"
                                        + " disturbed"));
            }
            // each variant's warmup fork and its measured one in the first pair, the measured in the next
            int perAttempt = k == 0 ? VARIANTS * 2 : VARIANTS;
            forks += (a.size() + 1) * perAttempt;
            kept += perAttempt;
            again += a.size();
        }
        return new InStep(forks, kept, again);
    }

    private static String cellId(Path dir, String workload) throws Exception {
        return new RunDirectory(dir.resolve("ab"))
                .readCells().stream()
                        .map(CellRecord::cellId)
                        .filter(id -> id.contains(workload))
                        .findFirst()
                        .orElseThrow();
    }
}
