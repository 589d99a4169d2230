package dev.loommatrix.runner.backend;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.runner.records.HarnessEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example users copy (examples/jmh-blocking): a real JMH project, built from source here by Maven
 * (offline once its dependencies are cached), then its uber-jar run as a user's benchmark is run — with
 * the attestation agent, a CPU count and a scheduler setting — where every JMH fork is attested like a
 * built-in cell.
 */
class ExampleJmhIT {

    static final String JAVA =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();
    static Path jar;

    @BeforeAll
    static void buildTheExampleFromSource() throws Exception {
        jar = ExampleProjects.build(ExampleProjects.BLOCKING);
    }

    static Process jmh(Path dir, String threads, String benchmark, Path results, Path agentOut, String... more)
            throws Exception {
        Path harness = dir.resolve("harness.jar");
        if (!Files.exists(harness)) {
            Files.write(harness, BuiltIn.resource("harness.jar"));
        }
        List<String> command = new ArrayList<>(List.of(
                JAVA,
                "-javaagent:" + harness + "=" + agentOut,
                "-XX:ActiveProcessorCount=1",
                "-Djdk.virtualThreadScheduler.parallelism=1",
                "-Dblocking.threads=" + threads,
                "-Dloom.variant=" + threads,
                "-jar",
                jar.toString(),
                "BlockingServiceBenchmark." + benchmark + "$",
                "-wi",
                "1",
                "-i",
                "2",
                "-w",
                "300ms",
                "-r",
                "300ms",
                "-f",
                "1",
                "-rf",
                "json",
                "-rff",
                results.toString()));
        command.addAll(List.of(more));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve(threads + ".log").toFile())
                .start();
    }

    @Test
    void theExamplesJmhForksAreAttestedAndTheirScoresCarryUnitAndMode(@TempDir Path dir) throws Exception {
        List<JsonNode> scores = new ArrayList<>();
        for (String threads : List.of("virtual", "platform")) {
            Path results = dir.resolve(threads + ".json");
            Path agentOut = dir.resolve(threads + ".agent.jsonl");
            Process run = jmh(dir, threads, "threadsByConfiguration", results, agentOut);
            assertThat(run.waitFor(3, TimeUnit.MINUTES)).isTrue();
            assertThat(run.exitValue())
                    .as(Files.readString(dir.resolve(threads + ".log")))
                    .isZero();

            JsonNode result = Json.MAPPER.readTree(results.toFile());
            assertThat(result).hasSize(1);
            JsonNode primary = result.get(0).get("primaryMetric");
            assertThat(result.get(0).get("mode").asText()).isEqualTo("avgt");
            assertThat(primary.get("scoreUnit").asText()).isEqualTo("ms/op");
            scores.add(primary);

            // one line from JMH's host JVM and one from its fork, each attested: 1 processor, parallelism 1
            List<String> lines = Files.readAllLines(agentOut);
            assertThat(lines).hasSize(2);
            for (String line : lines) {
                JsonNode record = Json.MAPPER.readTree(line);
                assertThat(record.get("variant").asText()).isEqualTo(threads);
                HarnessEnvironment env = Json.MAPPER.treeToValue(record.get("environment"), HarnessEnvironment.class);
                assertThat(env.availableProcessors()).isEqualTo(1);
                assertThat(env.inputArguments()).contains("-Djdk.virtualThreadScheduler.parallelism=1");
            }
            JsonNode fork = lines.stream()
                    .map(l -> {
                        try {
                            return Json.MAPPER.readTree(l);
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    })
                    .filter(r -> r.get("command").asText().contains("ForkedMain"))
                    .findFirst()
                    .orElseThrow();
            if (threads.equals("virtual")) {
                // the fork's virtual threads ran on the one carrier parallelism 1 allows
                assertThat(fork.get("environment")
                                .get("scheduler")
                                .get("parallelism")
                                .asInt())
                        .isEqualTo(1);
                assertThat(fork.get("metrics").get("carriers").asInt()).isEqualTo(1);
            }
        }
        // 100 requests × 4 calls of 10 ms: virtual threads overlap them all (≈ 10 ms); a pool of 50 platform
        // threads needs 8 rounds (≈ 80 ms). Asserted with a wide margin: the machine may be busy.
        double virtual = scores.get(0).get("score").asDouble();
        double platform = scores.get(1).get("score").asDouble();
        assertThat(platform / virtual)
                .as("platform %.1f ms, virtual %.1f ms", platform, virtual)
                .isGreaterThan(2.5);
    }
}
