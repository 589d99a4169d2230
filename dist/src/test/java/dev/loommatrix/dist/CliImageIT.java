package dev.loommatrix.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI's container image (issue #29), built from containers/cli/Dockerfile and the release archive on an
 * offline JDK image (this machine has no registry): it answers with only the image, and it runs cells in
 * sibling containers through the host engine's socket — a team's matrix, from a directory mounted at its own path.
 */
class CliImageIT {

    static final String TAG = "loom-matrix/cli:it";
    static final String BASE = "local/debian-openjdk:25";

    @TempDir
    static Path context;

    @BeforeAll
    static void build() throws Exception {
        Files.copy(
                DistributionIT.DIST.resolve(DistributionIT.NAME + ".tar.gz"),
                context.resolve(DistributionIT.NAME + ".tar.gz"));
        DistributionIT.Result build = DistributionIT.run(
                context,
                Map.of("PATH", System.getenv("PATH"), "DOCKER_BUILDKIT", "0"),
                "docker",
                "build",
                "-q",
                "-f",
                DistributionIT.ROOT.resolve("containers/cli/Dockerfile").toString(),
                "--build-arg",
                "BASE=" + BASE,
                "--build-arg",
                "VERSION=" + DistributionIT.VERSION,
                "-t",
                TAG,
                context.toString());
        assertThat(build.code()).as(build.output()).isZero();
    }

    @Test
    void theImageAloneAnswersWithItsVersion() throws Exception {
        DistributionIT.Result version = docker(List.of("run", "--rm", TAG, "--version"));
        assertThat(version.code()).as(version.output()).isZero();
        // its start-up cache was made when the image was built: nothing is prepared on a run
        assertThat(version.output().strip())
                .startsWith("loom-matrix " + DistributionIT.VERSION + " (")
                .doesNotContain("preparing");
    }

    @Test
    void itRunsATeamsMatrixInSiblingContainersThroughTheHostsEngine(@TempDir Path work) throws Exception {
        Files.writeString(
                work.resolve("matrix.yaml"),
                """
                schema: 1
                jdks:
                  - {id: debian-25, vm: hotspot, version: 25, image: "%s"}
                cpus: [1]
                repetitions: 2
                warmup: 0
                memory: 1g
                workloads:
                  - {id: mass-start, variants: [virtual, platform], params: {threads: 1000, jmhIterations: 0}}
                """
                        .formatted(BASE));
        DistributionIT.Result run = docker(List.of(
                "run",
                "--rm",
                "-v",
                "/var/run/docker.sock:/var/run/docker.sock",
                "-v",
                work + ":" + work,
                "-w",
                work.toString(),
                TAG,
                "run",
                "--backend",
                "docker",
                "--out",
                work.resolve("results/one").toString()));
        assertThat(run.code()).as(run.output()).isZero();
        assertThat(run.output()).contains("mass-start: ok, attested").contains("next: loom-matrix publish");
        String cell = Files.readString(
                work.resolve("results/one/cells/debian-25.linux.cpus-1.par-auto.max-auto.minr-auto.mass-start.json"));
        // measured in a container of its own (the image's Java only drove it), under the cell's quota
        assertThat(cell).contains("\"status\" : \"ok\"").contains("\"backend\" : \"container\"");
    }

    /**
     * The quick profile, from the image alone: the matrix the image carries, its {@code offline} profile (the quick
     * profile on the offline JDK images, this machine having no registry), its JDK 25 cells, each in a sibling
     * container; only the results directory is the host's.
     */
    @Test
    void theImageRunsTheQuickProfileOfTheMatrixItCarries(@TempDir Path work) throws Exception {
        DistributionIT.Result plan = docker(List.of(
                "run",
                "--rm",
                TAG,
                "plan",
                "--matrix",
                "/opt/loom-matrix/matrix.yaml",
                "--profile",
                "offline",
                "--format",
                "json"));
        assertThat(plan.code()).as(plan.output()).isZero();
        var cells = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(plan.output().substring(plan.output().indexOf('{')))
                .get("cells");
        List<String> run = new java.util.ArrayList<>(List.of(
                "run",
                "--rm",
                "-v",
                "/var/run/docker.sock:/var/run/docker.sock",
                "-v",
                work + ":" + work,
                TAG,
                "run",
                "--matrix",
                "/opt/loom-matrix/matrix.yaml",
                "--profile",
                "offline",
                "--backend",
                "docker",
                "--out",
                work.resolve("quick").toString()));
        int jdk25 = 0;
        for (var cell : cells) {
            if (cell.get("id").asText().startsWith("debian-25.")) {
                run.addAll(List.of("--cell", cell.get("id").asText()));
                jdk25++;
            }
        }
        assertThat(jdk25).isGreaterThanOrEqualTo(10);
        DistributionIT.Result result = docker(run);
        assertThat(result.code()).as(result.output()).isZero();
        var manifest = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(work.resolve("quick/run.json").toFile());
        assertThat(manifest.get("cells")).hasSize(jdk25);
        long ok;
        try (var files = Files.list(work.resolve("quick/cells"))) {
            ok = files.filter(f -> {
                        try {
                            return Files.readString(f).contains("\"status\" : \"ok\"");
                        } catch (java.io.IOException e) {
                            return false;
                        }
                    })
                    .count();
        }
        // every cell ok but the Spring Boot one, skipped: its load generator is not in the image
        assertThat(ok).as(result.output()).isGreaterThanOrEqualTo(jdk25 - 1);
        assertThat(result.output()).contains("done: ");
    }

    static DistributionIT.Result docker(List<String> args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("docker"));
        command.addAll(args);
        return DistributionIT.run(
                Path.of(System.getProperty("java.io.tmpdir")),
                Map.of("PATH", System.getenv("PATH")),
                command.toArray(String[]::new));
    }
}
