package dev.loommatrix.runner.backend.container;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Notes in the engine's {@link ImageUses} that a run uses images, so {@code prune} keeps them while the run is among
 * the newest; each image once a run.
 */
final class ImageUseRecorder {

    private final String engineId;
    /** Images already recorded for a run ("run id\ntag"). */
    private final Set<String> recorded = ConcurrentHashMap.newKeySet();

    ImageUseRecorder(String engineId) {
        this.engineId = engineId;
    }

    /**
     * Not recording is no reason to fail a cell: prune then keeps fewer, never removes a live run's (it leaves every
     * image alone while a run measures on the engine).
     */
    void record(String runId, List<String> tags) {
        List<String> fresh =
                tags.stream().filter(t -> !recorded.contains(runId + "\n" + t)).toList();
        if (fresh.isEmpty()) {
            return;
        }
        try {
            ImageUses.of(engineId).record(runId, fresh);
            fresh.forEach(t -> recorded.add(runId + "\n" + t));
        } catch (IOException | RuntimeException e) {
            // see above: prune keeps fewer images of this run, nothing else changes
        }
    }
}
