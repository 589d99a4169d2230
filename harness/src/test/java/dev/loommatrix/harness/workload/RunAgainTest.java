package dev.loommatrix.harness.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every built-in workload can run again in the same JVM (issue #18: iterations inside a fork): a run leaves
 * no platform thread and no open file descriptor behind — the second and third runs end with the counts the
 * first left (its lasting effects, such as the virtual-thread scheduler's carriers, are made once) — and
 * measures the same thing again (pinning's class-init initializes a fresh class per task in every run).
 */
class RunAgainTest {

    /** Each workload with parameters small enough for a unit test, and every kind of variant it accepts. */
    static Stream<Arguments> workloads() {
        return Stream.of(
                Arguments.of(
                        "mass-start", Map.of("threads", "2000", "jmhIterations", "0"), List.of("virtual", "platform")),
                Arguments.of(
                        "sleep-bound",
                        Map.of("tasks", "200", "sleepMs", "5"),
                        List.of("virtual", "platform", "pool:8")),
                Arguments.of(
                        "primes-io",
                        Map.of("tasks", "100", "sleepMs", "2", "primeLimitMin", "100", "primeLimitMax", "500"),
                        List.of("virtual", "platform", "pool:4")),
                Arguments.of(
                        "fib-fanout",
                        Map.of("n", "12", "calls", "40"),
                        List.of("sequential", "naive-virtual", "executor", "caller-virtual", "semaphore")),
                Arguments.of(
                        "pinning",
                        Map.of("tasks", "4", "sleepMs", "20", "jmhIterations", "0"),
                        List.of("synchronized", "reentrant-lock", "object-wait", "class-init")),
                Arguments.of(
                        "echo-server",
                        Map.of("connections", "40", "messages", "3", "bytes", "16"),
                        List.of("virtual", "platform", "pool:8")),
                Arguments.of(
                        "http-server",
                        Map.of("users", "10", "durationS", "1", "sleepMs", "10", "warmupS", "0"),
                        List.of("virtual", "pool:8")),
                Arguments.of(
                        "ping-pong", Map.of("roundTrips", "500", "jmhIterations", "0"), List.of("virtual", "platform")),
                Arguments.of("thread-local", Map.of("tasks", "500"), List.of("virtual", "platform", "pool:4")),
                Arguments.of("footprint", Map.of("threads", "300"), List.of("virtual", "platform")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("workloads")
    void runsAgainLeavingNothingBehind(String id, Map<String, String> given, List<String> variants) throws Exception {
        Workload workload = Catalogue.find(id).orElseThrow();
        Params params = Params.of(workload.defaults(), given);
        for (String name : variants) {
            Variant variant = Variant.parse(name);
            Outcome first = workload.run(variant, params);
            int threads = settledThreads(Integer.MAX_VALUE);
            long fds = openFiles();
            List<Double> again = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                again.add(workload.run(variant, params).wallMs());
                assertThat(settledThreads(threads))
                        .as("%s %s, run %d: live platform threads", id, name, i + 2)
                        .isLessThanOrEqualTo(threads);
                assertThat(settledFiles(fds))
                        .as("%s %s, run %d: open file descriptors", id, name, i + 2)
                        .isLessThanOrEqualTo(fds);
            }
            assertThat(again).as("%s %s measured again", id, name).allSatisfy(ms -> assertThat(ms)
                    .isPositive());
            if (id.equals("pinning") && name.equals("class-init")) {
                // a class already initialized would cost nothing: each run must still block in initializers
                assertThat(again).allSatisfy(ms -> assertThat(ms).isGreaterThanOrEqualTo(20.0));
                assertThat(first.wallMs()).isGreaterThanOrEqualTo(20.0);
            }
        }
    }

    /** Live platform threads once those ending have ended (up to 5 s): pools shut down asynchronously. */
    private static int settledThreads(int target) throws InterruptedException {
        var mx = ManagementFactory.getThreadMXBean();
        int count = mx.getThreadCount();
        for (int i = 0; i < 50 && count > target; i++) {
            Thread.sleep(100);
            count = mx.getThreadCount();
        }
        return count;
    }

    private static long settledFiles(long target) throws Exception {
        long count = openFiles();
        for (int i = 0; i < 50 && count > target; i++) {
            // no System.gc(): a socket only unreachable, not closed, must count as left behind
            Thread.sleep(100);
            count = openFiles();
        }
        return count;
    }

    /** This process's open file descriptors (Linux); elsewhere the largest long, so the check passes vacuously. */
    private static long openFiles() throws IOException {
        Path fd = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fd)) {
            return Long.MAX_VALUE;
        }
        try (Stream<Path> list = Files.list(fd)) {
            return list.count();
        }
    }
}
