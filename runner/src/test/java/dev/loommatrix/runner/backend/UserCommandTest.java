package dev.loommatrix.runner.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.matrix.UserWorkload;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** JMH's command line for a variant: the entry's selection, or exactly the method a variant names. */
class UserCommandTest {

    static final List<String> SELECTED = List.of(
            "example.methods.GuardedCallBenchmark.synchronizedCall",
            "example.methods.GuardedCallBenchmark.reentrantLockCall",
            "example.other.Pool$Bench.synchronizedCall");

    static UserWorkload.Jmh suite() {
        return new UserWorkload.Jmh(
                Path.of("benchmarks.jar"),
                List.of("GuardedCallBenchmark", "Pool"),
                List.of("reentrant"),
                Map.of(),
                Optional.empty(),
                Optional.empty(),
                OptionalInt.empty(),
                OptionalInt.empty(),
                Optional.empty(),
                Optional.empty(),
                OptionalInt.empty(),
                OptionalInt.empty(),
                List.of(),
                SELECTED);
    }

    static final UserCommand.Paths PATHS =
            new UserCommand.Paths("java", "agent.jar", List.of("/work/benchmarks.jar"), "/out", ":");

    @Test
    void aVariantThatNamesItsMethodRunsThatMethodOfEachSelectedClassExactly() {
        var settings = new UserWorkload.VariantSettings(
                List.of(), Map.of(), Map.of(), List.of(), Map.of(), Optional.of("synchronizedCall"));
        List<String> args = UserCommand.jmhArgs(suite(), settings, PATHS, "/out/r.json");
        List<String> patterns = args.subList(2, args.indexOf("-foe"));
        assertThat(patterns).hasSize(2).doesNotContain("-e");
        // each pattern, as JMH applies it (find), selects its one benchmark and no other of the selection
        for (String pattern : patterns) {
            assertThat(SELECTED.stream()
                            .filter(b -> Pattern.compile(pattern).matcher(b).find()))
                    .hasSize(1);
        }
        assertThat(SELECTED.stream().filter(b -> patterns.stream()
                        .anyMatch(p -> Pattern.compile(p).matcher(b).find())))
                .containsExactly(
                        "example.methods.GuardedCallBenchmark.synchronizedCall",
                        "example.other.Pool$Bench.synchronizedCall");
    }

    @Test
    void aVariantWithoutAMethodRunsTheEntrysSelection() {
        var settings = new UserWorkload.VariantSettings(List.of(), Map.of(), Map.of(), List.of(), Map.of());
        List<String> args = UserCommand.jmhArgs(suite(), settings, PATHS, "/out/r.json");
        assertThat(args.subList(0, 6))
                .containsExactly("-jar", "/work/benchmarks.jar", "GuardedCallBenchmark", "Pool", "-e", "reentrant");
    }
}
