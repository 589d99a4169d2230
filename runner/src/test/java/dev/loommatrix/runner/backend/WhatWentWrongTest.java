package dev.loommatrix.runner.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.runner.records.CellAssembler;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue #32: a failed JVM's output is summarized leading with what went wrong. The lines are as the JVM, JMH 1.37
 * and the launcher print them (stripped, as the cell log's variant section is read); the end-to-end check on a real
 * JMH jar and a real program is {@code UserWorkloadIT}.
 */
class WhatWentWrongTest {

    @Test
    void jmhsFailureLeadsWithTheExceptionAndItsMessageThenTwoFrames() {
        List<String> jmh = List.of(
                "# JMH version: 1.37",
                "# Benchmark: example.Bench.run",
                "# Parameters: (threadType = VIRTUL)",
                "# Fork: 1 of 1",
                "<failure>",
                "java.lang.IllegalArgumentException: No enum constant example.ThreadType.VIRTUL",
                "at java.base/java.lang.Enum.valueOf(Enum.java:293)",
                "at example.ThreadType.valueOf(ThreadType.java:3)",
                "at example.jmh_generated.Bench_run_jmhTest._jmh_tryInit_(Bench_run_jmhTest.java:430)",
                "at java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1144)",
                "at java.base/java.lang.Thread.run(Thread.java:1583)",
                "# Run complete. Total time: 00:00:01");
        assertThat(CellAssembler.whatWentWrong(jmh))
                .hasValue("java.lang.IllegalArgumentException: No enum constant example.ThreadType.VIRTUL"
                        + " / at java.base/java.lang.Enum.valueOf(Enum.java:293)"
                        + " / at example.ThreadType.valueOf(ThreadType.java:3)");
    }

    @Test
    void anUncaughtExceptionWithACauseSaysTheCauseToo() {
        List<String> program = List.of(
                "Exception in thread \"main\" java.lang.IllegalStateException: could not start",
                "at example.Main.start(Main.java:12)",
                "at example.Main.main(Main.java:5)",
                "Caused by: java.net.BindException: Address already in use",
                "at java.base/sun.nio.ch.Net.bind0(Native Method)",
                "... 2 more");
        assertThat(CellAssembler.whatWentWrong(program))
                .hasValue("java.lang.IllegalStateException: could not start (caused by java.net.BindException: Address"
                        + " already in use) / at example.Main.start(Main.java:12) / at example.Main.main(Main.java:5)");
    }

    @Test
    void aClassFileTooNewLeadsWithTheLinkageError() {
        List<String> launcher = List.of(
                "Error: LinkageError occurred while loading main class example.Main",
                "java.lang.UnsupportedClassVersionError: example/Main has been compiled by a more recent version of the"
                        + " Java Runtime (class file version 69.0), this version of the Java Runtime only recognizes"
                        + " class file versions up to 65.0");
        assertThat(CellAssembler.whatWentWrong(launcher).orElseThrow())
                .startsWith("java.lang.UnsupportedClassVersionError: example/Main has been compiled by a more recent");
    }

    @Test
    void theJvmsOwnErrorLineLeadsWhenNoExceptionWasPrinted() {
        assertThat(CellAssembler.whatWentWrong(List.of(
                        "Unrecognized VM option 'UseNoSuchFlag'",
                        "Error: Could not create the Java Virtual Machine.",
                        "Error: A fatal exception has occurred. Program will exit.")))
                .hasValue("Unrecognized VM option 'UseNoSuchFlag' / Error: Could not create the Java Virtual Machine."
                        + " / Error: A fatal exception has occurred. Program will exit.");
        assertThat(CellAssembler.whatWentWrong(List.of(
                        "Error: Could not find or load main class example.Nope",
                        "Caused by: java.lang.ClassNotFoundException: example.Nope")))
                .hasValue("Error: Could not find or load main class example.Nope / Caused by:"
                        + " java.lang.ClassNotFoundException: example.Nope");
        assertThat(CellAssembler.whatWentWrong(List.of("one", "two", "three", "four")))
                .hasValue("two / three / four");
        assertThat(CellAssembler.whatWentWrong(List.of())).isEmpty();
    }
}
