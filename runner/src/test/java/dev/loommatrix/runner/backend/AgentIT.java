package dev.loommatrix.runner.backend;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.runner.records.HarnessEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The attestation agent ({@code -javaagent:harness.jar=FILE}) reports the same environment from inside any
 * JVM as the harness does for its own workloads. Here the "user program" is the harness itself, run by a
 * real JDK with a CPU count and a scheduler setting: the agent's record and the harness's, written by the
 * same JVM, must agree — and the runner reads the agent's as it reads the harness's.
 */
class AgentIT {

    static final String JAVA =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @Test
    void theAgentAttestsAJvmItDidNotStartExactlyAsTheHarnessDoes(@TempDir Path tmp) throws Exception {
        Path harness = Files.write(tmp.resolve("harness.jar"), BuiltIn.resource("harness.jar"));
        Path agentOut = tmp.resolve("agent.jsonl");
        Path records = tmp.resolve("records.jsonl");
        // no --add-opens: the agent opens what it needs itself, without touching the user's command line
        Process jvm = new ProcessBuilder(List.of(
                        JAVA,
                        "-javaagent:" + harness + "=" + agentOut,
                        "-XX:ActiveProcessorCount=2",
                        "-Djdk.virtualThreadScheduler.parallelism=1",
                        "-Dloom.variant=virtual",
                        "-jar",
                        harness.toString(),
                        "sleep-bound",
                        "--variant",
                        "virtual",
                        "--param",
                        "tasks=200",
                        "--param",
                        "sleepMs=20",
                        "--out",
                        records.toString()))
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve("jvm.log").toFile())
                .start();
        assertThat(jvm.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(jvm.exitValue()).as(Files.readString(tmp.resolve("jvm.log"))).isZero();

        List<String> agentLines = Files.readAllLines(agentOut);
        assertThat(agentLines).hasSize(1);
        JsonNode agent = Json.MAPPER.readTree(agentLines.get(0));
        JsonNode own = Json.MAPPER.readTree(Files.readAllLines(records).get(0));
        assertThat(agent.get("schemaVersion").asInt()).isEqualTo(1);
        assertThat(agent.get("kind").asText()).isEqualTo("agent");
        assertThat(agent.get("variant").asText()).isEqualTo("virtual");

        HarnessEnvironment byAgent = Json.MAPPER.treeToValue(agent.get("environment"), HarnessEnvironment.class);
        HarnessEnvironment byHarness = Json.MAPPER.treeToValue(own.get("environment"), HarnessEnvironment.class);
        assertThat(byAgent.availableProcessors()).isEqualTo(2).isEqualTo(byHarness.availableProcessors());
        assertThat(byAgent.scheduler().parallelism()).contains(1);
        assertThat(byAgent.scheduler().parallelism())
                .isEqualTo(byHarness.scheduler().parallelism());
        assertThat(byAgent.scheduler().source()).isEqualTo(byHarness.scheduler().source());
        assertThat(byAgent.limits()).isEqualTo(byHarness.limits());
        assertThat(byAgent.affinity()).isEqualTo(byHarness.affinity());
        assertThat(byAgent.vm()).isEqualTo(byHarness.vm());
        assertThat(byAgent.inputArguments())
                .contains("-Djdk.virtualThreadScheduler.parallelism=1")
                .isEqualTo(byHarness.inputArguments());
        // what the JVM used, read at its exit: the carriers the 200 virtual threads ran on (parallelism 1)
        assertThat(agent.get("metrics").get("carriers").asInt()).isEqualTo(1);
        assertThat(agent.get("metrics").get("uptimeMs").asLong()).isPositive();
    }

    @Test
    void aResultFileThatIsNotJsonIsSaidWithWhereAndWhat(@TempDir Path tmp) throws Exception {
        // issue #32: a program's malformed metrics file, as the agent reads it when the JVM exits
        Path harness = Files.write(tmp.resolve("harness.jar"), BuiltIn.resource("harness.jar"));
        Path agentOut = tmp.resolve("agent.jsonl");
        Path metrics = Files.writeString(tmp.resolve("metrics.json"), "{name: 1}");
        Process jvm = new ProcessBuilder(List.of(
                        JAVA,
                        "-javaagent:" + harness + "=" + agentOut,
                        "-Dloom.collect=" + metrics,
                        "-jar",
                        harness.toString(),
                        "sleep-bound",
                        "--variant",
                        "virtual",
                        "--param",
                        "tasks=10",
                        "--param",
                        "sleepMs=1",
                        "--out",
                        tmp.resolve("records.jsonl").toString()))
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve("jvm.log").toFile())
                .start();
        assertThat(jvm.waitFor(2, TimeUnit.MINUTES)).isTrue();
        JsonNode agent = Json.MAPPER.readTree(Files.readAllLines(agentOut).get(0));
        assertThat(agent.get("collectedError").asText())
                .matches(java.util.regex.Pattern.quote(metrics + " is not JSON at line 1, column ") + "\\d+"
                        + java.util.regex.Pattern.quote(
                                ": Unexpected character ('n'): was expecting double-quote to" + " start field name"));
    }

    /**
     * Issue #49: the agent says which of a variant's own properties anything in the JVM read — by name, as
     * System.getProperty and Integer.getInteger ask — and, when code listed them all (a framework copying them into
     * its configuration), which class did: it may read any from its copy. Run from the agent jar users' JVMs get.
     */
    @Test
    void theAgentSaysWhichOfAVariantsPropertiesAnythingRead(@TempDir Path tmp) throws Exception {
        Path agent = Files.write(tmp.resolve("agent.jar"), AgentJar.from(BuiltIn.resource("harness.jar")));
        Path reads = Files.writeString(
                tmp.resolve("Reads.java"),
                """
                public class Reads {
                    public static void main(String[] args) {
                        System.out.println(System.getProperty("app.threads") + " " + Integer.getInteger("app.pool"));
                    }
                }
                """);
        Path lists = Files.writeString(
                tmp.resolve("Lists.java"),
                """
                public class Lists {
                    public static void main(String[] args) {
                        System.out.println(new java.util.HashMap<>(System.getProperties()).size());
                    }
                }
                """);
        JsonNode byName = propertyReads(tmp, agent, reads, "read.jsonl");
        assertThat(byName.get("app.threads").get("read").asBoolean()).isTrue();
        assertThat(byName.get("app.pool").get("read").asBoolean()).isTrue();
        assertThat(byName.get("app.unused").get("read").asBoolean()).isFalse();
        assertThat(byName.get("app.unused").has("listedBy")).isFalse();

        JsonNode listed = propertyReads(tmp, agent, lists, "listed.jsonl");
        assertThat(listed.get("app.threads").get("read").asBoolean()).isFalse();
        assertThat(listed.get("app.threads").get("listedBy").asText()).isEqualTo("Lists");
    }

    /** Runs a single-file program with the agent watching three properties; the record's propertyReads. */
    private static JsonNode propertyReads(Path tmp, Path agent, Path program, String out) throws Exception {
        Path records = tmp.resolve(out);
        Process jvm = new ProcessBuilder(List.of(
                        JAVA,
                        "-javaagent:" + agent + "=" + records,
                        "-Dloom.watchedProperties=app.threads,app.pool,app.unused",
                        "-Dapp.threads=virtual",
                        "-Dapp.pool=4",
                        "-Dapp.unused=x",
                        program.toString()))
                .redirectErrorStream(true)
                .redirectOutput(tmp.resolve(out + ".log").toFile())
                .start();
        assertThat(jvm.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(jvm.exitValue())
                .as(Files.readString(tmp.resolve(out + ".log")))
                .isZero();
        List<String> lines = Files.readAllLines(records);
        assertThat(lines).hasSize(1);
        return Json.MAPPER.readTree(lines.get(0)).get("propertyReads");
    }
}
