package dev.loommatrix.runner.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.stats.MetricDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a JMH result becomes, on results JMH 1.37 wrote for the example project (fixtures/user). */
class JmhResultsTest {

    @TempDir
    Path dir;

    @Test
    void aForkedRunsScoreIsItsBenchmarksSampleWithWhatItsForksUsed() throws Exception {
        VariantRuns all = AgentLines.read(UserCells.fixture("jmh-forks"), "virtual", 0);
        UserResults.Result result = UserResults.measurements(UserCells.jmh(dir, 2, 0), all, Optional.empty());
        assertThat(result.problem()).isEmpty();
        Measurement m = result.measurements().get(0);
        assertThat(m.benchmark().orElseThrow().name())
                .isEqualTo("example.blocking.BlockingServiceBenchmark.threadsByParam");
        assertThat(m.benchmark().get().mode()).contains("avgt");
        assertThat(m.benchmark().get().variantParams()).containsEntry("threadType", "VIRTUAL");
        assertThat(m.benchmark().get().params()).containsEntry("poolSize", "50").doesNotContainKey("threadType");
        assertThat(m.benchmark().get().units())
                .as("-prof gc's secondary metrics keep their units")
                .containsEntry("gc.alloc.rate.norm", "B/op");
        assertThat(m.metric())
                .isEqualTo(new MetricDescriptor("score", "ms/op", MetricDescriptor.Direction.LOWER_IS_BETTER));
        assertThat(m.samples()).hasSize(2);
        assertThat(m.samples().get(0).metrics()).containsKeys("score", "gc.alloc.rate.norm", "cpuMs", "forks");
        assertThat(m.samples().get(0).metric("forks")).contains(1.0);
        assertThat(m.summary().orElseThrow().median())
                .isBetween(10.0, 15.0); // 100 requests × 4 calls of 10 ms on virtual threads
    }

    @Test
    void jmhExitingZeroWithAnEmptyResultIsAFailureNotAnEmptyOk() throws Exception {
        // JMH 1.37 on a JDK whose lib/jspawnhelper is not executable: the fork cannot start, JMH prints the
        // exception, exits 0 and writes "[ ]" (jmh-output.txt is what it printed)
        assertThat(Files.readString(UserCells.fixture("jmh-empty").resolve("jmh-output.txt")))
                .contains("posix_spawn failed, error: 13 (Permission denied)");
        VariantRuns runs = AgentLines.read(UserCells.fixture("jmh-empty"), "virtual", 0);
        assertThat(runs.runs()).hasSize(1);
        UserResults.Result result = UserResults.measurements(UserCells.jmh(dir, 1, 0), runs, Optional.empty());
        assertThat(result.measurements()).isEmpty();
        assertThat(result.problem()).hasValueSatisfying(p -> assertThat(p)
                .startsWith("run 1 produced no score for example.blocking.BlockingServiceBenchmark.threadsByParam")
                .contains("its forks may have failed to start"));
    }

    @Test
    void whatTheJvmsUsedGoesToTheBenchmarkTheyRanOrToNone() {
        String fork = AgentRecord.JMH_FORK_MAIN + " 127.0.0.1 40000";
        var host = UserCells.jvm("benchmarks.jar", 5);
        // JMH ran three benchmarks, one fork each, in the order of its results
        var forked = new JvmRun(
                host, java.util.List.of(UserCells.jvm(fork, 100), UserCells.jvm(fork, 200), UserCells.jvm(fork, 300)));
        assertThat(JmhResults.jvmUseOf(forked, 1, 3))
                .containsEntry("cpuMs", 200L)
                .containsEntry("forks", 1);
        assertThat(JmhResults.jvmUseOf(forked, 0, 1))
                .as("one benchmark: all three forks are its own")
                .containsEntry("cpuMs", 600L)
                .containsEntry("forks", 3);
        assertThat(JmhResults.jvmUseOf(forked, 0, 2))
                .as("forks that do not split evenly")
                .isEmpty();
        // no forks: the one JVM ran every benchmark, so its numbers are no single benchmark's
        var unforked = new JvmRun(host, java.util.List.of());
        assertThat(JmhResults.jvmUseOf(unforked, 0, 1))
                .containsEntry("cpuMs", 5L)
                .doesNotContainKey("forks");
        assertThat(JmhResults.jvmUseOf(unforked, 0, 3)).isEmpty();
    }
}
