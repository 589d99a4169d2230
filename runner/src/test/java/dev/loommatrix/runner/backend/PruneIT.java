package dev.loommatrix.runner.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.FileTrees;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.runner.Processes;
import dev.loommatrix.runner.backend.container.CellImages;
import dev.loommatrix.runner.backend.container.ContainerBackend;
import dev.loommatrix.runner.backend.container.EnginePrune;
import dev.loommatrix.runner.backend.container.ImageUses;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #32's housekeeping on the real engine, through the real CLI jar in processes of their own (as a self-hosted
 * runner's workflow calls it): {@code prune} removes exactly the loom-matrix images no recent run used, stopped
 * loom-matrix containers, idle run networks and abandoned run directories; it keeps the newest runs' images, what
 * they are built on, what a container uses — and, while a real run measures on the engine, everything that run may
 * use.
 *
 * <p>The record of which runs used which images lives in a directory of the test's own ({@code LOOM_LOCK_DIR}), whose
 * first entry lists every loom-matrix image the engine already had: the other tests' images stay.
 */
class PruneIT {

    static final Path JAR = Path.of(System.getProperty("loom.runnerJar", "target/loom-matrix.jar"));
    static final String JAVA =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();
    static final String BASE = "local/debian-openjdk:25";
    static final Duration DOCKER = Duration.ofMinutes(2);

    final String id = Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL);
    final List<String> made = new ArrayList<>();
    final List<String> containers = new ArrayList<>();

    String tag(String name) {
        return "loom-matrix/cell:prune-it-" + id + "-" + name;
    }

    /** A loom-matrix image of no size of its own: the base with loom-matrix's labels, as the runner builds them. */
    String image(String name, String builtOn) throws Exception {
        String tag = tag(name);
        List<String> command = new ArrayList<>(List.of(
                "docker",
                "build",
                "-q",
                "-t",
                tag,
                "--label",
                CellImages.BASE_IMAGE_LABEL + "=" + BASE,
                "--label",
                "dev.loommatrix.test=" + tag));
        if (!builtOn.equals(BASE)) {
            command.addAll(List.of("--label", CellImages.BUILT_ON_LABEL + "=" + builtOn));
        }
        command.add("-");
        ProcessBuilder build = new ProcessBuilder(command);
        build.environment().put("DOCKER_BUILDKIT", "0"); // the classic builder: no buildx needed on the host
        Path dockerfile = Files.writeString(Files.createTempFile("prune-it", ".Dockerfile"), "FROM " + builtOn + "\n");
        build.redirectInput(dockerfile.toFile());
        Processes.Ended ended = Processes.run(build, DOCKER);
        Files.delete(dockerfile);
        assertThat(ended.exitCode()).as(ended.output()).isZero();
        made.add(tag);
        return tag;
    }

    static boolean exists(String image) throws Exception {
        return Processes.run(DOCKER, List.of("docker", "image", "inspect", image))
                        .exitCode()
                == 0;
    }

    static List<String> lines(String text) {
        return text.lines().filter(l -> !l.isBlank()).toList();
    }

    static List<String> containersOf(String run, String... more) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                "docker", "ps", "-q", "--no-trunc", "--filter", "label=" + ContainerBackend.RUN_LABEL + "=" + run));
        command.addAll(List.of(more));
        return lines(Processes.ok(DOCKER, command));
    }

    Processes.Ended prune(Path lockDir, Path results, String... more) throws Exception {
        List<String> command =
                new ArrayList<>(List.of(JAVA, "-jar", JAR.toString(), "prune", "--results", results.toString()));
        command.addAll(List.of(more));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("LOOM_LOCK_DIR", lockDir.toString());
        return Processes.run(builder, Duration.ofMinutes(3));
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (String c : containers) {
            Processes.run(DOCKER, List.of("docker", "rm", "-f", "-v", c));
        }
        for (String image : made.reversed()) {
            Processes.run(DOCKER, List.of("docker", "rmi", image));
        }
    }

    /**
     * A stopped container of a finished run that starts between prune's listing and its removal: the engine refuses
     * to remove it, and prune leaves it (said as started since it was listed) instead of failing whole (exit 1).
     */
    @Test
    void aContainerStartedAfterItWasListedIsLeftNotAFailure() throws Exception {
        var engine = ContainerBackend.connect();
        assertThat(engine).as("a Docker engine (.ci/run starts one)").isPresent();
        String listed = lines(Processes.ok(
                        DOCKER,
                        List.of(
                                "docker",
                                "create",
                                "--network",
                                "none",
                                "--label",
                                ContainerBackend.RUN_LABEL + "=prune-it-late-" + id,
                                BASE,
                                "sleep",
                                "600")))
                .getLast();
        containers.add(listed);
        Processes.ok(DOCKER, List.of("docker", "start", listed)); // after prune listed it as stopped
        EnginePrune prune = engine.get().pruning();
        assertThat(prune.removeUnlessStarted(listed)).isFalse();
        assertThat(Processes.ok(DOCKER, List.of("docker", "inspect", "-f", "{{.State.Running}}", listed)))
                .contains("true");
        // one removed meanwhile by someone else counts as removed
        Processes.ok(DOCKER, List.of("docker", "rm", "-f", listed));
        assertThat(prune.removeUnlessStarted(listed)).isTrue();
    }

    @Test
    void removesExactlyWhatNoRecentRunUsesAndLeavesALiveRunsThingsAlone(@TempDir Path dir) throws Exception {
        assertThat(ContainerBackend.connect())
                .as("a Docker engine (.ci/run starts one)")
                .isPresent();
        String engine = ContainerBackend.connect().orElseThrow().engineId();
        Path lockDir = Files.createDirectories(dir.resolve("locks"));
        ImageUses uses = ImageUses.in(lockDir, engine);

        // what the engine had before: an earlier run's images, kept throughout (the other tests use them)
        List<String> before = lines(Processes.ok(
                        DOCKER,
                        List.of(
                                "docker",
                                "images",
                                "--filter",
                                "label=" + CellImages.BASE_IMAGE_LABEL,
                                "--format",
                                "{{.Repository}}:{{.Tag}}")))
                .stream()
                .filter(t -> !t.endsWith(":<none>"))
                .toList();

        String old = image("old", BASE); // used by a run too old to keep
        String stopped = image("stopped", BASE); // used by nothing but a stopped container of a finished run
        String parentGone = image("parent-gone", BASE); // nothing uses it or the image built on it
        String childGone = image("child-gone", parentGone);
        String parentKept = image("parent-kept", BASE); // nothing uses it, but an image kept is built on it
        String childKept = image("child-kept", parentKept); // the newest recorded run used it
        String running = image("running", BASE); // a running container uses it

        uses.record("prune-it-old-" + id, List.of(old));
        uses.record("prune-it-before-" + id, before);
        uses.record("prune-it-new-" + id, List.of(childKept));

        String deadRun = "prune-it-dead-" + id;
        String stoppedContainer = lines(Processes.ok(
                        DOCKER,
                        List.of(
                                "docker",
                                "create",
                                "--label",
                                ContainerBackend.RUN_LABEL + "=" + deadRun,
                                stopped,
                                "true")))
                .getLast();
        containers.add(stoppedContainer);
        String runningContainer = lines(Processes.ok(
                        DOCKER,
                        List.of(
                                "docker",
                                "run",
                                "-d",
                                "--network",
                                "none",
                                "--label",
                                ContainerBackend.RUN_LABEL + "=prune-it-elsewhere-" + id,
                                running,
                                "sleep",
                                "600")))
                .getLast();
        containers.add(runningContainer);
        String network = "prune-it-" + id;
        Processes.ok(
                DOCKER,
                List.of(
                        "docker",
                        "network",
                        "create",
                        "--internal",
                        "--label",
                        ContainerBackend.RUN_LABEL + "=" + deadRun,
                        network));

        // a real run measuring on the engine, holding its lock in the test's lock directory
        Path results = Files.createDirectories(dir.resolve("results"));
        Path matrix = Files.writeString(
                dir.resolve("matrix.yaml"),
                """
                schema: 1
                jdks: [{id: debian-25, vm: hotspot, version: 25, image: "%s"}]
                cpus: [1]
                workloads:
                  - {id: sleep-bound, variants: [virtual, "pool:20"], params: {tasks: 400, sleepMs: 50}}
                repetitions: 8
                warmup: 1
                memory: 512m
                """
                        .formatted(BASE));
        String liveRun = "prune-it-live-" + id;
        Path runLog = dir.resolve("run.log");
        ProcessBuilder runBuilder = new ProcessBuilder(
                        JAVA,
                        "-jar",
                        JAR.toString(),
                        "run",
                        "--matrix",
                        matrix.toString(),
                        "--backend",
                        "docker",
                        "--run-id",
                        liveRun,
                        "--out",
                        results.resolve(liveRun).toString())
                .redirectErrorStream(true)
                .redirectOutput(runLog.toFile());
        runBuilder.environment().put("LOOM_LOCK_DIR", lockDir.toString());
        Process run = runBuilder.start();
        try {
            Instant deadline = Instant.now().plus(Duration.ofMinutes(4));
            while (containersOf(liveRun).isEmpty()) {
                assertThat(run.isAlive()).as(Files.readString(runLog)).isTrue();
                assertThat(Instant.now()).as("the run's cell container started").isBefore(deadline);
                Thread.sleep(200);
            }
            String liveContainer = containersOf(liveRun).getFirst();

            Processes.Ended during = prune(lockDir, results);
            assertThat(during.exitCode()).as(during.output()).isZero();
            assertThat(during.output())
                    .contains("a run is measuring on this host: " + liveRun)
                    .contains("kept every image (")
                    .contains("run " + liveRun)
                    .contains("removed container")
                    .contains("removed network " + network);
            for (String image : List.of(old, stopped, parentGone, childGone, parentKept, childKept, running)) {
                assertThat(exists(image))
                        .as(image + " kept while a run measures")
                        .isTrue();
            }
            assertThat(containersOf(liveRun)).as("the live run's container").contains(liveContainer);
            assertThat(containersOf("prune-it-elsewhere-" + id))
                    .as("a running container")
                    .hasSize(1);
            assertThat(containersOf(deadRun, "-a"))
                    .as("the stopped container of a finished run")
                    .isEmpty();
            assertThat(Processes.run(DOCKER, List.of("docker", "network", "inspect", network))
                            .exitCode())
                    .as("an idle network of a finished run")
                    .isNotZero();

            assertThat(run.waitFor(5, TimeUnit.MINUTES)).as("the run ends").isTrue();
            assertThat(run.exitValue()).as(Files.readString(runLog)).isZero();
        } finally {
            run.destroyForcibly();
        }
        var cells = new RunDirectory(results.resolve(liveRun)).readCells();
        assertThat(cells).singleElement().satisfies(c -> assertThat(c.status()).isEqualTo(CellStatus.OK));
        List<String> liveImages = uses.read().getLast().images();
        assertThat(uses.read().getLast().runId()).isEqualTo(liveRun);
        assertThat(liveImages).as("the run recorded the image it used").isNotEmpty();

        // run directories: abandoned (unfinished, untouched for long), recent, finished
        Path finishedRun = results.resolve(liveRun);
        Path abandoned = copyRun(finishedRun, results.resolve("abandoned"), "running", Duration.ofDays(8));
        Path stoppedRecently = copyRun(finishedRun, results.resolve("stopped-recently"), "interrupted", Duration.ZERO);
        Path finishedLongAgo =
                copyRun(finishedRun, results.resolve("finished-long-ago"), "finished", Duration.ofDays(30));
        Path notARun = Files.createDirectories(results.resolve("notes"));
        Files.setLastModifiedTime(notARun, FileTime.from(Instant.now().minus(Duration.ofDays(30))));

        // after the run: the newest three runs' images (before, new, the live run's) and what they need are kept
        Processes.Ended after = prune(lockDir, results, "--keep-runs", "3");
        assertThat(after.exitCode()).as(after.output()).isZero();
        for (String gone : List.of(old, stopped, childGone, parentGone)) {
            assertThat(exists(gone)).as(gone + " removed: " + after.output()).isFalse();
            assertThat(after.output()).contains("removed image " + gone);
        }
        for (String kept : List.of(childKept, parentKept, running)) {
            assertThat(exists(kept)).as(kept + " kept: " + after.output()).isTrue();
        }
        assertThat(after.output())
                .contains("kept image " + parentKept + " (0.0 KiB): an image kept is built on it (" + childKept + ")")
                .contains("kept image " + childKept + " (0.0 KiB): used by run prune-it-new-" + id)
                .contains("kept image " + running + " (0.0 KiB): a container uses it")
                .contains("left container")
                .containsPattern("removed run directory .*abandoned \\(run " + liveRun + ", running, last written ")
                .containsPattern("freed \\d+\\.\\d (KiB|MiB)");
        for (String image : liveImages) {
            assertThat(exists(image)).as("the finished run's image " + image).isTrue();
        }
        for (String image : before) {
            assertThat(exists(image))
                    .as("an image the engine had, recorded as used: " + image)
                    .isTrue();
        }
        assertThat(abandoned).doesNotExist();
        assertThat(stoppedRecently).isDirectory();
        assertThat(finishedLongAgo).isDirectory();
        assertThat(notARun).isDirectory();
        assertThat(finishedRun).isDirectory();
    }

    /** A copy of a run directory with another status in its run.json, every file last written {@code ago}. */
    static Path copyRun(Path from, Path to, String status, Duration ago) throws Exception {
        FileTrees.copy(from, to);
        Path manifest = to.resolve("run.json");
        Files.writeString(
                manifest,
                Files.readString(manifest, StandardCharsets.UTF_8)
                        .replaceFirst("\"status\"\\s*:\\s*\"finished\"", "\"status\": \"" + status + "\""));
        FileTime then = FileTime.from(Instant.now().minus(ago));
        try (Stream<Path> walk = Files.walk(to)) {
            for (Path p : walk.toList()) {
                Files.setLastModifiedTime(p, then);
            }
        }
        return to;
    }
}
