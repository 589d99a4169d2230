package dev.loommatrix.runner.records;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading the attestation agent's lines, on records it wrote around real JMH 1.37 runs of the example project
 * (fixtures/user): runs of a host and its forks, warmups dropped whole, pinned parks read from JFR's recording.
 */
class AgentLinesTest {

    @Test
    void aForkedRunIsItsHostAndForksAndTheForksAreWhatRanTheBenchmark() throws Exception {
        Path raw = UserCells.fixture("jmh-forks");
        VariantRuns all = AgentLines.read(raw, "virtual", 0);
        assertThat(all.runs()).hasSize(2);
        assertThat(all.runs()).allSatisfy(run -> {
            assertThat(run.forks()).hasSize(1);
            assertThat(run.forks().get(0).command()).startsWith(AgentRecord.JMH_FORK_MAIN);
            assertThat(run.host().collected()).isPresent();
        });
        assertThat(AgentLines.environments(java.util.List.of(all)))
                .as("every JVM is attested, forks too")
                .hasSize(4);

        VariantRuns measured = AgentLines.read(raw, "virtual", 1);
        assertThat(measured.runs())
                .as("the warmup run is dropped whole, fork and host")
                .hasSize(1);
    }

    @Test
    void pinnedParksAreReadFromTheRecordingJfrWroteAtExit() throws Exception {
        // Pin.java.txt run on JDK 25 with the agent and -Dloom.pinnedEvents=true: a virtual thread blocks in
        // a class initializer (pinned on every JDK); JFR wrote the recording the record names
        VariantRuns runs = AgentLines.read(UserCells.fixture("pinned"), "virtual", 0);
        var host = runs.runs().get(0).host();
        assertThat(host.pinnedRecording()).hasValueSatisfying(f -> assertThat(f).endsWith(".jfr"));
        assertThat(host.metrics()).containsEntry("pinnedEvents", 1L);
        assertThat((Double) host.metrics().get("pinnedMs")).isGreaterThan(40.0); // the initializer sleeps 50 ms
        assertThat(JvmUse.of(java.util.List.of(host), false)).containsEntry("pinnedEvents", 1L);
    }

    @Test
    void aLineNotOfTheAgentIsSaidWithItsPlaceAndEndsTheReading(@TempDir Path dir) throws Exception {
        String agent = "{\"schemaVersion\": 1, \"kind\": \"agent\", \"pid\": 7, \"variant\": \"virtual\","
                + " \"command\": \"app.Main\", \"metrics\": {\"cpuMs\": 10.0}}";
        Files.write(
                dir.resolve("virtual.records.jsonl"),
                java.util.List.of(agent, "", "{\"schemaVersion\": 1, \"wallMs\": 12.0}", agent));
        VariantRuns runs = AgentLines.read(dir, "virtual", 0);
        assertThat(runs.runs()).hasSize(1);
        assertThat(runs.problem())
                .hasValue("raw/virtual.records.jsonl:3: not a record of this runner's attestation agent (schema 1,"
                        + " kind none)");
        assertThat(AgentLines.read(dir.resolve("nowhere"), "virtual", 0).runs())
                .as("a variant that never wrote its file")
                .isEmpty();
    }
}
