package dev.loommatrix.harness;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.jr.ob.JSON;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MainTest {

    @Test
    void appendsOneRecordPerRunWithWhatTookEffect(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("records.jsonl");
        String[] args = {
            "sleep-bound", "--variant", "pool:4", "--param", "tasks=8", "--param", "sleepMs=10", "--out", out.toString()
        };
        assertThat(Main.run(args, System.out, System.err)).isZero();
        assertThat(Main.run(args, System.out, System.err)).isZero();
        List<String> lines = Files.readAllLines(out);
        assertThat(lines).hasSize(2);
        Map<String, Object> record = JSON.std.mapFrom(lines.get(0));
        assertThat(record)
                .containsEntry("schemaVersion", 1)
                .containsEntry("workload", "sleep-bound")
                .containsEntry("variant", "pool:4");
        assertThat(((Number) record.get("lowerBoundMs")).doubleValue()).isEqualTo(20.0);
        assertThat(((Number) record.get("wallMs")).doubleValue()).isGreaterThanOrEqualTo(20.0);
        @SuppressWarnings("unchecked")
        Map<String, Object> env = (Map<String, Object>) record.get("environment");
        assertThat(env.get("availableProcessors"))
                .isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(env).containsKeys("scheduler", "vm", "gc", "javaVersion", "javaToolOptions", "limits");
    }

    /**
     * --turns: every iteration waits for its turn and hands it back when it ends (through real named pipes, a
     * coordinator thread on the other ends), then one last turn for the fork's tail, which says so ('t') and lasts
     * until the fork exits; none starts unasked.
     */
    @Test
    void withTurnsEveryIterationWaitsForItsTurnAndHandsItBack(@TempDir Path dir) throws Exception {
        for (String pipe : new String[] {"go", "done"}) {
            assertThat(new ProcessBuilder("mkfifo", dir.resolve(pipe).toString())
                            .inheritIO()
                            .start()
                            .waitFor())
                    .isZero();
        }
        Path out = dir.resolve("records.jsonl");
        var fork = java.util.concurrent.Executors.newSingleThreadExecutor()
                .submit(() -> Main.run(
                        new String[] {
                            "sleep-bound",
                            "--variant",
                            "pool:4",
                            "--param",
                            "tasks=8",
                            "--param",
                            "sleepMs=10",
                            "--iterations",
                            "1:2",
                            "--out",
                            out.toString(),
                            "--turns",
                            dir.toString()
                        },
                        System.out,
                        System.err));
        List<Long> turnMs = new java.util.ArrayList<>();
        try (var go = Files.newOutputStream(dir.resolve("go"));
                var done = Files.newInputStream(dir.resolve("done"))) {
            for (int turn = 0; turn < 3; turn++) {
                // unasked, nothing runs: the fork waits at its turn with no iteration ended
                awaitWaitingIn("take");
                assertThat(done.available()).isZero();
                long start = System.nanoTime();
                go.write('.');
                go.flush();
                assertThat(done.read()).isEqualTo('.');
                turnMs.add((System.nanoTime() - start) / 1_000_000);
            }
            assertThat(Files.exists(out)).isFalse();
            go.write('.');
            go.flush();
            // the tail says it has begun and waits for a last byte (fresh pipes made for the next fork), then exits
            assertThat(done.read()).isEqualTo('t');
            awaitWaitingIn("tail");
            assertThat(Files.exists(out)).isFalse();
            go.write('.');
            go.flush();
            assertThat(done.read()).isEqualTo(-1);
        }
        assertThat(fork.get(30, java.util.concurrent.TimeUnit.SECONDS)).isZero();
        Map<String, Object> record = JSON.std.mapFrom(Files.readAllLines(out).get(0));
        @SuppressWarnings("unchecked")
        Map<String, Object> iterations = (Map<String, Object>) record.get("iterations");
        assertThat((List<?>) iterations.get("wallMs")).hasSize(3);
        // each turn held one iteration (8 tasks of 10 ms on 4 threads: 20 ms at least)
        assertThat(turnMs).allSatisfy(ms -> assertThat(ms).isGreaterThanOrEqualTo(20));
        // the record says where its turns began: here the harness's classes without the jar's JDK 22+ build
        // (a class directory is not multi-release); the jar's own build is LockstepAbIT's
        assertThat(record.get("turns"))
                .isEqualTo(Map.of("taken", 4, "cpuNotSet", "this harness was built without its JDK 22+ classes"));
    }

    @Test
    void usageErrorsExitTwoWithAMessage() {
        assertThat(refused("sleep-bound", "--variant", "pool:abc"))
                .contains("pool size in 'pool:abc' is not a whole number");
        assertThat(refused("mass-start", "--variant", "pool:4")).contains("has no variant 'pool:4'");
        assertThat(refused("sleep-bound", "--variant", "virtual", "--turns", "/nonexistent"))
                .contains("--turns /nonexistent has no named pipes go and done");
    }

    /** Runs the harness with these arguments, which it must refuse with exit 2; what it said on stderr. */
    private static String refused(String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertThat(Main.run(args, System.out, new PrintStream(err, true, StandardCharsets.UTF_8)))
                .as(String.join(" ", args))
                .isEqualTo(2);
        return err.toString(StandardCharsets.UTF_8);
    }

    /**
     * Iterations inside the fork: every iteration's time in order, the first as the cold start, and the
     * fork's value the median of the measured ones; the default stays one cold run with no iteration list.
     */
    @Test
    @SuppressWarnings("unchecked")
    void iterationsRunInsideTheJvmAndTheForkReportsTheirMedian(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("records.jsonl");
        String[] args = {
            "sleep-bound",
            "--variant",
            "virtual",
            "--param",
            "tasks=50",
            "--param",
            "sleepMs=10",
            "--iterations",
            "2:3",
            "--out",
            out.toString()
        };
        assertThat(Main.run(args, System.out, System.err)).isZero();
        Map<String, Object> record = JSON.std.mapFrom(Files.readAllLines(out).get(0));
        Map<String, Object> iterations = (Map<String, Object>) record.get("iterations");
        assertThat(iterations).containsEntry("warmup", 2);
        List<Number> wall = (List<Number>) iterations.get("wallMs");
        assertThat(wall).hasSize(5).allSatisfy(ms -> assertThat(ms.doubleValue())
                .isGreaterThanOrEqualTo(10.0));
        assertThat(((Number) record.get("coldStartMs")).doubleValue())
                .isEqualTo(wall.get(0).doubleValue());
        double[] measured = wall.subList(2, 5).stream()
                .mapToDouble(Number::doubleValue)
                .sorted()
                .toArray();
        assertThat(((Number) record.get("wallMs")).doubleValue()).isEqualTo(measured[1]);

        Path once = dir.resolve("once.jsonl");
        assertThat(Main.run(
                        new String[] {
                            "sleep-bound", "--variant", "virtual", "--param", "tasks=5", "--out", once.toString()
                        },
                        System.out,
                        System.err))
                .isZero();
        assertThat(JSON.std.mapFrom(Files.readAllLines(once).get(0))).doesNotContainKeys("iterations", "coldStartMs");

        assertThat(refused("sleep-bound", "--variant", "virtual", "--iterations", "3:0"))
                .contains("--iterations takes WARMUP:MEASURE", "got '3:0'");
    }

    /**
     * Waits until the fork's thread is blocked at {@code Turns.<method>}'s read of its pipe — the explicit signal that
     * it waits for its turn, so a check made then cannot pass merely because the fork was not scheduled yet.
     */
    private static void awaitWaitingIn(String method) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            for (StackTraceElement[] stack : Thread.getAllStackTraces().values()) {
                for (StackTraceElement frame : stack) {
                    if (frame.getClassName().equals("dev.loommatrix.harness.measure.Turns")) {
                        if (frame.getMethodName().equals(method)
                                && stack[0].getMethodName().startsWith("read")) {
                            return;
                        }
                        break;
                    }
                }
            }
            Thread.sleep(5);
        }
        throw new AssertionError("the fork never waited in Turns." + method);
    }
}
