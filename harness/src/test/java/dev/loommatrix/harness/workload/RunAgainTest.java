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
            // the baseline once the first run's pools have wound down: counted too early, it would be too high and
            // every later check would pass
            int threads = settledThreads();
            long fds = settledFiles();
            List<Double> again = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                Outcome repeat = workload.run(variant, params);
                again.add(repeat.wallMs());
                // the same work done again: its own counts (tasks, calls, round trips, threads started, failures)
                // equal the first run's
                assertThat(counters(id, repeat))
                        .as("%s %s, run %d: its counters against the first run's", id, name, i + 2)
                        .isEqualTo(counters(id, first))
                        .isNotEmpty();
                assertThat(settledThreads(threads))
                        .as("%s %s, run %d: live platform threads", id, name, i + 2)
                        .isLessThanOrEqualTo(threads);
                assertThat(settledFiles(fds))
                        .as("%s %s, run %d: open file descriptors", id, name, i + 2)
                        .isLessThanOrEqualTo(fds);
            }
            assertThat(again).as("%s %s measured again", id, name).allSatisfy(ms -> assertThat(ms)
                    .isPositive());
            if (id.equals("sleep-bound")) {
                assertThat(first.metrics()).containsEntry("tasksCompleted", 200L);
            }
            if (id.equals("pinning") && name.equals("class-init")) {
                // a class already initialized would cost nothing: each run must still block in initializers
                assertThat(again).allSatisfy(ms -> assertThat(ms).isGreaterThanOrEqualTo(20.0));
                assertThat(first.wallMs()).isGreaterThanOrEqualTo(20.0);
            }
        }
    }

    /**
     * The counts a run reports that do not depend on timing: integers, flags and text among its metrics, less those
     * a workload measures over a fixed time or from memory (how many requests fit in the time, bytes resident).
     */
    static Map<String, Object> counters(String workload, Outcome outcome) {
        Map<String, Object> counters = new java.util.TreeMap<>();
        outcome.metrics().forEach((name, value) -> {
            boolean count = value instanceof Integer
                    || value instanceof Long
                    || value instanceof Boolean
                    || value instanceof String;
            if (count && !VARIES.getOrDefault(workload, List.of()).contains(name)) {
                counters.put(name, value);
            }
        });
        return counters;
    }

    /** Counts that legitimately differ between runs: a time-bound load's, and memory's. */
    static final Map<String, List<String>> VARIES = Map.of(
            "http-server", List.of("requests", "reconnects", "requestsHandledOnVirtualThreads", "latencyCount"),
            "footprint", List.of("heapBytes", "rssBytes"),
            "thread-local", List.of("allocatedBytes"));

    /** Live platform threads once the count has stopped falling (100 ms apart, up to 5 s). */
    private static int settledThreads() throws InterruptedException {
        var mx = ManagementFactory.getThreadMXBean();
        int count = mx.getThreadCount();
        for (int i = 0; i < 50; i++) {
            Thread.sleep(100);
            int now = mx.getThreadCount();
            if (now >= count) {
                return count;
            }
            count = now;
        }
        return count;
    }

    private static long settledFiles() throws Exception {
        long count = openFiles();
        for (int i = 0; i < 50; i++) {
            Thread.sleep(100);
            long now = openFiles();
            if (now >= count) {
                return count;
            }
            count = now;
        }
        return count;
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
