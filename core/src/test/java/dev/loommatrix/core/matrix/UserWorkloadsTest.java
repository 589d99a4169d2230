package dev.loommatrix.core.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.loommatrix.core.stats.MetricDescriptor;
import dev.loommatrix.core.testing.JmhJars;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The user's own code as workloads: what a valid entry becomes, and every mistake found before a run. */
class UserWorkloadsTest {

    @TempDir
    Path dir;

    static final String HEAD =
            """
            schema: 1
            jdks:
              - {id: t21, vm: hotspot, version: 21, image: "eclipse-temurin:21-jdk"}
            cpus: [2]
            workloads:
            """;

    static final String JMH_ENTRY =
            """
              - id: blocking
                jmh:
                  jar: benchmarks.jar
                  include: ['threadsByParam$']
                  params: {poolSize: [50, 100], requests: 100}
                  iterations: 3
                  time: 200ms
                variants:
                  virtual: {params: {threadType: VIRTUAL}}
                  platform: {params: {threadType: PLATFORM}, jvmArgs: ["-Xss512k"], env: {A: b}}
                baseline: platform
            """;

    @BeforeEach
    void jar() throws Exception {
        JmhJars.blockingExample(dir);
    }

    Matrix parse(String yaml, Optional<String> profile) throws Exception {
        Path file = Files.writeString(dir.resolve("m.yaml"), yaml);
        return MatrixParser.parse(file, profile);
    }

    List<String> problems(String yaml) throws Exception {
        Path file = Files.writeString(dir.resolve("m.yaml"), yaml);
        return catchThrowableOfType(MatrixException.class, () -> MatrixParser.parse(file, Optional.empty()))
                .problems()
                .stream()
                .map(p -> p.format().replace(dir.toString(), "DIR"))
                .toList();
    }

    @Test
    void aJmhEntryBecomesAUserWorkloadWithItsSelectedBenchmarksAndVariants() throws Exception {
        WorkloadSpec w = parse(HEAD + JMH_ENTRY, Optional.empty()).workloads().get(0);
        assertThat(w.id()).isEqualTo("blocking");
        assertThat(w.variants()).containsExactly("virtual", "platform");
        UserWorkload user = w.user().orElseThrow();
        assertThat(user.baseline()).isEqualTo("platform");
        UserWorkload.Jmh jmh = (UserWorkload.Jmh) user.artifact();
        assertThat(jmh.jar()).isEqualTo(dir.resolve("benchmarks.jar"));
        assertThat(jmh.benchmarks()).containsExactly("example.blocking.BlockingServiceBenchmark.threadsByParam");
        assertThat(jmh.params())
                .containsExactly(Map.entry("poolSize", List.of("50", "100")), Map.entry("requests", List.of("100")));
        assertThat(jmh.iterations()).isEqualTo(OptionalInt.of(3));
        assertThat(jmh.time()).contains("200ms");
        assertThat(jmh.forks())
                .as("each fresh JVM is one fork unless the entry says otherwise")
                .isEqualTo(OptionalInt.of(0));
        assertThat(user.settings("virtual").params()).containsExactly(Map.entry("threadType", "VIRTUAL"));
        assertThat(user.settings("platform").jvmArgs()).containsExactly("-Xss512k");
        assertThat(user.settings("platform").env()).containsExactly(Map.entry("A", "b"));
    }

    @Test
    void aProfileChangesAUserWorkloadsJmhOptions() throws Exception {
        String yaml = HEAD + JMH_ENTRY
                + "profiles:\n  quick:\n    workloads:\n      blocking: {jmh: {iterations: 1, forks: suite}}\n";
        UserWorkload.Jmh jmh = (UserWorkload.Jmh) parse(yaml, Optional.of("quick"))
                .workloads()
                .get(0)
                .user()
                .orElseThrow()
                .artifact();
        assertThat(jmh.iterations()).isEqualTo(OptionalInt.of(1));
        assertThat(jmh.forks()).as("'suite' keeps the suite's own @Fork").isEmpty();
        assertThat(jmh.time()).as("merged, not replaced").contains("200ms");
    }

    @Test
    void aJarThatDoesNotExistIsFoundAtItsLine() throws Exception {
        assertThat(problems(HEAD + JMH_ENTRY.replace("jar: benchmarks.jar", "jar: target/missing.jar")))
                .containsExactly(
                        """
                        DIR/m.yaml:8:12: error: jar DIR/target/missing.jar does not exist
                          hint: build it first (e.g. 'mvn package' makes target/benchmarks.jar); paths are relative to the matrix file""");
    }

    @Test
    void aFileThatIsNotAJarSaysSo() throws Exception {
        Files.writeString(dir.resolve("notes.jar"), "not a zip");
        assertThat(problems(HEAD + JMH_ENTRY.replace("jar: benchmarks.jar", "jar: notes.jar")))
                .singleElement()
                .asString()
                .startsWith("DIR/m.yaml:8:12: error: file DIR/notes.jar is not a jar (")
                .endsWith("hint: name a .jar file");
    }

    @Test
    void aJarWithoutJmhOrWithoutBenchmarksSaysWhich() throws Exception {
        JmhJars.jar(dir.resolve("plain.jar"), null, false);
        assertThat(problems(HEAD + JMH_ENTRY.replace("jar: benchmarks.jar", "jar: plain.jar")))
                .containsExactly(
                        """
                        DIR/m.yaml:8:12: error: jar DIR/plain.jar does not contain JMH (no org/openjdk/jmh/Main.class)
                          hint: use the uber-jar the JMH build makes (maven-shade-plugin or the Gradle JMH plugin's jmhJar), not the plain project jar""");
        JmhJars.jar(dir.resolve("nolist.jar"), null, true);
        assertThat(problems(HEAD + JMH_ENTRY.replace("jar: benchmarks.jar", "jar: nolist.jar")))
                .containsExactly(
                        """
                        DIR/m.yaml:8:12: error: jar DIR/nolist.jar lists no benchmarks (no META-INF/BenchmarkList)
                          hint: JMH's annotation processor (jmh-generator-annprocess) must run when the jar is built; javac 23 and later run processors only when asked: list it in annotationProcessorPaths or pass -proc:full""");
    }

    @Test
    void anIncludeThatMatchesNothingListsWhatTheJarHas() throws Exception {
        assertThat(problems(HEAD + JMH_ENTRY.replace("['threadsByParam$']", "['threadsByPram']")))
                .containsExactly(
                        """
                        DIR/m.yaml:9:16: error: no benchmark in benchmarks.jar matches include [threadsByPram]
                          hint: the jar lists: example.blocking.BlockingServiceBenchmark.threadsByConfiguration, example.blocking.BlockingServiceBenchmark.threadsByParam""");
        assertThat(problems(HEAD + JMH_ENTRY.replace("['threadsByParam$']", "['threadsBy(']")))
                .singleElement()
                .asString()
                .startsWith(
                        "DIR/m.yaml:9:17: error: workloads[0].jmh.include 'threadsBy(' is not a regular expression: Unclosed group");
    }

    @Test
    void aParamNoSelectedBenchmarkHasIsNamedWithTheOnesItHas() throws Exception {
        assertThat(problems(HEAD + JMH_ENTRY.replace("threadType: VIRTUAL", "threadTyp: VIRTUAL")))
                .containsExactly(
                        """
                        DIR/m.yaml:14:26: error: no selected benchmark has a @Param 'threadTyp' (did you mean 'threadType'?)
                          hint: they have: poolSize, requests, threadType""");
    }

    @Test
    void aVariantThatSetsNothingAndAMissingOrUnknownBaselineAreErrors() throws Exception {
        assertThat(problems(HEAD + JMH_ENTRY.replace("{params: {threadType: VIRTUAL}}", "{}")))
                .containsExactly(
                        """
                        DIR/m.yaml:14:16: error: variant 'virtual' sets nothing
                          hint: give it jvmArgs, properties, env, args, params or method, e.g. {jvmArgs: ["-Dspring.threads.virtual.enabled=true"]}""");
        assertThat(problems(HEAD + JMH_ENTRY.replace("    baseline: platform\n", "")))
                .singleElement()
                .asString()
                .startsWith("DIR/m.yaml:6:5: error: workloads[0] does not say which variant is the baseline");
        assertThat(problems(HEAD + JMH_ENTRY.replace("baseline: platform", "baseline: platfrom")))
                .singleElement()
                .asString()
                .startsWith(
                        "DIR/m.yaml:16:15: error: baseline 'platfrom' is not one of workloads[0]'s variants (did you mean 'platform'?)");
    }

    /** Issue #19: an entry names the contrast its tiles show first; without one, virtual over the baseline. */
    @Test
    void anEntryDeclaresItsHeadlineContrastOrGetsVirtualOverTheBaseline() throws Exception {
        UserWorkload plain = parse(HEAD + JMH_ENTRY, Optional.empty())
                .workloads()
                .get(0)
                .user()
                .orElseThrow();
        assertThat(plain.contrast())
                .isEqualTo(Contrast.over("virtual", "platform", "virtual vs the baseline platform"));

        String declared = JMH_ENTRY.replace(
                "    baseline: platform\n",
                "    baseline: platform\n    headline: {subject: virtual, words: \"virtual threads in our service vs its 200-thread pool\"}\n");
        UserWorkload user = parse(HEAD + declared, Optional.empty())
                .workloads()
                .get(0)
                .user()
                .orElseThrow();
        assertThat(user.contrast())
                .isEqualTo(
                        Contrast.over("virtual", "platform", "virtual threads in our service vs its 200-thread pool"));

        assertThat(problems(HEAD + declared.replace("subject: virtual", "subject: virtul")))
                .containsExactly(
                        """
                        DIR/m.yaml:17:25: error: headline subject 'virtul' is not one of the entry's variants (did you mean 'virtual'?)
                          hint: variants: virtual, platform""");
        assertThat(problems(HEAD + declared.replace("subject: virtual", "subject: platform")))
                .singleElement()
                .asString()
                .startsWith(
                        "DIR/m.yaml:17:25: error: headline subject 'platform' is the baseline: its speedup over itself is 1");
        assertThat(problems(HEAD + declared.replace("subject: virtual, ", "")))
                .singleElement()
                .asString()
                .startsWith("DIR/m.yaml:17:15: error: workloads[0].headline does not name its subject");
    }

    @Test
    void unknownKeysAndBuiltInIdsAreErrors() throws Exception {
        assertThat(problems(HEAD + JMH_ENTRY.replace("iterations: 3", "iteration: 3")))
                .singleElement()
                .asString()
                .startsWith(
                        "DIR/m.yaml:11:7: error: unknown key 'iteration' in workloads[0].jmh (did you mean 'iterations'?)");
        assertThat(problems(HEAD + JMH_ENTRY.replace("id: blocking", "id: sleep-bound")))
                .singleElement()
                .asString()
                .startsWith(
                        "DIR/m.yaml:6:9: error: 'sleep-bound' is a built-in workload; a workload with your own code needs its own id");
        assertThat(problems(HEAD + JMH_ENTRY.replace("platform: {params", "platform: {param")))
                .first()
                .asString()
                .startsWith("DIR/m.yaml:15:18: error: unknown key 'param' in workloads[0].variants.platform");
    }

    @Test
    void aProgramIsARunnableJarOrAClasspathWithAMainClassAndDeclaresItsMetrics() throws Exception {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "app.Main");
        try (var out = new JarOutputStream(Files.newOutputStream(dir.resolve("app.jar")), manifest)) {
            // a manifest is all the reader looks at
        }
        String program =
                """
                  - id: service
                    program:
                      jar: app.jar
                      args: ["--requests", "1000"]
                      metrics: {p99: {unit: ms, direction: lower}, rps: {unit: req/s, direction: higher}}
                    variants:
                      virtual: {jvmArgs: ["-Dspring.threads.virtual.enabled=true"]}
                      platform: {jvmArgs: ["-Dspring.threads.virtual.enabled=false"]}
                    baseline: platform
                """;
        UserWorkload.Program p = (UserWorkload.Program) parse(HEAD + program, Optional.empty())
                .workloads()
                .get(0)
                .user()
                .orElseThrow()
                .artifact();
        assertThat(p.jar()).contains(dir.resolve("app.jar"));
        assertThat(p.args()).containsExactly("--requests", "1000");
        assertThat(p.judgedBy())
                .isEqualTo(new MetricDescriptor("p99", "ms", MetricDescriptor.Direction.LOWER_IS_BETTER));

        assertThat(problems(HEAD + program.replace("jar: app.jar", "classpath: [app.jar]")))
                .containsExactly(
                        """
                        DIR/m.yaml:8:7: error: workloads[0].program has a classpath but no mainClass
                          hint: add e.g. mainClass: com.example.Main""");
        assertThat(problems(HEAD + program.replace("direction: higher", "direction: up")))
                .singleElement()
                .asString()
                .contains("workloads[0].program.metrics.rps.direction");
        assertThat(problems(HEAD
                        + program.replace(
                                "{jvmArgs: [\"-Dspring.threads.virtual.enabled=true\"]}", "{params: {a: b}}")))
                .singleElement()
                .asString()
                .startsWith("DIR/m.yaml:12:17: error: workloads[0].variants.virtual.params is for JMH @Param values");
    }

    /** Issue #49: init's placeholders switch nothing; the matrix is refused where each stands, until filled in. */
    @Test
    void initsPlaceholdersAreRefusedWhereTheyStand() throws Exception {
        String entry = JMH_ENTRY
                .replace(
                        "virtual: {params: {threadType: VIRTUAL}}",
                        "virtual: {properties: {\"<property your code reads>\": virtual}}")
                .replace(
                        "platform: {params: {threadType: PLATFORM}, jvmArgs: [\"-Xss512k\"], env: {A: b}}",
                        "platform: {properties: {\"<property your code reads>\": platform}}");
        assertThat(problems(HEAD + entry))
                .containsExactly(
                        """
                        DIR/m.yaml:14:30: error: variant 'virtual' still has the placeholder '<property your code reads>' that loom-matrix init wrote
                          hint: put what switches your code between thread kinds in its place: the system property it reads (e.g. spring.threads.virtual.enabled), or use params: {threadType: VIRTUAL} for a @Param, jvmArgs or env; loom-matrix then checks in every JVM that it was read""",
                        """
                        DIR/m.yaml:15:31: error: variant 'platform' still has the placeholder '<property your code reads>' that loom-matrix init wrote
                          hint: put what switches your code between thread kinds in its place: the system property it reads (e.g. spring.threads.virtual.enabled), or use params: {threadType: VIRTUAL} for a @Param, jvmArgs or env; loom-matrix then checks in every JVM that it was read""");
    }

    /**
     * Issue #49: JMH runs a benchmark without the variant's @Param as it is, alike in every variant; a variant's
     * @Param must be one every selected benchmark declares (the example's threadsByConfiguration has no threadType).
     */
    @Test
    void aVariantsParamThatOnlySomeSelectedBenchmarksDeclareIsRefused() throws Exception {
        assertThat(problems(HEAD + JMH_ENTRY.replace("include: ['threadsByParam$']", "include: ['.*']")))
                .containsExactly(
                        """
                        DIR/m.yaml:14:26: error: variant 'virtual' sets @Param 'threadType', which 1 of the 2 selected benchmarks do not declare (example.blocking.BlockingServiceBenchmark.threadsByConfiguration): they would run alike in every variant
                          hint: select only the benchmarks that declare it, e.g. include: ['BlockingServiceBenchmark\\.threadsByParam$'], or switch the others with a property they read""",
                        """
                        DIR/m.yaml:15:27: error: variant 'platform' sets @Param 'threadType', which 1 of the 2 selected benchmarks do not declare (example.blocking.BlockingServiceBenchmark.threadsByConfiguration): they would run alike in every variant
                          hint: select only the benchmarks that declare it, e.g. include: ['BlockingServiceBenchmark\\.threadsByParam$'], or switch the others with a property they read""");
    }
}
