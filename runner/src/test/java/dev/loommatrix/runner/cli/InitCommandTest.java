package dev.loommatrix.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.matrix.Matrix;
import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.result.FileTrees;
import dev.loommatrix.core.testing.JmhJars;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code loom-matrix init} in a team's repository (issue #29): what it finds, the starter matrix it writes — which
 * the matrix reader accepts once the jar is built — and that it never overwrites a file.
 */
class InitCommandTest {

    @TempDir
    Path repo;

    record Said(int code, String out, String err) {}

    Said init(String... more) {
        return init(repo, more);
    }

    static Said init(Path dir, String... more) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] args = new String[more.length + 3];
        args[0] = "init";
        args[1] = "--dir";
        args[2] = dir.toString();
        System.arraycopy(more, 0, args, 3, more.length);
        int code = LoomMatrix.mainWithoutExit(
                args,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Said(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static final String JMH_POM =
            """
            <project>
              <modelVersion>4.0.0</modelVersion>
              <groupId>com.example</groupId>
              <artifactId>orders-benchmarks</artifactId>
              <dependencies>
                <dependency><groupId>org.openjdk.jmh</groupId><artifactId>jmh-core</artifactId></dependency>
              </dependencies>
              <build><plugins><plugin><artifactId>maven-shade-plugin</artifactId>
                <configuration><finalName>benchmarks</finalName></configuration>
              </plugin></plugins></build>
            </project>
            """;

    @Test
    void aMavenJmhSuiteGetsAJmhEntryForItsUberJarWithItsBenchmarksAndItsThreadParam() throws Exception {
        Files.writeString(repo.resolve("pom.xml"), JMH_POM);
        Files.writeString(repo.resolve("mvnw"), "#!/bin/sh\n");
        Files.createDirectories(repo.resolve("target"));
        JmhJars.blockingExample(repo.resolve("target")); // the example's real BenchmarkList (JMH 1.37)

        Said said = init();
        assertThat(said.code()).as(said.err()).isZero();
        assertThat(said.out())
                .contains("found: a JMH suite built by Maven (target/benchmarks.jar, 2 benchmarks)")
                .contains("wrote: " + repo.resolve("matrix.yaml"))
                .contains("1. build: ./mvnw -q package -DskipTests")
                // the variants are the jar's declared @Param values: nothing to fill in (issue #54)
                .contains("2. loom-matrix validate")
                .doesNotContain("fill in the variants");
        String yaml = Files.readString(repo.resolve("matrix.yaml"));
        assertThat(yaml)
                .contains("example.blocking.BlockingServiceBenchmark.threadsByParam")
                // the suite's own @Param that names the thread kind is what the variants set
                .contains("virtual: {params: {threadType: VIRTUAL}}")
                .contains("platform: {params: {threadType: PLATFORM}}")
                // issue #49: only the benchmarks that declare it (threadsByConfiguration has no threadType: it would
                // run alike in both variants)
                .contains("include: ['BlockingServiceBenchmark\\.threadsByParam$']")
                .contains("# 1 of them without the @Param threadType are left out");
        // the reader accepts it as written, with the quick profile
        Matrix matrix = MatrixParser.parse(repo.resolve("matrix.yaml"), Optional.of("quick"));
        assertThat(matrix.workloads()).singleElement().satisfies(w -> {
            assertThat(w.user().orElseThrow().artifact()).isInstanceOf(UserWorkload.Jmh.class);
            assertThat(w.variants()).containsExactly("virtual", "platform");
        });
        // a Docker engine without a registry (issue #54): the offline profile's JDKs are the images built on the host
        Matrix offline = MatrixParser.parse(repo.resolve("matrix.yaml"), Optional.of("offline"));
        assertThat(offline.jdks())
                .extracting(j -> j.image().orElse(""))
                .containsExactly("local/debian-openjdk:21", "local/debian-openjdk:25");
        assertThat(offline.workloads()).singleElement().satisfies(w -> assertThat(w.variants())
                .containsExactly("virtual", "platform"));
        assertThat(said.out()).contains("--profile offline");
    }

    /**
     * A third-party suite's uber-jar, downloaded or built by a tool init does not read (issue #54): named with
     * {@code --jar}, or found in a module; either way a jmh: entry whose variants set the suite's thread-kind
     * {@code @Param}, never a program run whole with a made-up property.
     */
    @Test
    void aPrebuiltJmhJarIsASuiteWhetherNamedOrFoundInAModule() throws Exception {
        Files.createDirectories(repo.resolve("lib"));
        JmhJars.blockingExample(repo.resolve("lib"));
        Said named = init("--jar", repo.resolve("lib/benchmarks.jar").toString());
        assertThat(named.code()).as(named.err()).isZero();
        assertThat(named.out()).contains("found: a JMH suite, already built (lib/benchmarks.jar, 2 benchmarks)");
        String yaml = Files.readString(repo.resolve("matrix.yaml"));
        assertThat(yaml)
                .contains("    jmh:\n      jar: lib/benchmarks.jar")
                // the values the jar's list declares for the @Param (issue #54), not a guess to check
                .contains("      # the values the jar declares for @Param threadType\n"
                        + "      virtual: {params: {threadType: VIRTUAL}}\n"
                        + "      platform: {params: {threadType: PLATFORM}}\n"
                        + "    baseline: platform\n")
                .doesNotContain("check the values it takes")
                .doesNotContain("program:");
        assertThat(MatrixParser.parse(repo.resolve("matrix.yaml"), Optional.empty())
                        .workloads())
                .singleElement()
                .satisfies(w -> assertThat(w.user().orElseThrow().artifact()).isInstanceOf(UserWorkload.Jmh.class));

        // a multi-module Maven build whose root has no JMH: the module's built suite
        Files.delete(repo.resolve("matrix.yaml"));
        FileTrees.delete(repo.resolve("lib"));
        Files.writeString(repo.resolve("pom.xml"), "<project><artifactId>parent</artifactId></project>\n");
        Files.createDirectories(repo.resolve("perf/target"));
        JmhJars.blockingExample(repo.resolve("perf/target"));
        Said module = init();
        assertThat(module.code()).as(module.err()).isZero();
        assertThat(module.out())
                .contains("found: a JMH suite built by Maven (perf/target/benchmarks.jar, 2 benchmarks)");
        assertThat(Files.readString(repo.resolve("matrix.yaml"))).contains("jar: perf/target/benchmarks.jar");
    }

    @Test
    void aSuiteNotBuiltYetIsNamedWhereItsBuildWillPutIt() throws Exception {
        Files.writeString(repo.resolve("pom.xml"), JMH_POM.replace("benchmarks</finalName>", "perf</finalName>"));
        Said said = init();
        assertThat(said.out())
                .contains("found: a JMH suite built by Maven (target/perf.jar, not built yet)")
                .contains("1. build: mvn -q package -DskipTests");
        assertThat(Files.readString(repo.resolve("matrix.yaml")))
                .contains("jar: target/perf.jar")
                .contains("virtual: {properties: {\"<property your code reads>\": virtual}}");
    }

    /**
     * Issue #49, in the README's order — init, then build: the variants init cannot know are placeholders, and the
     * matrix reader refuses them where they stand once the jar is there, instead of measuring a made-up property
     * nothing reads as "virtual".
     */
    @Test
    void initBeforeTheBuildWritesPlaceholdersThatValidateRefusesUntilFilledIn() throws Exception {
        Files.writeString(repo.resolve("pom.xml"), JMH_POM);
        assertThat(init().code()).isZero();
        Files.createDirectories(repo.resolve("target"));
        JmhJars.blockingExample(repo.resolve("target")); // the build
        var refused = org.assertj.core.api.Assertions.catchThrowableOfType(
                dev.loommatrix.core.matrix.MatrixException.class,
                () -> MatrixParser.parse(repo.resolve("matrix.yaml"), Optional.empty()));
        assertThat(refused.problems()).hasSize(2).allSatisfy(p -> assertThat(p.format())
                .contains("still has the placeholder '<property your code reads>' that loom-matrix init wrote")
                .contains("hint: put what switches your code between thread kinds in its place"));

        // the same matrix as a team fills it in: accepted
        Path matrix = repo.resolve("matrix.yaml");
        Files.writeString(
                matrix, Files.readString(matrix).replace("\"<property your code reads>\"", "blocking.threads"));
        MatrixParser.parse(matrix, Optional.empty());
    }

    @Test
    void aGradleJmhPluginSuiteIsItsJmhJar() throws Exception {
        Files.writeString(repo.resolve("build.gradle.kts"), "plugins { id(\"me.champeau.jmh\") version \"0.7.3\" }\n");
        Files.writeString(repo.resolve("gradlew"), "#!/bin/sh\n");
        Files.createDirectories(repo.resolve("build/libs"));
        JmhJars.blockingExample(repo.resolve("build/libs"));
        Files.move(repo.resolve("build/libs/benchmarks.jar"), repo.resolve("build/libs/orders-1.0-jmh.jar"));
        Said said = init();
        assertThat(said.out())
                .contains("found: a JMH suite built by Gradle (build/libs/orders-1.0-jmh.jar, 2 benchmarks)")
                .contains("1. build: ./gradlew jmhJar");
        MatrixParser.parse(repo.resolve("matrix.yaml"), Optional.empty());
    }

    @Test
    void aRunnableJarIsAProgramEntry() throws Exception {
        Files.writeString(repo.resolve("pom.xml"), "<project><artifactId>orders</artifactId></project>");
        Files.createDirectories(repo.resolve("target"));
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "com.example.Orders");
        try (var out = new JarOutputStream(Files.newOutputStream(repo.resolve("target/orders-1.0.jar")), manifest)) {
            // the manifest is what init and the reader look at
        }
        Files.copy(repo.resolve("target/orders-1.0.jar"), repo.resolve("target/original-orders-1.0.jar"));
        Said said = init();
        assertThat(said.out()).contains("found: a runnable jar (target/orders-1.0.jar)");
        String yaml = Files.readString(repo.resolve("matrix.yaml"));
        assertThat(yaml).contains("  - id: orders-1-0\n    program:\n      jar: target/orders-1.0.jar");
        // accepted once the team names the property its program reads
        Files.writeString(
                repo.resolve("matrix.yaml"), yaml.replace("\"<property your code reads>\"", "orders.threads"));
        Matrix matrix = MatrixParser.parse(repo.resolve("matrix.yaml"), Optional.of("quick"));
        assertThat(matrix.workloads().get(0).user().orElseThrow().artifact()).isInstanceOf(UserWorkload.Program.class);
    }

    @Test
    void withNothingToMeasureItStartsFromTheBuiltInWorkloads() throws Exception {
        Said said = init();
        assertThat(said.out()).contains("found: no JMH suite or runnable jar");
        Matrix matrix = MatrixParser.parse(repo.resolve("matrix.yaml"), Optional.of("quick"));
        assertThat(matrix.workloads()).extracting(w -> w.id()).containsExactly("sleep-bound", "primes-io");
    }

    @Test
    void itNeverOverwritesAFileAndSaysSo() throws Exception {
        Files.writeString(repo.resolve("matrix.yaml"), "# ours\n");
        Said said = init();
        assertThat(said.code()).isZero();
        assertThat(said.out())
                .contains("kept: " + repo.resolve("matrix.yaml") + " (it exists; init never overwrites a file)")
                .contains("1. matrix.yaml was already here and is left as it was");
        assertThat(Files.readString(repo.resolve("matrix.yaml"))).isEqualTo("# ours\n");
    }

    @Test
    void aDirectoryOrJarThatIsNotThereIsTheUsersMistake() {
        Said said = init("--jar", repo.resolve("nope.jar").toString());
        assertThat(said.code()).isEqualTo(2);
        assertThat(said.err()).contains("--jar " + repo.resolve("nope.jar") + " does not exist; build it first");
    }

    /**
     * The calling workflows: a few lines each, every {@code uses:} pinned (by commit for this build, the version in a
     * comment), the build command and the quick profile passed where the project has them, parsed as YAML.
     */
    @Test
    @SuppressWarnings("unchecked")
    void itWritesTheWorkflowsThatCallThisReleasesReusableOnes() throws Exception {
        Files.writeString(repo.resolve("pom.xml"), JMH_POM);
        Files.writeString(repo.resolve("mvnw"), "#!/bin/sh\n");
        Said said = init("--uses", "acme/loom-matrix@v1.2.3");
        assertThat(said.code()).as(said.err()).isZero();
        Path workflows = repo.resolve(".github/workflows");
        assertThat(said.out())
                .contains("wrote: " + workflows.resolve("benchmarks.yml"))
                .contains("wrote: " + workflows.resolve("benchmarks-pr.yml"))
                .contains("wrote: " + workflows.resolve("benchmarks-pr-comment.yml"))
                .contains("commit matrix.yaml and .github/workflows/benchmarks*.yml")
                .contains("GitHub-hosted runners");
        var load = new org.snakeyaml.engine.v2.api.Load(
                org.snakeyaml.engine.v2.api.LoadSettings.builder().build());
        var nightly = (java.util.Map<String, Object>)
                load.loadFromString(Files.readString(workflows.resolve("benchmarks.yml")));
        var job = (java.util.Map<String, Object>) ((java.util.Map<String, Object>) nightly.get("jobs")).get("matrix");
        assertThat(job.get("uses")).isEqualTo("acme/loom-matrix/.github/workflows/loom-matrix-nightly.yml@v1.2.3");
        assertThat((java.util.Map<String, Object>) job.get("with"))
                .containsEntry("build", "./mvnw -q package -DskipTests");
        assertThat(nightly.get("permissions")).isEqualTo(java.util.Map.of());
        var pr = (java.util.Map<String, Object>)
                load.loadFromString(Files.readString(workflows.resolve("benchmarks-pr.yml")));
        var ab = (java.util.Map<String, Object>) ((java.util.Map<String, Object>) pr.get("jobs")).get("ab");
        assertThat((java.util.Map<String, Object>) ab.get("with")).containsEntry("profile", "quick");
        // the comment workflow listens to the pull-request workflow by its name
        assertThat(Files.readString(workflows.resolve("benchmarks-pr-comment.yml")))
                .contains("workflows: [" + pr.get("name") + "]")
                .contains("uses: acme/loom-matrix/.github/workflows/loom-matrix-pr-comment.yml@v1.2.3\n");
        // the nightly's alert dispatches the bisect workflow init wrote, by its file name, with the inputs it declares
        var alert = (java.util.Map<String, Object>) ((java.util.Map<String, Object>) nightly.get("jobs")).get("alert");
        assertThat(alert.get("uses")).isEqualTo("acme/loom-matrix/.github/workflows/loom-matrix-alert.yml@v1.2.3");
        assertThat(alert.get("permissions")).isEqualTo(java.util.Map.of("issues", "write", "actions", "write"));
        assertThat((java.util.Map<String, Object>) alert.get("with"))
                .containsEntry("bisect-workflow", "benchmarks-bisect.yml")
                .containsEntry("site-url", "${{ needs.matrix.outputs.page-url }}");
        var bisect = (java.util.Map<String, Object>)
                load.loadFromString(Files.readString(workflows.resolve("benchmarks-bisect.yml")));
        var dispatch = (java.util.Map<String, Object>)
                ((java.util.Map<String, Object>) bisect.get("on")).get("workflow_dispatch");
        assertThat(((java.util.Map<String, Object>) dispatch.get("inputs")).keySet())
                .containsExactly("good", "bad", "cell", "series", "issue", "images");
        var bisectJob =
                (java.util.Map<String, Object>) ((java.util.Map<String, Object>) bisect.get("jobs")).get("bisect");
        assertThat(bisectJob.get("uses")).isEqualTo("acme/loom-matrix/.github/workflows/loom-matrix-bisect.yml@v1.2.3");
        assertThat((java.util.Map<String, Object>) bisectJob.get("with"))
                .containsEntry("build", "./mvnw -q package -DskipTests")
                .containsEntry("issue", "${{ inputs.issue }}");
        for (Path file : java.util.List.of(
                workflows.resolve("benchmarks.yml"),
                workflows.resolve("benchmarks-pr.yml"),
                workflows.resolve("benchmarks-pr-comment.yml"),
                workflows.resolve("benchmarks-bisect.yml"))) {
            long lines = Files.readAllLines(file).stream()
                    .filter(l -> !l.isBlank() && !l.strip().startsWith("#"))
                    .count();
            assertThat(lines).as(file + ": about ten lines of YAML a job").isLessThanOrEqualTo(24);
        }

        // run again: every file kept as it is, and said so
        Files.writeString(workflows.resolve("benchmarks.yml"), "# ours\n");
        Said again = init();
        assertThat(again.out())
                .contains("kept: " + workflows.resolve("benchmarks.yml") + " (it exists; init never overwrites a file)")
                .doesNotContain("wrote:");
        assertThat(Files.readString(workflows.resolve("benchmarks.yml"))).isEqualTo("# ours\n");
    }

    @Test
    void thisBuildPinsItsOwnCommitWithTheVersionInAComment() {
        String sha = "0123456789abcdef0123456789abcdef01234567";
        var released = dev.loommatrix.runner.init.CallingWorkflows.Source.ofThisBuild(
                "acme/loom-matrix", "1.2.3", Optional.of(sha));
        assertThat(released.ref()).isEqualTo(sha);
        assertThat(released.label()).isEqualTo("v1.2.3");
        var snapshot = dev.loommatrix.runner.init.CallingWorkflows.Source.ofThisBuild(
                "acme/loom-matrix", "1.3.0-SNAPSHOT", Optional.of(sha));
        assertThat(snapshot.label()).contains("unreleased commit: built from source");
        var noCommit = dev.loommatrix.runner.init.CallingWorkflows.Source.ofThisBuild(
                "acme/loom-matrix", "1.2.3", Optional.empty());
        assertThat(noCommit.ref()).isEqualTo("v1.2.3");
    }

    @Test
    void withoutAQuickProfileThePullRequestRunsTheMatrixAndNoWorkflowsMeansNone() throws Exception {
        Files.writeString(repo.resolve("matrix.yaml"), "schema: 1\nworkloads: [{id: sleep-bound}]\n");
        Said said = init("--uses", "acme/loom-matrix@v1.2.3");
        assertThat(Files.readString(repo.resolve(".github/workflows/benchmarks-pr.yml")))
                .doesNotContain("profile:")
                .doesNotContain("build:");
        Path other = repo.resolve("other");
        Files.createDirectories(other);
        Said none = init(other, "--no-workflows");
        assertThat(none.out())
                .contains("wrote: " + other.resolve("matrix.yaml"))
                .doesNotContain("benchmarks.yml");
        assertThat(other.resolve(".github")).doesNotExist();
        assertThat(said.code()).isZero();
    }

    @Test
    void aUsesThatIsNotOwnerRepoAtRefIsTheUsersMistake() {
        Said said = init("--uses", "loom-matrix");
        assertThat(said.code()).isEqualTo(2);
        assertThat(said.err())
                .contains("--uses: expected OWNER/REPO@REF (e.g. acme/loom-matrix@v0.1.0), got 'loom-matrix'");
        assertThat(repo.resolve("matrix.yaml")).doesNotExist();
    }
}
