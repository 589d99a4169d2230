package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.HostConfig;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Measurement;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.dockerclient.DockerClientProviderStrategy;

/**
 * The container backend seen from outside and from inside, on the real engine: quotas and cpusets
 * take effect (processors 1, 1 and 2 for quota 1, cpuset "0" and quota 1.5 on HotSpot); every running
 * cell is non-root, read-only, offline, without capabilities, with no-new-privileges and its limits
 * (read with {@code docker inspect} while it runs); a pids limit is a recorded ceiling, not a failure;
 * an OOM kill and a container killed from outside are failed cells with their reasons, and the cells
 * after them still run.
 */
class LockedDownCellsIT {

    static DockerClient docker() {
        List<DockerClientProviderStrategy> strategies = new ArrayList<>();
        ServiceLoader.load(DockerClientProviderStrategy.class).forEach(strategies::add);
        return DockerClientProviderStrategy.getFirstValidStrategy(strategies).getDockerClient();
    }

    /** Inspects every loom-matrix cell container it sees while a run goes on in another thread. */
    static final class Inspector implements AutoCloseable {
        final DockerClient docker = docker();
        final List<InspectContainerResponse> seen = new CopyOnWriteArrayList<>();
        final Thread thread;
        volatile boolean done;

        Inspector() {
            thread = Thread.ofPlatform().daemon().start(() -> {
                List<String> ids = new ArrayList<>();
                while (!done) {
                    for (Container c : running(docker)) {
                        if (!ids.contains(c.getId())) {
                            try {
                                seen.add(docker.inspectContainerCmd(c.getId()).exec());
                                ids.add(c.getId());
                            } catch (RuntimeException gone) {
                                // ended between list and inspect; the next one will do
                            }
                        }
                    }
                    sleep(200);
                }
            });
        }

        @Override
        public void close() throws InterruptedException {
            done = true;
            thread.join();
        }
    }

    static List<Container> running(DockerClient docker) {
        return docker.listContainersCmd()
                .withLabelFilter(List.of("dev.loommatrix.cell"))
                .exec();
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static CellRecord cell(List<CellRecord> cells, String idPart) {
        return cells.stream()
                .filter(c -> c.cellId().contains(idPart))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no cell " + idPart));
    }

    @Test
    void quotasAndCpusetsTakeEffectAndEveryCellIsLockedDown(@TempDir Path work) throws Exception {
        ContainerRuns.Completed run;
        List<InspectContainerResponse> seen;
        try (Inspector inspector = new Inspector()) {
            run = ContainerRuns.run(
                    work,
                    """
                    schema: 1
                    jdks: [{id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}]
                    cpus: [1, 1.5]
                    cpuset: [all, "0"]
                    exclude: [{cpus: 1.5, cpuset: "0"}]
                    workloads: [{id: sleep-bound, variants: [virtual], params: {tasks: 100, sleepMs: 300}}]
                    repetitions: 2
                    warmup: 0
                    memory: 512m
                    pids: 1000
                    """);
            seen = inspector.seen;
        }
        Map<String, Integer> processors = Map.of(
                "cpus-1.par", 1,
                "cpus-1.cpuset-0.par", 1,
                "cpus-1.5.par", 2);
        assertThat(run.cells()).hasSize(3);
        processors.forEach((idPart, expected) -> {
            CellRecord cell = cell(run.cells(), idPart);
            var env = cell.environment().orElseThrow();
            assertThat(env.attested())
                    .as(cell.cellId() + " " + env.attestation())
                    .isTrue();
            assertThat(env.availableProcessors()).as(cell.cellId()).isEqualTo(expected);
            assertThat(env.javaVersionOutput())
                    .hasValueSatisfying(v -> assertThat(v).contains("25"));
        });
        assertThat(cell(run.cells(), "cpuset-0")
                        .environment()
                        .orElseThrow()
                        .limits()
                        .affinity())
                .contains("0");

        assertThat(seen).as("cell containers inspected while running").hasSize(3);
        for (InspectContainerResponse container : seen) {
            HostConfig host = container.getHostConfig();
            assertThat(container.getConfig().getUser()).isEqualTo("10001:10001");
            assertThat(host.getReadonlyRootfs()).isTrue();
            assertThat(host.getNetworkMode()).isEqualTo("none");
            assertThat(host.getCapDrop()).extracting(Object::toString).containsExactly("ALL");
            assertThat(host.getCapAdd()).isNullOrEmpty();
            assertThat(host.getPrivileged()).isFalse();
            assertThat(host.getSecurityOpts()).contains("no-new-privileges");
            assertThat(host.getMemory()).isEqualTo(512L << 20);
            assertThat(host.getMemorySwap()).isEqualTo(512L << 20);
            assertThat(host.getPidsLimit()).isEqualTo(1000L);
            assertThat(host.getNanoCPUs()).isIn(1_000_000_000L, 1_500_000_000L);
            assertThat(container.getMounts())
                    .noneMatch(m -> String.valueOf(m.getSource()).contains("docker.sock"));
        }
        assertThat(seen)
                .extracting(c ->
                        Optional.ofNullable(c.getHostConfig().getCpusetCpus()).orElse(""))
                .containsExactlyInAnyOrder("", "", "0");
    }

    @Test
    void aPidsLimitIsACeilingAndTheRunGoesOn(@TempDir Path work) throws Exception {
        ContainerRuns.Completed run = ContainerRuns.run(
                work,
                """
                schema: 1
                jdks: [{id: debian-21, vm: hotspot, version: 21, image: "local/debian-openjdk:21"}]
                cpus: [2]
                workloads:
                  - {id: footprint, variants: [platform, virtual], params: {threads: 3000}}
                  - {id: sleep-bound, variants: [virtual], params: {tasks: 100, sleepMs: 50}}
                repetitions: 1
                warmup: 0
                memory: 1g
                pids: 300
                """);
        CellRecord footprint = cell(run.cells(), "footprint");
        assertThat(footprint.status())
                .as(footprint.reason().orElse(""))
                .isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
        Measurement platform = footprint.measurement("platform").orElseThrow();
        assertThat(platform.ceiling()).hasValueSatisfying(c -> {
            assertThat(c.threads()).isBetween(100L, 300L);
            assertThat(c.reason()).contains("native thread");
        });
        Measurement virtual = footprint.measurement("virtual").orElseThrow();
        assertThat(virtual.ceiling()).isEmpty(); // 3000 virtual threads need no pids
        assertThat(cell(run.cells(), "sleep-bound").status()).isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
    }

    @Test
    void anOomKillAndAContainerKilledFromOutsideAreFailedCellsAndLaterCellsRun(@TempDir Path work) throws Exception {
        DockerClient docker = docker();
        List<String> killed = new CopyOnWriteArrayList<>();
        Thread killer = Thread.ofPlatform().daemon().start(() -> {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
            while (killed.isEmpty() && System.nanoTime() < deadline) {
                for (Container c : running(docker)) {
                    String cellId = c.getLabels().get("dev.loommatrix.cell");
                    if (cellId.endsWith(".sleep-bound")) {
                        sleep(3000); // well inside its first JVM run
                        docker.killContainerCmd(c.getId()).exec();
                        killed.add(cellId);
                    }
                }
                sleep(200);
            }
        });
        ContainerRuns.Completed run = ContainerRuns.runAllowingFailures(
                work,
                """
                schema: 1
                jdks: [{id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}]
                cpus: [2]
                workloads:
                  - {id: footprint, variants: [virtual], params: {threads: 2000000}}
                  - {id: sleep-bound, variants: [virtual], params: {tasks: 10, sleepMs: 20000}}
                  - {id: mass-start, variants: [virtual], params: {threads: 1000, jmhIterations: 0}}
                include:
                  - {workload: footprint, jvmArgs: [-Xmx2g]}
                repetitions: 1
                warmup: 0
                memory: 192m
                pids: 1000
                """);
        killer.join();
        assertThat(killed).hasSize(1);

        CellRecord oom = cell(run.cells(), "footprint");
        assertThat(oom.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.FAILED);
        assertThat(oom.reason()).hasValueSatisfying(r -> assertThat(r).startsWith("OOMKilled"));

        CellRecord shot = cell(run.cells(), "sleep-bound");
        assertThat(shot.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.FAILED);
        assertThat(shot.reason())
                .hasValueSatisfying(r -> assertThat(r).contains("137").contains("SIGKILL"));
        assertThat(shot.logTail()).isPresent();

        assertThat(cell(run.cells(), "mass-start").status()).isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
        assertThat(run.exitCode()).isEqualTo(3);
    }

    @Test
    void parallelCellsGetDisjointCpusetsAndSayWhoRanBesideThem(@TempDir Path work) throws Exception {
        ContainerRuns.Completed run = ContainerRuns.run(
                work,
                """
                schema: 1
                jdks:
                  - {id: debian-21, vm: hotspot, version: 21, image: "local/debian-openjdk:21"}
                  - {id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
                cpus: [1]
                workloads: [{id: sleep-bound, variants: [virtual], params: {tasks: 100, sleepMs: 1000}}]
                repetitions: 2
                warmup: 0
                memory: 512m
                """,
                "--parallel-cells",
                "2");
        assertThat(run.cells()).hasSize(2).allSatisfy(cell -> {
            var env = cell.environment().orElseThrow();
            assertThat(env.attested())
                    .as(cell.cellId() + " " + env.attestation())
                    .isTrue();
            assertThat(env.availableProcessors()).isEqualTo(1);
            assertThat(cell.execution().parallel()).isPresent();
        });
        var first = run.cells().get(0).execution().parallel().orElseThrow();
        var second = run.cells().get(1).execution().parallel().orElseThrow();
        assertThat(List.of(first.cpuset(), second.cpuset())).containsExactlyInAnyOrder("0", "1");
        assertThat(first.ranBeside()).containsExactly(run.cells().get(1).cellId());
        assertThat(second.ranBeside()).containsExactly(run.cells().get(0).cellId());
        // The CPUs each JVM was allowed are the slot it was given
        for (CellRecord cell : run.cells()) {
            assertThat(cell.environment().orElseThrow().limits().affinity())
                    .contains(cell.execution().parallel().orElseThrow().cpuset());
        }
    }

    /**
     * A record that cannot be written (here: {@code cells} is a file, not a directory) ends a run with
     * {@code --parallel-cells} as it ends one without: exit 1, said on the console. It was printed and
     * forgotten, and the run exited 0 with the cell files missing.
     */
    @Test
    void aRecordThatCannotBeWrittenBesideOthersEndsTheRunWithExitOne(@TempDir Path work) throws Exception {
        Path run = Files.createDirectories(work.resolve("run"));
        Files.writeString(run.resolve("cells"), "a file where the cells directory belongs\n");
        Path matrix = work.resolve("matrix.yaml");
        Files.writeString(
                matrix,
                """
                schema: 1
                jdks:
                  - {id: debian-21, vm: hotspot, version: 21, image: "local/debian-openjdk:21"}
                  - {id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
                cpus: [1]
                workloads: [{id: sleep-bound, variants: [virtual], params: {tasks: 10, sleepMs: 100}}]
                repetitions: 1
                warmup: 0
                memory: 512m
                """);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = dev.loommatrix.runner.cli.LoomMatrix.mainWithoutExit(
                new String[] {
                    "run",
                    "--matrix",
                    matrix.toString(),
                    "--backend",
                    "docker",
                    "--out",
                    run.toString(),
                    "--parallel-cells",
                    "2"
                },
                new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
                new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        assertThat(code).as("exit code; stderr: %s", err).isEqualTo(1);
        assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("could not write its result");
    }

    /**
     * A runner killed with SIGKILL leaves its cell's container running (nothing removes it). The resumed
     * run stops it before anything runs beside it — found by the run-id label every cell container carries —
     * and the cell it was running starts again from clean raw output.
     */
    @Test
    void aKilledRunnersContainerIsStoppedWhenTheRunResumes(@TempDir Path work) throws Exception {
        Path matrix = work.resolve("matrix.yaml");
        Files.writeString(
                matrix,
                """
                schema: 1
                jdks: [{id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}]
                cpus: [1, 2]
                workloads: [{id: sleep-bound, variants: [virtual], params: {tasks: 10, sleepMs: 4000}}]
                repetitions: 2
                warmup: 0
                memory: 512m
                """);
        Path run = work.resolve("run");
        Process first = RunLifecycleIT.start(
                work.resolve("first.log"),
                "run",
                "--matrix",
                matrix.toString(),
                "--backend",
                "docker",
                "--out",
                run.toString());
        DockerClient docker = docker();
        String runId = null;
        Container leftover = null;
        for (int i = 0; i < 600 && leftover == null; i++) {
            if (runId == null && Files.exists(run.resolve("run.json"))) {
                runId = new dev.loommatrix.core.result.RunDirectory(run)
                        .readManifest()
                        .runId();
            }
            if (runId != null) {
                leftover =
                        docker.listContainersCmd().withLabelFilter(Map.of("dev.loommatrix.run", runId)).exec().stream()
                                .findFirst()
                                .orElse(null);
            }
            sleep(100);
        }
        assertThat(leftover).as("a cell container of the run started").isNotNull();
        first.toHandle().destroyForcibly(); // SIGKILL: no shutdown hook, the container lives on
        first.waitFor(10, TimeUnit.SECONDS);
        assertThat(docker.inspectContainerCmd(leftover.getId())
                        .exec()
                        .getState()
                        .getRunning())
                .as("the killed runner's container is still running")
                .isTrue();

        assertThat(RunLifecycleIT.runToEnd(
                        work.resolve("resumed.log"),
                        "run",
                        "--matrix",
                        matrix.toString(),
                        "--backend",
                        "docker",
                        "--out",
                        run.toString(),
                        "--resume"))
                .as(Files.readString(work.resolve("resumed.log")))
                .isZero();
        String gone = leftover.getId();
        String id = runId;
        assertThat(docker.listContainersCmd().withShowAll(true).exec())
                .as("the leftover container was removed, and nothing of the run is left")
                .noneMatch(c -> c.getId().equals(gone))
                .noneMatch(c -> c.getLabels() != null && id.equals(c.getLabels().get("dev.loommatrix.run")));
        assertThat(new dev.loommatrix.core.result.RunDirectory(run).readCells())
                .hasSize(2)
                .allSatisfy(cell -> {
                    assertThat(cell.status()).isEqualTo(dev.loommatrix.core.result.CellStatus.OK);
                    assertThat(cell.measurements().get(0).samples()).hasSize(2);
                });
    }
}
