package dev.loommatrix.harness.agent;

import dev.loommatrix.harness.env.PinnedEvents;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import jdk.jfr.Recording;

/**
 * Pinned parks over a user JVM's whole life, for the agent: a JFR recording of
 * {@code jdk.VirtualThreadPinned} (threshold 0, with stacks) that JFR itself writes next to the agent's
 * record when the JVM exits. Reading it in the agent's own shutdown hook would race JFR's hook, which
 * removes its chunk files, so the runner reads the file afterwards (the record names it).
 */
final class PinnedParks {

    static final String EVENT = "jdk.VirtualThreadPinned";

    private PinnedParks() {}

    /**
     * Starts the recording into {@code <records file>.pinned-<pid>.jfr}: the record's field
     * {@code pinnedRecording} names the file; or {@code pinnedEventsUnavailable} says why not.
     */
    static Map<String, Object> start(Path recordsFile) {
        String unavailable = PinnedEvents.unavailableReason();
        if (unavailable != null) {
            return Map.of("pinnedEventsUnavailable", unavailable);
        }
        try {
            Path file = recordsFile.resolveSibling(recordsFile.getFileName() + ".pinned-"
                    + ProcessHandle.current().pid() + ".jfr");
            Recording recording = new Recording();
            recording.setName("loom-matrix pinned parks");
            recording.enable(EVENT).withThreshold(Duration.ZERO).withStackTrace();
            recording.setToDisk(true);
            recording.setDestination(file);
            recording.setDumpOnExit(true);
            recording.start();
            return Map.of("pinnedRecording", file.getFileName().toString());
        } catch (Exception e) {
            return Map.of("pinnedEventsUnavailable", "JFR could not start: " + e);
        }
    }
}
