package dev.loommatrix.core.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class MatrixParserTest {

    static final Path MATRICES = Path.of("src/test/resources/matrices");

    static Matrix parse(String yaml, String profile) throws MatrixException {
        return MatrixParser.parse("m.yaml", yaml, Optional.ofNullable(profile), Path.of("m.yaml"));
    }

    static List<String> problems(String yaml) {
        return catchThrowableOfType(MatrixException.class, () -> parse(yaml, null)).problems().stream()
                .map(Problem::format)
                .toList();
    }

    @Test
    void theProjectsOwnMatrixIsValid() throws Exception {
        Matrix matrix = MatrixParser.parse(Path.of("../matrix.yaml"), Optional.empty());
        assertThat(matrix.jdks())
                .extracting(JdkEntry::id)
                .containsExactly("temurin-21", "temurin-25", "semeru-21", "semeru-25");
        assertThat(matrix.jdk("semeru-25").orElseThrow().vm()).isEqualTo(JdkEntry.Vm.OPENJ9);
        assertThat(matrix.workload("sleep-bound").orElseThrow().params())
                .containsEntry("tasks", 10_000L)
                .containsEntry("sleepMs", 300L);
        assertThat(matrix.workload("mass-start").orElseThrow().params()).containsEntry("threads", 1_000_000L);
    }

    @Test
    void aProfileMergesMapsAndReplacesListsAndScalars() throws Exception {
        Matrix quick = MatrixParser.parse(Path.of("../matrix.yaml"), Optional.of("quick"));
        assertThat(quick.cpus()).containsExactly(BigDecimal.valueOf(2));
        assertThat(quick.repetitions()).isEqualTo(3);
        assertThat(quick.timeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(quick.memoryBytes()).isEqualTo(1L << 30);
        WorkloadSpec sleep = quick.workload("sleep-bound").orElseThrow();
        assertThat(sleep.variants()).containsExactly("virtual", "pool:200"); // list replaced
        assertThat(sleep.params()).containsEntry("tasks", 1000L).containsEntry("sleepMs", 20L);
        WorkloadSpec mass = quick.workload("mass-start").orElseThrow();
        assertThat(mass.variants()).containsExactly("virtual", "platform"); // untouched by the profile
        assertThat(mass.params()).containsEntry("threads", 1_000L); // map merged key by key
        assertThat(quick.jdks()).hasSize(4); // not named by the profile
    }

    @Test
    void enabledFalseLeavesAWorkloadOut() throws Exception {
        Matrix small = MatrixParser.parse(MATRICES.resolve("valid-include-exclude.yaml"), Optional.of("small"));
        assertThat(small.workloads()).extracting(WorkloadSpec::id).containsExactly("sleep-bound");
        assertThat(small.workload("sleep-bound").orElseThrow().params())
                .containsEntry("tasks", 10L)
                .containsEntry("sleepMs", 10L);
    }

    /** Issue #19: a matrix may name its identity, so its runs' baselines survive edits of the file. */
    @Test
    void aMatrixMayDeclareItsIdentity() throws Exception {
        String body =
                """
                jdks: [{id: t21, vm: hotspot, version: 21}]
                workloads: [{id: sleep-bound, variants: [virtual]}]
                """;
        assertThat(parse("schema: 1\nid: nightly-services\n" + body, null).id()).contains("nightly-services");
        assertThat(parse("schema: 1\n" + body, null).id()).isEmpty();
        assertThat(problems("schema: 1\nid: \"nightly services!\"\n" + body))
                .containsExactly("m.yaml:2:5: error: id 'nightly services!' is not a matrix identity\n"
                        + "  hint: use up to 64 letters, digits, '.', '_' or '-', starting with a letter or digit, e.g."
                        + " 'id: nightly-services'");
    }

    @Test
    void defaultsFillWhatTheFileLeavesOut() throws Exception {
        Matrix m = parse(
                """
                schema: 1
                jdks: [{id: t21, vm: hotspot, version: 21}]
                workloads: [{id: sleep-bound, variants: [virtual]}]
                """,
                null);
        assertThat(m.os()).containsExactly("linux");
        assertThat(m.parallelism()).containsExactly("auto");
        assertThat(m.repetitions()).isEqualTo(5);
        assertThat(m.warmup()).isEqualTo(1);
        assertThat(m.timeout()).isEqualTo(Duration.ofMinutes(10));
        assertThat(m.memoryBytes()).isEqualTo(2L << 30);
        assertThat(m.pids()).isEqualTo(20_000L);
        assertThat(m.workload("sleep-bound").orElseThrow().params())
                .containsEntry("tasks", 10_000L)
                .containsEntry("sleepMs", 300L);
    }

    @Test
    void everyProblemIsReportedAtOnceInFileOrderWithPositionsAndHints() throws IOException {
        Path file = MATRICES.resolve("many-errors.yaml");
        MatrixException e = catchThrowableOfType(
                MatrixException.class,
                () -> MatrixParser.parse("many-errors.yaml", Files.readString(file), Optional.empty(), file));
        String actual = e.problems().stream().map(Problem::format).collect(Collectors.joining("\n")) + "\n";
        assertThat(actual).isEqualTo(Files.readString(MATRICES.resolve("many-errors.expected.txt")));
    }

    @Test
    void aProfilesOwnMistakesPointIntoTheProfile() {
        assertThat(catchThrowableOfType(
                                MatrixException.class,
                                () -> MatrixParser.parse(MATRICES.resolve("many-errors.yaml"), Optional.of("quick")))
                        .problems())
                .extracting(Problem::line, Problem::column, Problem::message)
                .contains(org.assertj.core.groups.Tuple.tuple(25, 11, "cpus must not be empty"));
    }

    @Test
    void unknownProfileSuggestsTheClosestName() {
        MatrixException e = catchThrowableOfType(
                MatrixException.class,
                () -> MatrixParser.parse(MATRICES.resolve("valid-include-exclude.yaml"), Optional.of("smal")));
        assertThat(e.problems()).singleElement().satisfies(p -> {
            assertThat(p.message()).isEqualTo("unknown profile 'smal' (did you mean 'small'?)");
            assertThat(p.line()).isEqualTo(21);
        });
    }

    @Test
    void yamlSyntaxErrorsHaveAPosition() {
        assertThat(problems("schema: 1\njdks: [\n  {id: a\n"))
                .singleElement()
                .asString()
                .startsWith("m.yaml:");
        assertThat(problems("schema: 1\njdks:\n  - id: a\n   vm: x\n"))
                .singleElement()
                .asString()
                .matches("m\\.yaml:4:\\d+: error: not valid YAML: .*(?s).*");
    }

    @Test
    void typeAndShapeErrors() {
        assertThat(
                        problems(
                                """
                schema: 2
                jdks: {id: a}
                workloads: []
                cpus: 2
                os: [linux, macos]
                memory: 12
                """))
                .containsExactly(
                        "m.yaml:1:9: error: unsupported schema 2; this loom-matrix reads schema 1\n  hint: upgrade loom-matrix, or write the file for schema 1",
                        "m.yaml:2:7: error: jdks must be a list, found a mapping\n  hint: write a list as [a, b] or one '- item' per line",
                        "m.yaml:3:12: error: workloads must not be empty\n  hint: a matrix needs at least one workload; known: mass-start, sleep-bound, primes-io, fib-fanout, pinning, echo-server, http-server, ping-pong, thread-local, footprint, spring-boot, spring-boot-capacity",
                        "m.yaml:4:7: error: cpus must be a list, found number '2'\n  hint: write a list as [a, b] or one '- item' per line",
                        "m.yaml:5:13: error: os must be one of linux, windows, got 'macos'",
                        "m.yaml:6:9: error: memory 12 is below the 64m a JVM cell needs\n  hint: use at least 64m; 2g is the default");
    }

    @Test
    void duplicatesAndMissingKeys() {
        assertThat(
                        problems(
                                """
                schema: 1
                jdks:
                  - {id: a, vm: hotspot}
                workloads:
                  - {id: sleep-bound, variants: [virtual, virtual]}
                  - {id: sleep-bound, variants: [virtual]}
                cpus: [1, 1]
                """))
                .containsExactly(
                        "m.yaml:3:5: error: jdks[0] is missing 'version'",
                        "m.yaml:5:43: error: variant 'virtual' is listed twice in workloads[0]",
                        "m.yaml:6:10: error: duplicate workload id 'sleep-bound'\n  hint: list each workload once; put all its variants in one entry",
                        "m.yaml:7:11: error: cpus lists '1' twice\n  hint: each axis value once");
    }

    @Test
    void includeMayOnlyNameDefinedJdksAndWorkloads() {
        assertThatThrownBy(() -> parse(
                        """
                schema: 1
                jdks: [{id: a21, vm: hotspot, version: 21}]
                workloads: [{id: sleep-bound, variants: [virtual]}]
                include:
                  - {jdk: a21, workload: mass-start, cpuz: 2}
                """,
                        null))
                .isInstanceOf(MatrixException.class)
                .hasMessageContaining("m.yaml:5:38: error: unknown key 'cpuz' in include[0] (did you mean 'cpus'?)")
                .hasMessageContaining(
                        "m.yaml:5:26: error: include[0] refers to workload 'mass-start', which is not in workloads");
    }
}
