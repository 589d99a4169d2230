package dev.loommatrix.runner.prune;

import dev.loommatrix.runner.backend.container.ContainerBackend;
import dev.loommatrix.runner.backend.container.EnginePrune;
import dev.loommatrix.runner.host.MeasurementLock;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code prune} does (issue #32), in one place: finds the run measuring now, if any, by its locks; has the
 * Docker engine remove the images none of the newest runs used and the containers and networks runs left
 * ({@link EnginePrune}); removes the run directories abandoned unfinished ({@link AbandonedRuns}). Never waits for a
 * run, never touches what a live one may use. (The site's own retention, {@code publish --keep}, is publish's.)
 */
public final class Housekeeping {

    private Housekeeping() {}

    /**
     * What to prune.
     *
     * @param keepRuns the images of the newest this many runs on the engine are kept
     * @param results where run directories are
     * @param abandonedAfter an unfinished run directory untouched this long is abandoned
     * @param dryRun say what would go, remove nothing
     */
    public record Policy(int keepRuns, Path results, Duration abandonedAfter, boolean dryRun) {}

    /**
     * What was pruned (or would be, on a dry run).
     *
     * @param measuringNow the run measuring on this host or its engine now, in words
     * @param engine what the engine removed and left; empty when no Docker engine answers
     * @param abandonedRuns the run directories found abandoned
     */
    public record Report(
            Optional<String> measuringNow,
            Optional<EnginePrune.Report> engine,
            List<AbandonedRuns.Abandoned> abandonedRuns) {

        /** Images: their own layers; run directories: their files. */
        public long freedBytes() {
            return engine.map(EnginePrune.Report::freedBytes).orElse(0L)
                    + abandonedRuns.stream()
                            .mapToLong(AbandonedRuns.Abandoned::bytes)
                            .sum();
        }
    }

    public static Report prune(Policy policy, Instant now) throws IOException {
        Optional<ContainerBackend> docker = ContainerBackend.connect();
        // a run holds this host's lock, and measuring in containers its engine's as well
        Optional<MeasurementLock.Holder> onHost = MeasurementLock.liveRun(Optional.empty());
        Optional<MeasurementLock.Holder> onEngine = docker.isPresent()
                ? MeasurementLock.liveRun(Optional.of(docker.get().engineId()))
                : Optional.empty();
        Optional<EnginePrune.Report> engine = docker.map(d -> d.pruning()
                .prune(
                        policy.keepRuns(),
                        onEngine.map(h -> new EnginePrune.LiveRun(h.runId(), "run " + words(h))),
                        policy.dryRun()));
        List<AbandonedRuns.Abandoned> abandoned =
                AbandonedRuns.find(policy.results(), policy.abandonedAfter(), liveIds(onHost, onEngine), now);
        if (!policy.dryRun()) {
            for (AbandonedRuns.Abandoned run : abandoned) {
                AbandonedRuns.remove(run);
            }
        }
        return new Report(onHost.or(() -> onEngine).map(Housekeeping::words), engine, abandoned);
    }

    private static Set<String> liveIds(
            Optional<MeasurementLock.Holder> onHost, Optional<MeasurementLock.Holder> onEngine) {
        Set<String> ids = new HashSet<>();
        onHost.ifPresent(h -> ids.add(h.runId()));
        onEngine.ifPresent(h -> ids.add(h.runId()));
        return ids;
    }

    private static String words(MeasurementLock.Holder h) {
        return h.runId() + " (pid " + h.pid() + ", " + h.command() + ", since " + h.since() + ")";
    }
}
