package dev.loommatrix.core.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each bad input that once escaped as an internal error or a wrong message (issue: "every input's error
 * clear"), with the exact message it now gets: FILE:LINE:COLUMN, what was expected, a hint.
 */
class BadInputTest {

    static final String BASE =
            """
            schema: 1
            jdks:
              - {id: t21, vm: hotspot, version: 21, image: "eclipse-temurin:21-jdk"}
            os: [linux]
            cpus: [2]
            workloads:
              - {id: sleep-bound, variants: [virtual, "pool:100"]}
            """;

    static List<String> problems(String yaml) {
        return catchThrowableOfType(
                        MatrixException.class,
                        () -> MatrixParser.parse("m.yaml", yaml, Optional.empty(), Path.of("m.yaml")))
                .problems()
                .stream()
                .map(Problem::format)
                .toList();
    }

    @Test
    void aTimeoutTooLargeForAnyNumberSaysSo() {
        assertThat(problems(BASE + "timeout: 99999999999999999999s\n"))
                .containsExactly(
                        """
                        m.yaml:8:10: error: timeout '99999999999999999999s' is too long: a cell's timeout is at most 7 days (168h)
                          hint: a timeout ends a cell that hangs; 10m is the default, GitHub-hosted jobs end after 6h""");
        assertThat(problems(BASE + "timeout: 169h\n")).hasSize(1);
    }

    @Test
    void aHugeMemoryLimitIsTooLargeNotTooSmall() {
        assertThat(problems(BASE + "memory: 99999999999g\n"))
                .containsExactly(
                        """
                        m.yaml:8:9: error: memory 99999999999g is too large: a cell's memory limit is at most 1024g (1 TiB)
                          hint: the limit is per cell (one container or JVM); 2g is the default""");
        // and the overflow that once wrapped around to a small number is caught, not wrapped
        assertThat(problems(BASE + "memory: 9999999999999999999999\n"))
                .singleElement()
                .asString()
                .contains("is too large");
    }

    @Test
    void aBackwardsCpuRangeIsRefused() {
        assertThat(problems(BASE + "cpuset: [\"5-2\"]\n"))
                .containsExactly(
                        """
                        m.yaml:8:10: error: cpuset '5-2' has a range that runs backwards (5-2)
                          hint: write the lower CPU first: 2-5""");
        assertThat(problems(BASE + "cpuset: [\"0-99999\"]\n"))
                .singleElement()
                .asString()
                .contains("cpuset '0-99999' names CPU 99999, beyond any machine's");
    }

    @Test
    void aPoolLargerThanAnyOsAllowsIsRefused() {
        assertThat(problems(BASE.replace("pool:100", "pool:99999999999")))
                .containsExactly(
                        """
                        m.yaml:7:43: error: variant 'pool:99999999999' asks for more than 1000000 platform threads
                          hint: no OS lets one JVM start that many (each needs a native stack); the seeds' largest pool is 1000""");
    }

    @Test
    void aNumberTooLargeForItsFieldSaysTooLargeNotNotANumber() {
        assertThat(problems(BASE.replace(
                        "variants: [virtual, \"pool:100\"]",
                        "variants: [virtual], params: {tasks: 99999999999999999999}")))
                .containsExactly("m.yaml:7:60: error: workloads[0].params.tasks is too large: it must be between 0 and"
                        + " 9223372036854775807, got 99999999999999999999");
    }

    @Test
    void aFileThatIsNotUtf8SaysItsEncodingAndWhere(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("matrix.yaml");
        // "# café" in Latin-1: é is the single byte 0xE9
        byte[] latin1 = (BASE + "# caf\u00e9\n").getBytes(StandardCharsets.ISO_8859_1);
        Files.write(file, latin1);
        var problems = catchThrowableOfType(MatrixException.class, () -> MatrixParser.parse(file, Optional.empty()))
                .problems();
        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.line()).isEqualTo(8);
            assertThat(p.column()).isEqualTo(6);
            assertThat(p.format())
                    .isEqualTo(
                            file + ":8:6: error: the file is not UTF-8: byte 0xE9 at offset " + (latin1.length - 2)
                                    + " is not valid UTF-8 (Latin-1 or Windows-1252, perhaps)\n"
                                    + "  hint: save matrix.yaml as UTF-8 (YAML files are UTF-8), e.g. iconv -f latin1 -t utf-8");
        });
    }

    @Test
    void validatingWithoutAProfileChecksEveryProfile(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("matrix.yaml");
        Files.writeString(
                file,
                BASE
                        + """
                        profiles:
                          quick:
                            repetitons: 2
                          ok: {cpus: [1]}
                        """);
        // the base alone is fine: the typo is only seen when the profile is applied
        assertThat(MatrixParser.parse(file, Optional.empty()).cpus()).hasSize(1);
        var problems = catchThrowableOfType(MatrixException.class, () -> MatrixParser.parseWithEveryProfile(file))
                .problems();
        assertThat(problems).singleElement().satisfies(p -> assertThat(p.format())
                .startsWith(file + ":10:5: error: unknown key 'repetitons' in profile 'quick'")
                .contains("(did you mean 'repetitions'?)")
                .endsWith("(found with --profile quick)"));
    }

    @Test
    void aCpuQuotaNoCellCanHaveIsRefusedBeforeItReachesDocker() {
        // 1e400 and 99999999999 overflowed Docker's nano-CPU field when the cell was created
        for (String quota : new String[] {"1e400", "99999999999", "0.001", "1.0005"}) {
            assertThat(problems(BASE.replace("cpus: [2]", "cpus: [" + quota + "]")))
                    .as(quota)
                    .containsExactly("m.yaml:5:8: error: cpus " + quota + " is not a CPU quota a cell can have\n"
                            + "  hint: a quota is from 0.01 to 8192 CPUs (Docker's smallest, Linux's most), to a"
                            + " thousandth at most");
        }
    }

    @Test
    void aJdkSectionAndAnIncludeAreCheckedAgainstWhatTheMatrixDefines() {
        assertThat(
                        problems(
                                """
                        schema: 1
                        jdks:
                          - {id: t21, vm: hotspot, version: 21, env: {JAVA_TOOL_OPTIONS: -Xss1m}, javaToolOptions: -Xss2m}
                          - {id: t25, vm: openj9, version: 25, runsOn: {linux: big, macos: m1}}
                        os: [linux, linux]
                        cpuset: ["0-1", "9-2"]
                        workloads:
                          - {id: sleep-bound, variants: [virtual]}
                        include:
                          - {jdk: t21, workload: fib-fanout}
                          - {jdk: t17}
                        exclude:
                          - {}
                        """))
                .containsExactly(
                        "m.yaml:3:92: error: JAVA_TOOL_OPTIONS is set twice, in env and in javaToolOptions\n  hint: keep "
                                + "javaToolOptions and remove it from env",
                        "m.yaml:4:61: error: unknown key 'macos' in jdks[1].runsOn\n  hint: allowed keys: linux, windows",
                        "m.yaml:5:13: error: os lists 'linux' twice\n  hint: each axis value once",
                        "m.yaml:6:17: error: cpuset '9-2' has a range that runs backwards (9-2)\n  hint: write the lower "
                                + "CPU first: 2-9",
                        "m.yaml:10:26: error: include[0] refers to workload 'fib-fanout', which is not in workloads\n  "
                                + "hint: workloads: sleep-bound",
                        "m.yaml:11:11: error: include[1] refers to jdk 't17', which is not defined (did you mean 't21'?)"
                                + "\n  hint: jdk ids defined: t21, t25",
                        "m.yaml:13:5: error: exclude[0] is empty\n  hint: name at least one of: jdk, os, cpus, cpuset, "
                                + "parallelism, maxPoolSize, minRunnable, workload");
        assertThat(problems("schema: 1\ncpus: [1]\n"))
                .containsExactly(
                        "m.yaml:1:1: error: missing key 'jdks'\n  hint: list the JDKs to test, e.g. '- {id: temurin-21, "
                                + "vm: hotspot, version: 21, image: eclipse-temurin:21-jdk}'",
                        "m.yaml:1:1: error: missing key 'workloads'\n  hint: list the workloads to run, e.g. '- {id: "
                                + "sleep-bound, variants: [virtual, \"pool:200\"]}'");
    }
}
