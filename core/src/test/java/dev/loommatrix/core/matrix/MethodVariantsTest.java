package dev.loommatrix.core.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.loommatrix.core.testing.JmhJars;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Suites that write their alternatives as benchmark methods ({@code synchronizedCall} beside {@code
 * reentrantLockCall}): a variant names its method, and the variants are contrasted by class.
 */
class MethodVariantsTest {

    @TempDir
    Path dir;

    static final String ENTRY =
            """
            schema: 1
            jdks:
              - {id: t21, vm: hotspot, version: 21, image: "eclipse-temurin:21-jdk"}
            cpus: [2]
            workloads:
              - id: guarded
                jmh:
                  jar: methods.jar
                  include: ['GuardedCallBenchmark']
                variants:
                  synchronized: {method: synchronizedCall}
                  reentrant-lock: {method: reentrantLockCall}
                baseline: reentrant-lock
                headline: {subject: synchronized, words: "synchronized against a ReentrantLock"}
            """;

    @BeforeEach
    void jar() throws Exception {
        JmhJars.methodsSuite(dir);
        JmhJars.blockingExample(dir);
    }

    UserWorkload parse(String yaml) throws Exception {
        Path file = Files.writeString(dir.resolve("m.yaml"), yaml);
        return MatrixParser.parse(file, Optional.empty())
                .workloads()
                .get(0)
                .user()
                .orElseThrow();
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
    void eachVariantRunsItsOwnMethodOfEachSelectedClass() throws Exception {
        UserWorkload user = parse(ENTRY);
        UserWorkload.Jmh jmh = (UserWorkload.Jmh) user.artifact();
        assertThat(jmh.benchmarks())
                .containsExactlyInAnyOrder(
                        "example.methods.GuardedCallBenchmark.synchronizedCall",
                        "example.methods.GuardedCallBenchmark.reentrantLockCall");
        assertThat(user.settings("synchronized").method()).contains("synchronizedCall");
        assertThat(jmh.benchmarksOf(user.settings("synchronized")))
                .containsExactly("example.methods.GuardedCallBenchmark.synchronizedCall");
        assertThat(jmh.benchmarksOf(user.settings("reentrant-lock")))
                .containsExactly("example.methods.GuardedCallBenchmark.reentrantLockCall");
        // each variant runs one benchmark, not the two the include selects: what the plan's cost counts
        assertThat(user.benchmarksPerVariant()).isEqualTo(1);
        assertThat(user.contrast().subject()).isEqualTo("synchronized");
    }

    @Test
    void aMethodTheSelectedClassDoesNotDeclareIsRefusedWithItsMethods() throws Exception {
        assertThat(problems(ENTRY.replace("method: reentrantLockCall", "method: lockCall")))
                .containsExactly(
                        """
                        DIR/m.yaml:12:32: error: no benchmark method 'lockCall' in example.methods.GuardedCallBenchmark (a selected class)
                          hint: GuardedCallBenchmark has: reentrantLockCall, synchronizedCall; or narrow include to the classes that declare it""");
    }

    @Test
    void aVariantWithoutAMethodBesideOneWithIsRefused() throws Exception {
        assertThat(problems(ENTRY.replace("{method: reentrantLockCall}", "{jvmArgs: [\"-Xss512k\"]}")))
                .containsExactly(
                        """
                        DIR/m.yaml:12:23: error: variant 'reentrant-lock' names no method while 'synchronized' does: it would run every selected benchmark and pair with none of the others
                          hint: give every variant of this entry the benchmark method it runs (method: NAME), or make the methods' contrast an entry of its own""");
    }

    @Test
    void aMethodIsAJmhSettingAndAName() throws Exception {
        assertThat(problems(ENTRY.replace("method: synchronizedCall", "method: \"synchronizedCall()\"")))
                .singleElement()
                .asString()
                .contains("error: workloads[0].variants.synchronized.method 'synchronizedCall()' is not a method name");
        String program = ENTRY.replace(
                        "jmh:\n      jar: methods.jar\n      include: ['GuardedCallBenchmark']",
                        "program:\n      jar: methods.jar")
                .replace("{method: reentrantLockCall}", "{jvmArgs: [\"-Xss512k\"]}");
        assertThat(problems(program)).anySatisfy(p -> assertThat(p)
                .contains("error: workloads[0].variants.synchronized.method is for a JMH suite's benchmark"
                        + " methods"));
    }

    @Test
    void aVariantsParamIsHeldToTheBenchmarksItsMethodRuns() throws Exception {
        // both methods declare tasks: a method variant may set it
        UserWorkload user =
                parse(ENTRY.replace("{method: synchronizedCall}", "{method: synchronizedCall, params: {tasks: 32}}"));
        assertThat(user.settings("synchronized").params()).containsEntry("tasks", "32");
    }
}
