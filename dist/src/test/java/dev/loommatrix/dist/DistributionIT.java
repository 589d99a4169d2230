package dev.loommatrix.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release archive as a team gets it (issue #29): unpacked with tar into a directory of its own, far from this
 * source tree, it runs the CLI with nothing but a JDK — no Maven, no sources — including a cell on the local
 * backend; it says what to do when no Java 21+ is found; its checksums and SBOM are what they claim.
 */
class DistributionIT {

    static final Path DIST = Path.of(System.getProperty("loom.dist", "target"));
    static final String VERSION = System.getProperty("loom.version", "0.1.0-SNAPSHOT");
    static final String NAME = "loom-matrix-" + VERSION;
    static final Path ROOT = Path.of(System.getProperty("loom.projectRoot", ".."))
            .toAbsolutePath()
            .normalize();

    @TempDir
    static Path installed;

    static Path home;

    @BeforeAll
    static void unpack() throws Exception {
        Result tar = run(
                installed,
                Map.of(),
                "tar",
                "xzf",
                DIST.resolve(NAME + ".tar.gz").toAbsolutePath().toString());
        assertThat(tar.code()).as(tar.output()).isZero();
        home = installed.resolve(NAME);
    }

    @Test
    void theArchiveHoldsTheLaunchersTheCliItsLibrariesServicesDashboardGrafanaAndSchemas() throws Exception {
        for (String file : List.of(
                "bin/loom-matrix",
                "bin/loom-matrix.cmd",
                "ci/ab.sh",
                "ci/pipeline.sh",
                "loom-matrix.jar",
                "services/seed-spring.jar",
                "dashboard/index.html",
                "grafana/compose.yaml",
                "grafana/dashboards/matrix.json",
                "schemas/matrix.schema.json",
                "schemas/results.schema.json",
                "containers/loadgen/build-oha.sh",
                "containers/offline/build-images.sh",
                "matrix.yaml",
                "README.md",
                "docs/getting-started.md",
                "docs/cli.md",
                NAME + ".cdx.json")) {
            assertThat(home.resolve(file)).as(file).isRegularFile();
        }
        // every library the jar's manifest names is there, and nothing of the build's own (tests, Maven)
        String manifest;
        try (var jar = new java.util.jar.JarFile(home.resolve("loom-matrix.jar").toFile())) {
            manifest = jar.getManifest().getMainAttributes().getValue("Class-Path");
        }
        for (String lib : manifest.split(" ")) {
            assertThat(home.resolve(lib)).as(lib).isRegularFile();
        }
        try (var libs = Files.list(home.resolve("lib"))) {
            assertThat(libs.map(p -> p.getFileName().toString()))
                    .noneMatch(n -> n.startsWith("junit-jupiter") || n.startsWith("assertj") || n.startsWith("maven-"));
        }
        assertThat(Files.getPosixFilePermissions(home.resolve("bin/loom-matrix")))
                .contains(PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OTHERS_EXECUTE);
        assertThat(Files.getPosixFilePermissions(home.resolve("ci/ab.sh"))).contains(PosixFilePermission.OWNER_EXECUTE);
        assertThat(Files.getPosixFilePermissions(home.resolve("containers/loadgen/build-oha.sh")))
                .contains(PosixFilePermission.OWNER_EXECUTE);
        // the Windows launcher has Windows line endings, whatever the build host's
        assertThat(Files.readString(home.resolve("bin/loom-matrix.cmd"))).contains("\r\n");
        // the zip holds the same files
        List<String> inTar = new ArrayList<>();
        try (var walk = Files.walk(home)) {
            walk.filter(Files::isRegularFile).forEach(p -> inTar.add(NAME + "/" + home.relativize(p)));
        }
        try (var zip = new ZipFile(DIST.resolve(NAME + ".zip").toFile())) {
            assertThat(zip.stream().filter(e -> !e.isDirectory()).map(e -> e.getName()))
                    .containsExactlyInAnyOrderElementsOf(inTar);
        }
    }

    @Test
    void theChecksumsAreTheFilesAndTheSbomIsCycloneDxOfWhatIsShipped() throws Exception {
        List<String> lines = Files.readAllLines(DIST.resolve("SHA256SUMS"));
        assertThat(lines)
                .extracting(l -> l.substring(66))
                .containsExactly(NAME + ".cdx.json", NAME + ".tar.gz", NAME + ".zip");
        for (String line : lines) {
            String hash = line.substring(0, 64);
            assertThat(line.charAt(64)).isEqualTo(' ');
            assertThat(sha256(DIST.resolve(line.substring(66)))).as(line).isEqualTo(hash);
        }
        String sbom = Files.readString(DIST.resolve(NAME + ".cdx.json"));
        assertThat(sbom).contains("\"bomFormat\" : \"CycloneDX\"");
        // the libraries the CLI runs with are components, with their versions and licences
        assertThat(sbom).contains("pkg:maven/info.picocli/picocli@4.7.7", "pkg:maven/org.xerial/sqlite-jdbc@3.54.1.0");
        assertThat(sbom).doesNotContain("pkg:maven/org.junit.jupiter");
    }

    @Test
    void theInstalledCliRunsWithOnlyAJdkAndNoSourceTree(@TempDir Path work) throws Exception {
        Files.copy(ROOT.resolve("matrix.yaml"), work.resolve("matrix.yaml"));
        Map<String, String> env = Map.of("JAVA_HOME", jdk(), "PATH", "/usr/bin:/bin", "HOME", work.toString());
        String cli = home.resolve("bin/loom-matrix").toString();

        Result version = run(work, env, cli, "--version");
        assertThat(version.code()).as(version.output()).isZero();
        // the first call makes the start-up cache, and says so once
        assertThat(version.output()).startsWith("loom-matrix: preparing a start-up cache for this Java");
        assertThat(version.output().lines().toList().getLast())
                .matches("loom-matrix " + java.util.regex.Pattern.quote(VERSION)
                        + " \\((commit [0-9a-f]{7}.*|built outside a git checkout.*)\\)");

        Result validate = run(work, env, cli, "validate");
        assertThat(validate.code()).as(validate.output()).isZero();
        Result plan = run(work, env, cli, "plan", "--profile", "quick");
        assertThat(plan.code()).as(plan.output()).isZero();
        assertThat(plan.output()).contains("temurin-25.linux.cpus-2.par-auto.max-auto.minr-auto.mass-start");

        // a cell measured for real: the harness inside the installed jar, a JVM of the host's, the local backend
        Result run = run(
                work,
                env,
                cli,
                "run",
                "--profile",
                "quick",
                "--backend",
                "local",
                "--cell",
                "temurin-25.linux.cpus-2.par-auto.max-auto.minr-auto.mass-start",
                "--out",
                work.resolve("results/one").toString());
        assertThat(run.code()).as(run.output()).isZero();
        assertThat(run.output()).contains("mass-start: ok, attested");
        assertThat(work.resolve(
                        "results/one/cells/temurin-25.linux.cpus-2.par-auto.max-auto.minr-auto.mass-start.json"))
                .isRegularFile();
        // the start-up cache went to the user's cache, not into the installation, and was made once
        try (var cds = Files.list(work.resolve(".cache/loom-matrix/cds"))) {
            assertThat(cds.map(p -> p.getFileName().toString())).singleElement().satisfies(n -> assertThat(n)
                    .matches("[0-9]+\\.(aot|jsa)"));
        }
        assertThat(validate.output()).doesNotContain("preparing");

        // init on a prebuilt JMH jar reads its list with JMH's own reader, which the archive must carry (issue #54:
        // the runner declared jmh-core for its tests only, so the archive lacked it)
        Path team = Files.createDirectories(work.resolve("team/lib"));
        jmhJar(team.resolve("benchmarks.jar"));
        Result init = run(team.getParent(), env, cli, "init", "--jar", "lib/benchmarks.jar");
        assertThat(init.code()).as(init.output()).isZero();
        assertThat(Files.readString(team.getParent().resolve("matrix.yaml")))
                .contains("virtual: {params: {threadType: VIRTUAL}}")
                .contains("platform: {params: {threadType: PLATFORM}}");
    }

    /** A JMH jar as init reads it: JMH's launcher and the example's real BenchmarkList (JMH 1.37). */
    private static void jmhJar(Path file) throws IOException {
        try (var jar = new java.util.jar.JarOutputStream(Files.newOutputStream(file))) {
            jar.putNextEntry(new java.util.jar.JarEntry("org/openjdk/jmh/Main.class"));
            jar.write(new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE});
            jar.closeEntry();
            jar.putNextEntry(new java.util.jar.JarEntry("META-INF/BenchmarkList"));
            jar.write(Files.readAllBytes(ROOT.resolve("core/src/test/resources/fixtures/jmh/BenchmarkList")));
            jar.closeEntry();
        }
    }

    @Test
    void withoutJava21ItSaysWhereItLookedAndWhatToDo(@TempDir Path work) throws Exception {
        Path empty = Files.createDirectories(work.resolve("no-jvms"));
        // JAVA_HOME names nothing, the java on PATH is too old (a fake that says 17), and no JVM directory has one
        Path fake = Files.createDirectories(work.resolve("jdk17/bin"));
        Files.writeString(work.resolve("jdk17/release"), "JAVA_VERSION=\"17.0.2\"\n");
        Path java = Files.writeString(fake.resolve("java"), "#!/bin/sh\necho 'should not run' >&2\nexit 99\n");
        java.toFile().setExecutable(true);
        Result r = run(
                work,
                Map.of(
                        "JAVA_HOME", work.resolve("nowhere").toString(),
                        "PATH", fake + ":/usr/bin:/bin",
                        "HOME", work.toString(),
                        "LOOM_MATRIX_JAVA_DIRS", empty.toString()),
                home.resolve("bin/loom-matrix").toString(),
                "validate");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.output())
                .contains("loom-matrix: needs Java 21 or newer, and found none")
                .contains(work.resolve("jdk17") + " (17)")
                .contains("Install a JDK 21+ (e.g. Temurin: https://adoptium.net) and set JAVA_HOME to it.")
                .doesNotContain("should not run");
    }

    /**
     * Reproducible: the same commit built again, from a fresh checkout of it in another directory, gives the same
     * bytes — archive, zip and SBOM (their SHA256SUMS are equal). When this tree has uncommitted changes its own
     * build is not of that commit, so the commit is built twice.
     */
    @Test
    void theSameCommitBuiltAgainElsewhereGivesTheSameBytes(@TempDir Path work) throws Exception {
        Result status = run(ROOT, Map.of("PATH", System.getenv("PATH")), "git", "status", "--porcelain");
        assertThat(status.code()).as(status.output()).isZero();
        boolean clean = status.output().isBlank();
        String first = clean ? Files.readString(DIST.resolve("SHA256SUMS")) : buildAt(work.resolve("a"));
        String second = buildAt(work.resolve("b"));
        assertThat(second).isEqualTo(first).contains(NAME + ".tar.gz");
    }

    /**
     * Builds HEAD in a new worktree at {@code dir} as a release build does (online: the CycloneDX plugin refuses to
     * make an SBOM offline), and returns its SHA256SUMS.
     */
    private static String buildAt(Path dir) throws Exception {
        Map<String, String> env = new java.util.HashMap<>(System.getenv());
        env.put("JAVA_HOME", jdk());
        Result add = run(ROOT, env, "git", "worktree", "add", "--detach", dir.toString(), "HEAD");
        assertThat(add.code()).as(add.output()).isZero();
        try {
            Result build = run(
                    dir,
                    env,
                    "./mvnw",
                    "-B",
                    "-q",
                    "package",
                    "-pl",
                    "dist",
                    "-am",
                    "-DskipTests",
                    "-Dspotless.check.skip=true");
            assertThat(build.code()).as(build.output()).isZero();
            return Files.readString(dir.resolve("dist/target/SHA256SUMS"));
        } finally {
            run(ROOT, env, "git", "worktree", "remove", "--force", dir.toString());
        }
    }

    static String jdk() {
        for (String candidate : List.of(System.getProperty("java.home"), "/usr/lib/jvm/temurin-25-jdk-amd64")) {
            if (Files.isRegularFile(Path.of(candidate, "release"))) {
                return candidate;
            }
        }
        throw new AssertionError("no JDK 21+ to run the installed CLI with");
    }

    record Result(int code, String output) {}

    static Result run(Path dir, Map<String, String> env, String... command) throws IOException, InterruptedException {
        return run(dir, env, 5, command);
    }

    /** The command in {@code dir} with only {@code env}, its output and exit code, within {@code minutes}. */
    static Result run(Path dir, Map<String, String> env, int minutes, String... command)
            throws IOException, InterruptedException {
        // output to a file, not a pipe read to its end first: a child that hangs fails here after the timeout
        Path log = Files.createTempFile("dist-it", ".log");
        try {
            ProcessBuilder pb = new ProcessBuilder(command)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            pb.environment().clear();
            pb.environment().putAll(env);
            Process p = pb.start();
            if (!p.waitFor(minutes, TimeUnit.MINUTES)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new AssertionError("timed out after " + minutes + " min: " + String.join(" ", command) + "\n"
                        + Files.readString(log, StandardCharsets.UTF_8));
            }
            return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    static String sha256(Path file) throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try (var in = Files.newInputStream(file)) {
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
