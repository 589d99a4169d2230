package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.conclude.Cause;
import dev.loommatrix.core.conclude.Conclusion;
import dev.loommatrix.core.conclude.Finding;
import dev.loommatrix.core.conclude.Findings;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.FileTrees;
import dev.loommatrix.runner.backend.ExampleProjects;
import dev.loommatrix.runner.cli.LoomMatrix;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A suite that writes its alternatives as benchmark methods (issue #51): the test project jmh-methods, built from
 * source, guards one blocking call per virtual thread by {@code synchronized} in one method and by a ReentrantLock
 * in the other. Known truth: on JDK 21 the synchronized method pins its carrier (16 tasks of 10 ms on 2 carriers:
 * about 80 ms against 10), on JDK 25 it does not (JEP 491). Variants that name their method are contrasted by
 * class, and the report concludes each JDK with the pinned frame as the cause.
 */
class MethodVariantsIT {

    @Test
    void variantsThatNameTheirMethodAreContrastedAndConcludedOnBothJdks(@TempDir Path work) throws Exception {
        Path project = work.resolve("jmh-methods");
        FileTrees.copy(Path.of("src/test/resources/projects/jmh-methods"), project);
        Path jar = ExampleProjects.build(project);
        String matrix =
                """
                schema: 1
                jdks:
                  - {id: debian-21, vm: hotspot, version: 21, image: "local/debian-openjdk:21"}
                  - {id: debian-25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}
                cpus: [2]
                repetitions: 3
                warmup: 0
                memory: 1g
                profiling: {jfr: true}
                workloads:
                  - id: guarded-call
                    jmh:
                      jar: "%s"
                      include: ['GuardedCallBenchmark']
                      warmupIterations: 1
                      iterations: 3
                      warmupTime: 200ms
                      time: 200ms
                    variants:
                      synchronized: {method: synchronizedCall}
                      reentrant-lock: {method: reentrantLockCall}
                    baseline: reentrant-lock
                    headline: {subject: synchronized, words: "a blocking call guarded by synchronized or a lock"}
                """
                        .formatted(jar);
        ContainerRuns.Completed run = ContainerRuns.run(Files.createDirectories(work.resolve("first")), matrix);
        // a cell measured while something else ran on this machine is no evidence either way (not valid, and why):
        // once, measure again rather than conclude on it
        if (run.cells().stream()
                .anyMatch(c ->
                        c.execution().interference().flatMap(i -> i.disturbed()).isPresent())) {
            run = ContainerRuns.run(Files.createDirectories(work.resolve("again")), matrix);
        }
        assertThat(run.cells()).hasSize(2);
        for (CellRecord cell : run.cells()) {
            assertThat(cell.status())
                    .as(cell.cellId() + ": " + cell.reason().orElse(""))
                    .isEqualTo(CellStatus.OK);
            assertThat(cell.environment().orElseThrow().attested())
                    .as(cell.cellId())
                    .isTrue();
            // one measurement a variant, each of its own method, paired by the class
            assertThat(cell.measurements())
                    .extracting(
                            m -> m.variant() + " " + m.benchmark().orElseThrow().jmhName())
                    .containsExactlyInAnyOrder(
                            "synchronized example.methods.GuardedCallBenchmark.synchronizedCall",
                            "reentrant-lock example.methods.GuardedCallBenchmark.reentrantLockCall");
            assertThat(cell.measurements())
                    .extracting(m -> m.benchmark().orElseThrow().label())
                    .containsOnly("example.methods.GuardedCallBenchmark(sleepMs=10, tasks=16)");
        }
        Map<Integer, Finding> byJdk = Findings.of(run.cells(), 0.10).stream()
                .collect(Collectors.toMap(f -> f.coordinates().version(), Function.identity()));
        assertThat(byJdk.get(21).conclusion())
                .as(byJdk.get(21).why().orElse(""))
                .isEqualTo(Conclusion.HURTS);
        assertThat(byJdk.get(21).headline().orElseThrow().ratio()).isLessThan(0.3); // ~0.13: 10 ms against 80
        assertThat(byJdk.get(21).causes()).extracting(Cause::kind).containsExactly(Cause.Kind.PINNING);
        assertThat(byJdk.get(25).conclusion())
                .as(byJdk.get(25).why().orElse(""))
                .isEqualTo(Conclusion.NO_DIFFERENCE);
        assertThat(byJdk.get(25).causes()).extracting(Cause::kind).doesNotContain(Cause.Kind.PINNING);

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = LoomMatrix.mainWithoutExit(
                new String[] {"report", run.runDir().toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                System.err);
        assertThat(code).isZero();
        String report = out.toString(StandardCharsets.UTF_8);
        assertThat(report)
                .contains(
                        "**hurts** on debian-21: synchronized against the one other variant measured (reentrant-lock)")
                .contains("**no difference** on debian-25")
                // the user's own frame, where the carrier stayed pinned
                .contains("`GuardedCallBenchmark.call:");
        assertThat(List.of(report.split("\n")))
                .anyMatch(l -> l.startsWith("- **what to do**: keep reentrant-lock on" + " debian-21"));
    }
}
