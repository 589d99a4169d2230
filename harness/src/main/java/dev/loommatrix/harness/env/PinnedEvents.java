package dev.loommatrix.harness.env;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Counts {@code jdk.VirtualThreadPinned} events with a JFR recording that has only that event on.
 * {@link #start()} and {@link #finish()} are called around, never inside, a timed section; reading
 * the recording back happens after the clock stopped.
 *
 * <p>Where the VM has no such event (OpenJ9 has no virtual-thread JFR events, some builds no JFR at
 * all) the result says so instead of reporting zero pins.
 */
public final class PinnedEvents implements AutoCloseable {

    static final String EVENT = "jdk.VirtualThreadPinned";

    private final Recording recording;
    private final String unavailable;

    private PinnedEvents(Recording recording, String unavailable) {
        this.recording = recording;
        this.unavailable = unavailable;
    }

    public static PinnedEvents start() {
        String reason = unavailableReason();
        if (reason != null) {
            return new PinnedEvents(null, reason);
        }
        Recording recording = new Recording();
        // Threshold 0: every pinned park counts, not only those longer than the default 20 ms.
        recording.enable(EVENT).withThreshold(Duration.ZERO).withStackTrace();
        recording.setToDisk(true); // an in-memory recording cannot be dumped once stopped
        recording.start();
        return new PinnedEvents(recording, null);
    }

    /** {@code pinnedEvents}, {@code pinnedMs} (total time pinned) and a top frame, or why they are missing. */
    public Map<String, Object> finish() {
        Map<String, Object> metrics = new LinkedHashMap<>();
        if (recording == null) {
            metrics.put("pinnedEventsUnavailable", unavailable);
            return metrics;
        }
        close();
        Path file = null;
        try {
            file = Files.createTempFile("loom-matrix-pinned", ".jfr");
            recording.dump(file);
            long count = 0;
            Duration pinned = Duration.ZERO;
            String where = null;
            for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
                if (!event.getEventType().getName().equals(EVENT)) {
                    continue;
                }
                count++;
                pinned = pinned.plus(event.getDuration());
                if (where == null) {
                    where = topApplicationFrame(event).orElse(null);
                }
            }
            metrics.put("pinnedEvents", count);
            metrics.put("pinnedMs", pinned.toNanos() / 1e6);
            if (where != null) {
                metrics.put("pinnedAt", where);
            }
        } catch (IOException e) {
            metrics.put("pinnedEventsUnavailable", "could not read the JFR recording: " + e.getMessage());
        } finally {
            recording.close();
            if (file != null) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // a temp file in the cell's scratch space; the cell is thrown away anyway
                }
            }
        }
        return metrics;
    }

    /** Stops recording (right after the timed section); {@link #finish()} reads what was recorded. */
    @Override
    public void close() {
        if (recording != null && recording.getState() == jdk.jfr.RecordingState.RUNNING) {
            recording.stop();
        }
    }

    /** Null when the event can be recorded here. */
    public static String unavailableReason() {
        try {
            if (!FlightRecorder.isAvailable()) {
                return "JFR is not available in this VM";
            }
            boolean known = FlightRecorder.getFlightRecorder().getEventTypes().stream()
                    .anyMatch(t -> t.getName().equals(EVENT));
            return known ? null : "this VM has no " + EVENT + " event (OpenJ9 records no virtual-thread events)";
        } catch (RuntimeException | LinkageError e) {
            return "JFR could not start: " + e;
        }
    }

    /** The first frame outside java.* / jdk.*: where the application blocked while pinned. */
    private static Optional<String> topApplicationFrame(RecordedEvent event) {
        if (event.getStackTrace() == null) {
            return Optional.empty();
        }
        return event.getStackTrace().getFrames().stream()
                .filter(f -> f.getMethod() != null && f.getMethod().getType() != null)
                .filter(f -> {
                    String type = f.getMethod().getType().getName();
                    return !type.startsWith("java.") && !type.startsWith("jdk.") && !type.startsWith("sun.");
                })
                .map(f ->
                        f.getMethod().getType().getName() + "." + f.getMethod().getName())
                .findFirst();
    }
}
