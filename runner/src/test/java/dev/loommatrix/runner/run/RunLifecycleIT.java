package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.core.result.RunManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run lifecycle through the real CLI jar in its own process, on the local backend with the JDK
 * running the tests: Ctrl-C and --resume, and shards merged back into one run.
 */
class RunLifecycleIT {

    static final Path JAR = Path.of(System.getProperty("loom.runnerJar", "target/loom-matrix.jar"));
    static final String JAVA =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();

    static Path matrix(Path dir, int cells) throws IOException {
        List<String> cpus = new ArrayList<>();
        for (int i = 1; i <= cells; i++) {
            cpus.add(String.valueOf(i == 1 ? "1" : "0." + (10 - i))); // distinct quotas → distinct cells
        }
        Path file = dir.resolve("matrix.yaml");
        Files.writeString(
                file,
                """
                schema: 1
                jdks: [{id: host, vm: hotspot, version: %d, javaHome: "%s"}]
                cpus: [%s]
                workloads:
                  - {id: sleep-bound, variants: [virtual, "pool:10"], params: {tasks: 40, sleepMs: 200}}
                repetitions: 2
                warmup: 0
                timeout: 2m
                memory: 256m
                """
                        .formatted(
                                Runtime.version().feature(), System.getProperty("java.home"), String.join(", ", cpus)));
        return file;
    }

    static Process start(Path log, String... args) throws IOException {
        return start(Map.of(), log, args);
    }

    static Process start(Map<String, String> env, Path log, String... args) throws IOException {
        // As from a terminal: SIGINT at its default. A process started in the background by a
        // non-interactive shell (as CI may start the build) inherits SIGINT ignored, and a JVM that
        // starts with it ignored never sees Ctrl-C; exec keeps an ignored signal, so reset it first.
        List<String> command = new ArrayList<>(List.of(
                "perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die \"exec: $!\"", JAVA, "-jar", JAR.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(env);
        return builder.start();
    }

    static int runToEnd(Path log, String... args) throws Exception {
        Process p = start(log, args);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        return p.exitValue();
    }

    static Map<String, String> cellFiles(Path run) throws IOException {
        Map<String, String> files = new HashMap<>();
        Path cells = run.resolve("cells");
        if (Files.isDirectory(cells)) {
            try (Stream<Path> list = Files.list(cells)) {
                for (Path f : list.filter(f -> f.toString().endsWith(".json")).toList()) {
                    files.put(f.getFileName().toString(), Files.readString(f));
                }
            }
        }
        return files;
    }

    /**
     * The runner killed without warning (SIGKILL: the OOM killer, a preempted runner) at random moments,
     * then resumed until done: every cell holds exactly its repetitions — never samples of two attempts —
     * and nothing the killed runners started is left running. (Before, resumed cells appended to the
     * killed attempt's records: 4 or 8 samples where 2 were asked for, all "ok".)
     */
    @Test
    void killedWithoutWarningAndResumedEveryCellHoldsExactlyItsRepetitions(@TempDir Path dir) throws Exception {
        Path matrix = matrix(dir, 4);
        Files.writeString(matrix, Files.readString(matrix).replace("warmup: 0", "warmup: 1"));
        Path run = dir.resolve("run");
        // the seed of the kill times, printed so that a failure can be replayed (-Dloom.killSeed=…)
        long seed = Long.getLong("loom.killSeed", System.nanoTime());
        System.out.println("RunLifecycleIT kill seed: " + seed + " (replay with -Dloom.killSeed=" + seed + ")");
        java.util.Random random = new java.util.Random(seed);
        int kills = 0;
        for (int attempt = 0; attempt < 12 && kills < 5; attempt++) {
            List<String> args = new ArrayList<>(
                    List.of("run", "--matrix", matrix.toString(), "--backend", "local", "--out", run.toString()));
            if (Files.exists(run.resolve("run.json"))) {
                args.add("--resume");
            }
            Process p = start(dir.resolve("attempt-" + attempt + ".log"), args.toArray(String[]::new));
            Thread.sleep(500 + random.nextInt(2500)); // JVM start, a cell's JVMs, hyperfine, a record write…
            if (!p.isAlive()) {
                break; // it finished before the kill
            }
            p.toHandle().destroyForcibly(); // SIGKILL to the runner alone: its children live on, as in life
            p.waitFor(10, TimeUnit.SECONDS);
            kills++;
        }
        assertThat(kills)
                .as("the runner was killed at least once mid-run (kill seed %d)", seed)
                .isPositive();
        assertThat(runToEnd(
                        dir.resolve("last.log"),
                        "run",
                        "--matrix",
                        matrix.toString(),
                        "--backend",
                        "local",
                        "--out",
                        run.toString(),
                        "--resume"))
                .as("kill seed %d: %s", seed, Files.readString(dir.resolve("last.log")))
                .isZero();
        RunDirectory result = new RunDirectory(run);
        assertThat(result.readCells()).hasSize(4).allSatisfy(cell -> {
            assertThat(cell.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
            assertThat(cell.measurements()).hasSize(2).allSatisfy(m -> assertThat(m.samples())
                    .as(cell.cellId() + " " + m.variant())
                    .hasSize(2));
            for (String slug : List.of("virtual", "pool-10")) {
                // warmup 1 + repetitions 2 records: nothing of an earlier attempt
                assertThat(Files.readAllLines(result.rawDir(cell.cellId()).resolve(slug + ".records.jsonl")))
                        .as(cell.cellId() + " " + slug)
                        .hasSize(3);
            }
        });
        // nothing the killed runners started is still running: no JVM or hyperfine naming the run
        Thread.sleep(500);
        assertThat(ProcessHandle.allProcesses()
                        .filter(h -> h.info().commandLine().orElse("").contains(run.toString()))
                        .map(h -> h.pid() + " " + h.info().commandLine().orElse(""))
                        .toList())
                .isEmpty();
    }

    @Test
    void ctrlCKeepsFinishedCellsAndResumeRunsNothingTwice(@TempDir Path dir) throws Exception {
        Path matrix = matrix(dir, 5);
        Path run = dir.resolve("run");
        Process p = start(
                dir.resolve("first.log"),
                "run",
                "--matrix",
                matrix.toString(),
                "--backend",
                "local",
                "--out",
                run.toString());
        Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
        while (cellFiles(run).size() < 2 && Instant.now().isBefore(deadline) && p.isAlive()) {
            Thread.sleep(100);
        }
        assertThat(p.isAlive())
                .as("the run should still be going after 2 cells")
                .isTrue();
        new ProcessBuilder("kill", "-INT", String.valueOf(p.pid())).start().waitFor();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(ProcessHandle.allProcesses()
                        .filter(h -> h.info().commandLine().orElse("").contains(run.toString()))
                        .count())
                .as("no JVM of the interrupted cell left behind")
                .isZero();

        Map<String, String> before = cellFiles(run);
        RunManifest interrupted = new RunDirectory(run).readManifest();
        assertThat(interrupted.status()).isEqualTo(dev.loommatrix.core.result.RunStatus.INTERRUPTED);
        assertThat(before).hasSizeBetween(2, 4);
        assertThat(Files.readString(dir.resolve("first.log"))).contains("interrupted, no result kept");

        assertThat(runToEnd(
                        dir.resolve("second.log"),
                        "run",
                        "--matrix",
                        matrix.toString(),
                        "--backend",
                        "local",
                        "--out",
                        run.toString(),
                        "--resume"))
                .isZero();
        Map<String, String> after = cellFiles(run);
        assertThat(after).hasSize(5);
        int ranTwice = 0;
        for (var entry : before.entrySet()) {
            if (!after.get(entry.getKey()).equals(entry.getValue())) {
                ranTwice++;
            }
        }
        assertThat(ranTwice)
                .as("cells finished before Ctrl-C and run again by --resume")
                .isZero();
        assertThat(new RunDirectory(run).readManifest().status())
                .isEqualTo(dev.loommatrix.core.result.RunStatus.FINISHED);
        assertThat(new RunDirectory(run).readManifest().runId()).isEqualTo(interrupted.runId());
        for (CellRecord cell : new RunDirectory(run).readCells()) {
            assertThat(cell.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
        }
    }

    @Test
    void shardsPartitionThePlanAndMergeIntoOneRunIdempotently(@TempDir Path dir) throws Exception {
        Path matrix = matrix(dir, 4);
        Set<String> seen = new HashSet<>();
        List<String> shardDirs = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            Path shard = dir.resolve("shard-" + i);
            shardDirs.add(shard.toString());
            assertThat(runToEnd(
                            dir.resolve("shard-" + i + ".log"),
                            "run",
                            "--matrix",
                            matrix.toString(),
                            "--backend",
                            "local",
                            "--shard",
                            i + "/3",
                            "--run-id",
                            "ci-42",
                            "--out",
                            shard.toString()))
                    .isZero();
            for (String cell : cellFiles(shard).keySet()) {
                assertThat(seen.add(cell)).as("%s ran in two shards", cell).isTrue();
            }
        }
        assertThat(seen).hasSize(4);

        Path merged = dir.resolve("merged");
        List<String> args = new ArrayList<>(List.of("merge", "--out", merged.toString()));
        args.addAll(shardDirs);
        assertThat(runToEnd(dir.resolve("merge.log"), args.toArray(String[]::new)))
                .isZero();
        RunManifest run = new RunDirectory(merged).readManifest();
        assertThat(run.runId()).isEqualTo("ci-42");
        assertThat(run.status()).isEqualTo(dev.loommatrix.core.result.RunStatus.FINISHED);
        assertThat(run.cells()).hasSize(4);
        assertThat(run.shards()).extracting(RunManifest.Shard::shard).containsExactly("1/3", "2/3", "3/3");
        assertThat(cellFiles(merged)).hasSize(4);

        String manifestBytes = Files.readString(merged.resolve("run.json"));
        Map<String, String> cellBytes = cellFiles(merged);
        assertThat(runToEnd(dir.resolve("merge2.log"), args.toArray(String[]::new)))
                .isZero();
        assertThat(Files.readString(merged.resolve("run.json"))).isEqualTo(manifestBytes);
        assertThat(cellFiles(merged)).isEqualTo(cellBytes);

        // A shard whose result for a cell differs is refused, and nothing is written.
        Path tampered = dir.resolve("shard-1").resolve("cells");
        Path someCell;
        try (Stream<Path> list = Files.list(tampered)) {
            someCell = list.findFirst().orElseThrow();
        }
        CellRecord original = Json.MAPPER.readValue(someCell.toFile(), CellRecord.class);
        Files.writeString(
                someCell, Files.readString(someCell).replace("\"backend\" : \"local\"", "\"backend\" : \"elsewhere\""));
        Path log = dir.resolve("merge3.log");
        assertThat(runToEnd(log, args.toArray(String[]::new))).isEqualTo(2);
        assertThat(Files.readString(log))
                .contains("conflicting results, nothing merged")
                .contains(original.cellId());
        assertThat(cellFiles(merged)).isEqualTo(cellBytes);
    }

    @Test
    void aCrashingAndATimedOutCellAreRecordedAndTheRunGoesOnToExitThree(@TempDir Path dir) throws Exception {
        Path matrix = dir.resolve("matrix.yaml");
        Files.writeString(
                matrix,
                """
                schema: 1
                jdks: [{id: host, vm: hotspot, version: %d, javaHome: "%s"}]
                cpus: [1]
                workloads:
                  - {id: sleep-bound, variants: [virtual], params: {tasks: 10, sleepMs: 20000}}
                  - {id: mass-start, variants: [virtual], params: {threads: 100}}
                include:
                  - {workload: mass-start, jvmArgs: ["-XX:MaxMetaspaceSize=1k"]}
                repetitions: 1
                warmup: 0
                timeout: 3s
                memory: 256m
                """
                        .formatted(Runtime.version().feature(), System.getProperty("java.home")));
        Path run = dir.resolve("run");
        Path log = dir.resolve("run.log");
        assertThat(runToEnd(log, "run", "--matrix", matrix.toString(), "--backend", "local", "--out", run.toString()))
                .isEqualTo(3);
        List<CellRecord> cells = new RunDirectory(run).readCells();
        assertThat(cells).hasSize(2);
        CellRecord timedOut = cells.stream()
                .filter(c -> c.coordinates().workload().equals("sleep-bound"))
                .findFirst()
                .orElseThrow();
        assertThat(timedOut.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.TIMEOUT);
        assertThat(timedOut.reason()).hasValue("timed out after 3 s; JVM killed");
        CellRecord crashed = cells.stream()
                .filter(c -> c.coordinates().workload().equals("mass-start"))
                .findFirst()
                .orElseThrow();
        assertThat(crashed.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.FAILED);
        assertThat(crashed.reason()).get().asString().contains("variant(s) failed: virtual");
        assertThat(crashed.logTail()).get().asString().containsIgnoringCase("metaspace");
        assertThat(new RunDirectory(run).readManifest().status())
                .isEqualTo(dev.loommatrix.core.result.RunStatus.FINISHED);
        assertThat(Files.readString(log)).contains("1 failed, 1 timed out");
    }

    /**
     * Issue #32: two runs started at once on one Docker engine never measure at the same time — the second waits,
     * saying whose run it waits for — and both finish.
     */
    @Test
    void twoRunsStartedAtOnceOnOneEngineNeverOverlap(@TempDir Path dir) throws Exception {
        Path matrix = dir.resolve("matrix.yaml");
        Files.writeString(
                matrix,
                """
                schema: 1
                jdks: [{id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}]
                cpus: [1]
                workloads:
                  - {id: sleep-bound, variants: [virtual], params: {tasks: 40, sleepMs: 100}}
                repetitions: 3
                warmup: 0
                memory: 256m
                """);
        Map<String, String> env = Map.of("LOOM_LOCK_DIR", dir.resolve("locks").toString());
        List<Process> runs = new ArrayList<>();
        for (String name : List.of("a", "b")) {
            runs.add(start(
                    env,
                    dir.resolve(name + ".log"),
                    "run",
                    "--matrix",
                    matrix.toString(),
                    "--backend",
                    "docker",
                    "--run-id",
                    "lock-" + name,
                    "--out",
                    dir.resolve(name).toString()));
        }
        for (Process p : runs) {
            assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        }
        String logs = Files.readString(dir.resolve("a.log")) + Files.readString(dir.resolve("b.log"));
        assertThat(runs.get(0).exitValue()).as(logs).isZero();
        assertThat(runs.get(1).exitValue()).as(logs).isZero();
        // one of them waited, and said for whom
        assertThat(logs)
                .containsPattern("waiting: this host measures one run at a time, and run lock-[ab] \\(pid \\d+,"
                        + " run, since ");
        var a = new RunDirectory(dir.resolve("a")).readCells().get(0).execution();
        var b = new RunDirectory(dir.resolve("b")).readCells().get(0).execution();
        assertThat(a.backend()).isEqualTo("container");
        // the cells' measuring times do not overlap
        Instant aStart = Instant.parse(a.startedAt()), aEnd = Instant.parse(a.finishedAt());
        Instant bStart = Instant.parse(b.startedAt()), bEnd = Instant.parse(b.finishedAt());
        assertThat(aEnd.isBefore(bStart) || bEnd.isBefore(aStart))
                .as("a %s–%s, b %s–%s", aStart, aEnd, bStart, bEnd)
                .isTrue();
    }

    /** Issue #32: a run killed with SIGKILL leaves its lock to the kernel; the next run takes it over and says so. */
    @Test
    void aSigkilledRunsLockIsTakenOverByTheNextRun(@TempDir Path dir) throws Exception {
        Path matrix = matrix(dir, 1);
        Path locks = dir.resolve("locks");
        Map<String, String> env = Map.of("LOOM_LOCK_DIR", locks.toString());
        Process killed = start(
                env,
                dir.resolve("killed.log"),
                "run",
                "--matrix",
                matrix.toString(),
                "--backend",
                "local",
                "--run-id",
                "to-be-killed",
                "--out",
                dir.resolve("killed").toString());
        Instant deadline = Instant.now().plus(Duration.ofMinutes(1));
        while (Instant.now().isBefore(deadline)
                && !(Files.exists(locks.resolve("host.lock"))
                        && Files.readString(locks.resolve("host.lock")).contains("to-be-killed"))) {
            Thread.sleep(50);
        }
        assertThat(Json.MAPPER
                        .readTree(locks.resolve("host.lock").toFile())
                        .path("pid")
                        .asLong())
                .isEqualTo(killed.pid());
        killed.toHandle().destroyForcibly(); // SIGKILL: no shutdown hook, the lock file keeps its holder
        assertThat(killed.waitFor(10, TimeUnit.SECONDS)).isTrue();

        Path log = dir.resolve("next.log");
        Process next = start(
                env,
                log,
                "run",
                "--matrix",
                matrix.toString(),
                "--backend",
                "local",
                "--no-wait",
                "--out",
                dir.resolve("next").toString());
        assertThat(next.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(next.exitValue()).as(Files.readString(log)).isZero();
        assertThat(Files.readString(log))
                .contains("note: took over the measurement lock " + locks.resolve("host.lock")
                        + " from run to-be-killed" + " (pid " + killed.pid() + ", run, since ");
    }
}
