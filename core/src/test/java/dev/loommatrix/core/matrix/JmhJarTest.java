package dev.loommatrix.core.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.testing.JmhJars;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JMH jar read without running it: the example's real BenchmarkList (JMH 1.37). */
class JmhJarTest {

    @TempDir
    Path dir;

    @Test
    void readsEachBenchmarkWithItsModeAndItsParamsDeclaredValues() throws Exception {
        JmhJar jar = JmhJar.read(JmhJars.blockingExample(dir));
        assertThat(jar.benchmarks())
                .extracting(JmhJar.Benchmark::name)
                .containsExactly(
                        "example.blocking.BlockingServiceBenchmark.threadsByConfiguration",
                        "example.blocking.BlockingServiceBenchmark.threadsByParam");
        JmhJar.Benchmark byParam = jar.benchmarks().get(1);
        assertThat(byParam.mode()).isEqualTo("AverageTime");
        assertThat(byParam.params()).containsExactly("poolSize", "requests", "threadType");
        // the values as @Param declares them in the example's source: {"VIRTUAL", "PLATFORM"}, {"50"}, {"100"}
        assertThat(byParam.values())
                .isEqualTo(Map.of(
                        "poolSize",
                        List.of("50"),
                        "requests",
                        List.of("100"),
                        "threadType",
                        List.of("VIRTUAL", "PLATFORM")));
        assertThat(jar.benchmarks().get(0).params()).containsExactly("poolSize", "requests");
    }

    @Test
    void aLineJmhCannotReadStillGivesItsNameAndParamNamesByItsTokens() {
        // a line as an older JMH might write it: JMH's reader refuses the unknown field marker "Q", the tokens stay
        String line = "JMH S 5 a.Foo S 9 a.Foo_bar S 3 bar S 10 Throughput Q M 1 4 size 1 4 MTAw E";
        List<JmhJar.Benchmark> read = JmhJar.parse(line + "\n");
        assertThat(read).singleElement().satisfies(b -> {
            assertThat(b.name()).isEqualTo("a.Foo.bar");
            assertThat(b.mode()).isEqualTo("Throughput");
            assertThat(b.params()).containsExactly("size");
            assertThat(b.values()).isEmpty();
        });
    }
}
