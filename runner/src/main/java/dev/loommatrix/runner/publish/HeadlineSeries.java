package dev.loommatrix.runner.publish;

import dev.loommatrix.core.compare.Comparer;
import dev.loommatrix.core.compare.Headlines;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.RunManifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A cell's headline across the runs (issue #54): the number its matrix tile shows — the subject's speedup over the
 * workload's reference (above 1, the subject is ahead), or its efficiency against its own bound — run by run, with
 * its interval where the cell recorded one and the change points in it. The history draws each variant on its own;
 * this series answers "is virtual still ahead, and by how much?" without a reader dividing two lines by eye.
 *
 * @param words the contrast as the cell states it ("virtual over pool-100, wall time")
 * @param kind {@code speedup} or {@code efficiency}, as in a comparison's headlines
 * @param profile the run's profile: a quick dispatch's headline is not a point of the nightly's
 */
public record HeadlineSeries(
        String cellId,
        String workload,
        String words,
        String kind,
        List<Trends.Point> points,
        List<String> changePoints,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                Optional<String> profile) {

    /** The headlines fed one run at a time, oldest first, as {@link Trends.Builder} feeds the series. */
    static final class Collector {
        private final Map<String, HeadlineSeries> keys = new TreeMap<>();
        private final Map<String, List<Trends.Point>> points = new TreeMap<>();

        void add(RunManifest manifest, CellRecord cell, String profile) {
            cell.contrast().ifPresent(contrast -> Headlines.value(cell, contrast, Comparer.Phase.STEADY)
                    .ifPresent(side -> {
                        String kind = contrast.kind() == dev.loommatrix.core.matrix.Contrast.Kind.SPEEDUP
                                ? "speedup"
                                : "efficiency";
                        // a new contrast (another reference, another metric) is another series, not a step
                        String key = String.join("\u0000", cell.cellId(), profile, contrast.words());
                        keys.putIfAbsent(
                                key,
                                new HeadlineSeries(
                                        cell.cellId(),
                                        cell.coordinates().workload(),
                                        contrast.words(),
                                        kind,
                                        List.of(),
                                        List.of(),
                                        Optional.of(profile).filter(p -> !p.isEmpty())));
                        points.computeIfAbsent(key, k -> new ArrayList<>())
                                .add(new Trends.Point(
                                        manifest.runId(),
                                        manifest.startedAt(),
                                        side.value(),
                                        Optional.ofNullable(side.ci95()).filter(ci -> ci.size() == 2),
                                        Optional.empty(),
                                        cell.execution().interference().flatMap(i -> i.disturbed())));
                    }));
        }

        /** Each series with its change points, found as the variants' are: among the main line's quiet runs. */
        List<HeadlineSeries> build(Set<String> pullRequests) {
            List<HeadlineSeries> out = new ArrayList<>();
            points.forEach((key, p) -> {
                List<String> changes = Trends.changePoints(p, pullRequests);
                HeadlineSeries about = keys.get(key);
                out.add(new HeadlineSeries(
                        about.cellId(), about.workload(), about.words(), about.kind(), p, changes, about.profile()));
            });
            return out;
        }
    }
}
