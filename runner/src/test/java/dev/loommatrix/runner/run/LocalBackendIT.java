package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.testing.TestMatrices;
import dev.loommatrix.runner.backend.local.JdkLocator;
import dev.loommatrix.runner.backend.local.LocalBackend;
import dev.loommatrix.runner.host.HostFacts;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local backend with a real JDK on this host (the one running the tests): what runs when no Docker
 * engine answers, and how Windows runners work.
 */
class LocalBackendIT {

    static final String JAVA_HOME = System.getProperty("java.home");
    static final int VERSION = Runtime.version().feature();

    static List<Cell> cells(String extra) throws Exception {
        return cells("2m", extra);
    }

    static List<Cell> cells(String timeout, String extra) throws Exception {
        return TestMatrices.plan(
                """
                schema: 1
                jdks:
                  - {id: host, vm: hotspot, version: %d, javaHome: "%s"}
                  - {id: absent, vm: openj9, version: %d}
                cpus: [1]
                workloads:
                  - {id: sleep-bound, variants: [virtual, "pool:20"], params: {tasks: 200, sleepMs: 50}}
                repetitions: 2
                warmup: 1
                timeout: %s
                memory: 512m
                %s
                """
                        .formatted(VERSION, JAVA_HOME, VERSION, timeout, extra));
    }

    /** A run without a Docker engine: what {@code choice} makes of the host's JDKs. */
    static MatrixRun localRun(RunDirectory run, MatrixRun.BackendChoice choice) {
        return new MatrixRun(
                run, new PrintStream(System.out), choice, Optional.empty(), new LocalBackend(JdkLocator.forHost()));
    }

    static RunManifest manifest(List<Cell> cells) {
        return new RunManifest(
                1,
                "local-it",
                "2026-11-21T00:00:00Z",
                Optional.empty(),
                dev.loommatrix.core.result.RunStatus.RUNNING,
                "test",
                new RunManifest.Git("unknown", "unknown", false),
                HostFacts.host(),
                new RunManifest.MatrixInfo("m.yaml", Optional.empty(), "00", Optional.empty()),
                cells.stream().map(Cell::id).toList());
    }

    @Test
    void withoutADockerEngineAutoRunsOnTheHostsJdkAndSaysSo(@TempDir Path dir) throws Exception {
        List<Cell> cells = cells("");
        RunDirectory run = new RunDirectory(dir);
        MatrixRun matrixRun = localRun(run, MatrixRun.BackendChoice.AUTO);
        MatrixRun.Totals totals = matrixRun.run(manifest(cells), cells, MatrixRun.Resume.NO);
        assertThat(totals.ok()).isEqualTo(1);
        assertThat(totals.skipped()).isEqualTo(1);

        CellRecord host = run.readCell(cells.get(0).id()).orElseThrow();
        assertThat(host.status()).as(host.reason().orElse("")).isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
        assertThat(host.execution().backend()).isEqualTo("local");
        assertThat(host.execution().fallbackReason()).hasValue("no Docker engine answers");
        var env = host.environment().orElseThrow();
        assertThat(env.availableProcessors()).isEqualTo(1); // -XX:ActiveProcessorCount=1 took effect
        assertThat(env.attested()).as(env.attestation().toString()).isTrue();
        assertThat(env.inputArguments()).contains("-XX:ActiveProcessorCount=1");
        if (Runtime.getRuntime().availableProcessors() > 1
                && System.getProperty("os.name").startsWith("Linux")) {
            // taskset pinned the JVM to CPU 0, and the harness saw it from inside
            assertThat(env.attestation()).anySatisfy(check -> {
                assertThat(check.setting()).isEqualTo("cpu affinity");
                assertThat(check.observed()).isEqualTo("0");
                assertThat(check.ok()).isTrue();
            });
        }
        assertThat(host.measurements()).hasSize(2).allSatisfy(m -> {
            assertThat(m.samples()).hasSize(2);
            assertThat(m.samples().get(0).metrics()).containsKeys("wallMs", "processMs");
        });

        CellRecord absent = run.readCell(cells.get(1).id()).orElseThrow();
        assertThat(absent.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.SKIPPED);
        assertThat(absent.reason()).get().asString().startsWith("no openj9 JDK " + VERSION + " on this host");
    }

    /**
     * Issue #18, "the progress bar's ETA honest": a cell this host will skip (no such JDK here) takes no time,
     * so after the last cell that runs the ETA is zero — before, it still counted the skipped cells' estimates.
     */
    @Test
    void theEtaLeavesOutCellsThisHostWillSkip(@TempDir Path dir) throws Exception {
        List<Cell> cells = cells("");
        var console = new java.io.ByteArrayOutputStream();
        MatrixRun matrixRun = new MatrixRun(
                new RunDirectory(dir),
                new PrintStream(console, true, java.nio.charset.StandardCharsets.UTF_8),
                MatrixRun.BackendChoice.AUTO,
                Optional.empty(),
                new LocalBackend(JdkLocator.forHost()));
        matrixRun.run(manifest(cells), cells, MatrixRun.Resume.NO);
        String out = console.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(out.lines().filter(l -> l.startsWith("[1/2] " + cells.get(0).id() + ": ok")))
                .singleElement()
                .satisfies(line -> assertThat(line).endsWith("ETA 0s"));
    }

    @Test
    void resumeRunsNothingThatFinished(@TempDir Path dir) throws Exception {
        List<Cell> cells = cells("");
        RunDirectory run = new RunDirectory(dir);
        MatrixRun first = localRun(run, MatrixRun.BackendChoice.LOCAL);
        first.run(manifest(cells), cells, MatrixRun.Resume.NO);
        String before = java.nio.file.Files.readString(run.cellFile(cells.get(0).id()));
        MatrixRun.Totals again = first.run(manifest(cells), cells, MatrixRun.Resume.KEEP_ENDED);
        assertThat(again.resumed()).isEqualTo(2);
        assertThat(again.ok() + again.failed() + again.skipped()).isZero();
        assertThat(java.nio.file.Files.readString(run.cellFile(cells.get(0).id())))
                .isEqualTo(before);
    }

    @Test
    void retryFailedRunsOnlyFailedCellsAgainAndKeepsEachEarlierAttempt(@TempDir Path dir) throws Exception {
        RunDirectory run = new RunDirectory(dir);
        MatrixRun runner = localRun(run, MatrixRun.BackendChoice.LOCAL);
        List<Cell> tooShort = cells("500ms", ""); // six JVMs cannot finish in half a second
        String id = tooShort.get(0).id();
        runner.run(manifest(tooShort), tooShort, MatrixRun.Resume.NO);
        CellRecord first = run.readCell(id).orElseThrow();
        assertThat(first.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.TIMEOUT);
        String skipped =
                java.nio.file.Files.readString(run.cellFile(tooShort.get(1).id()));

        List<Cell> cells = cells("2m", ""); // the same cells (a timeout is not a coordinate), time enough
        assertThat(cells)
                .extracting(Cell::id)
                .isEqualTo(tooShort.stream().map(Cell::id).toList());
        MatrixRun.Totals retried = runner.run(manifest(cells), cells, MatrixRun.Resume.RETRY_FAILED);
        assertThat(retried.ok()).isEqualTo(1);
        assertThat(retried.resumed()).as("the skipped cell is not retried").isEqualTo(1);
        assertThat(java.nio.file.Files.readString(run.cellFile(tooShort.get(1).id())))
                .isEqualTo(skipped);

        CellRecord second = run.readCell(id).orElseThrow();
        assertThat(second.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
        assertThat(second.execution().earlierAttempts()).containsExactly(first.asAttempt());
        assertThat(run.readAttempts(id)).containsExactly(first);
        assertThat(dev.loommatrix.runner.contract.ResultsSchemaTest.schema()
                        .validate(Json.MAPPER.readTree(run.cellFile(id).toFile())))
                .as("the record with its earlier attempts matches the published schema")
                .isEmpty();
        assertThat(run.attemptsDir(id).resolve("1/raw")).isDirectory();
        assertThat(run.rawDir(id)).as("the new attempt's own raw output").isDirectory();
        assertThat(run.readCells())
                .extracting(CellRecord::cellId)
                .containsExactlyInAnyOrder(id, tooShort.get(1).id());

        MatrixRun.Totals again = runner.run(manifest(cells), cells, MatrixRun.Resume.RETRY_FAILED);
        assertThat(again.resumed()).as("nothing left to retry").isEqualTo(2);
        assertThat(run.readCell(id)).contains(second);
    }

    /**
     * Issue #32: a program that starts a child process and exits without ending it (as a new user's did: {@code
     * sleep 300} from a ProcessBuilder, 6 orphans from one 2-variant cell) — after its cell, nothing of it is alive,
     * and the record says what had to be killed.
     */
    @Test
    void nothingAProgramStartedOutlivesItsCell(@TempDir Path dir) throws Exception {
        // a unique duration names this test's children among the host's processes
        String duration = "299." + System.nanoTime() % 1_000_000;
        Path src = java.nio.file.Files.createDirectories(dir.resolve("src"));
        java.nio.file.Files.writeString(
                src.resolve("Leaver.java"),
                """
                public class Leaver {
                    public static void main(String[] args) throws Exception {
                        System.out.println(System.getProperty("a")); // the variants' switch: read, so attested
                        new ProcessBuilder("sleep", "%s").start(); // never waited for, never ended
                    }
                }
                """
                        .formatted(duration));
        Path classes = java.nio.file.Files.createDirectories(dir.resolve("classes"));
        int compiled = javax.tools.ToolProvider.getSystemJavaCompiler()
                .run(
                        null,
                        null,
                        null,
                        "-d",
                        classes.toString(),
                        src.resolve("Leaver.java").toString());
        assertThat(compiled).isZero();
        Path matrix = java.nio.file.Files.writeString(
                dir.resolve("matrix.yaml"),
                """
                schema: 1
                jdks: [{id: host, vm: hotspot, version: %d, javaHome: "%s"}]
                cpus: [1]
                workloads:
                  - id: leaver
                    program: {classpath: ["%s"], mainClass: Leaver}
                    variants: {one: {properties: {a: "1"}}, two: {properties: {a: "2"}}}
                    baseline: one
                repetitions: 2
                warmup: 1
                """
                        .formatted(VERSION, JAVA_HOME, classes));
        Path out = dir.resolve("run");
        int code = dev.loommatrix.runner.cli.LoomMatrix.mainWithoutExit(
                new String[] {"run", "--matrix", matrix.toString(), "--backend", "local", "--out", out.toString()},
                System.out,
                System.err);
        assertThat(code)
                .as("run exit code (a variant whose property nothing read would be invalid)")
                .isZero();
        List<String> alive = ProcessHandle.allProcesses()
                .filter(h -> h.info().commandLine().orElse("").contains("sleep " + duration))
                .map(h -> h.pid() + " " + h.info().commandLine().orElse(""))
                .toList();
        assertThat(alive).as("children of the cell still running").isEmpty();
        CellRecord cell = new RunDirectory(out).readCells().get(0);
        // 2 variants × (1 warmup + 2 repetitions): each JVM left one sleep, each killed when its group ended
        assertThat(cell.execution().leftBehind()).hasSize(6).allSatisfy(p -> assertThat(p)
                .matches("\\d+ sleep " + java.util.regex.Pattern.quote(duration)));
    }
}
