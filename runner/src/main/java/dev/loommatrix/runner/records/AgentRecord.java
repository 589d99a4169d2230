package dev.loommatrix.runner.records;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** One line the attestation agent wrote: one JVM's environment and use, and its collected result if any. */
@JsonIgnoreProperties(ignoreUnknown = true)
public record AgentRecord(
        int schemaVersion,
        String kind,
        long pid,
        String variant,
        String command,
        Map<String, Object> metrics,
        Optional<HarnessEnvironment> environment,
        Optional<JsonNode> collected,
        Optional<String> collectedError,
        Optional<String> pinnedRecording,
        Optional<String> pinnedEventsUnavailable,
        Map<String, PropertyRead> propertyReads) {

    /** JMH starts its forks with this main class; every other JVM carrying the agent is a run's host. */
    static final String JMH_FORK_MAIN = "org.openjdk.jmh.runner.ForkedMain";

    public AgentRecord {
        metrics = metrics == null ? Map.of() : Map.copyOf(metrics);
        propertyReads = propertyReads == null ? Map.of() : Map.copyOf(propertyReads);
        command = command == null ? "" : command;
        pinnedRecording = pinnedRecording == null ? Optional.empty() : pinnedRecording;
        pinnedEventsUnavailable = pinnedEventsUnavailable == null ? Optional.empty() : pinnedEventsUnavailable;
    }

    /** This record with more of what the JVM used (e.g. its pinned parks, read from its recording). */
    AgentRecord withMetrics(Map<String, Object> more) {
        Map<String, Object> all = new LinkedHashMap<>(metrics);
        all.putAll(more);
        return new AgentRecord(
                schemaVersion,
                kind,
                pid,
                variant,
                command,
                all,
                environment,
                collected,
                collectedError,
                pinnedRecording,
                pinnedEventsUnavailable,
                propertyReads);
    }

    boolean isFork() {
        return command.startsWith(JMH_FORK_MAIN);
    }
}
