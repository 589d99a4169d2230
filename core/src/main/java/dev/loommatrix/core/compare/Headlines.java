package dev.loommatrix.core.compare;

import dev.loommatrix.core.matrix.Contrast;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Interference;
import dev.loommatrix.core.stats.MetricDescriptor;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a comparison says beside its verdicts: each shared cell's headline contrast on both sides (issue #19), and
 * the compared cells measured beside other work (issue #32).
 */
public final class Headlines {

    private Headlines() {}

    /** Each cell both sides have, with the candidate's headline contrast: its value before and after. */
    static List<CompareReport.Headline> of(
            Map<String, CellRecord> before, Map<String, CellRecord> after, Comparer.Phase phase) {
        List<CompareReport.Headline> out = new ArrayList<>();
        for (var entry : after.entrySet()) {
            CellRecord c = entry.getValue();
            CellRecord b = before.get(entry.getKey());
            if (b == null || c.contrast().isEmpty()) {
                continue;
            }
            var contrast = c.contrast().get();
            var baselineSide = value(b, contrast, phase);
            var candidateSide = value(c, contrast, phase);
            if (baselineSide.isEmpty() && candidateSide.isEmpty()) {
                continue;
            }
            out.add(new CompareReport.Headline(
                    c.cellId(),
                    contrast.words(),
                    contrast.kind() == Contrast.Kind.SPEEDUP ? "speedup" : "efficiency",
                    contrast.subject(),
                    contrast.reference(),
                    baselineSide,
                    candidateSide));
        }
        out.sort(Comparator.comparing(CompareReport.Headline::cellId));
        return out;
    }

    /**
     * A cell's value of a headline as the dashboard's tile shows it: the recorded speedup of the subject over the
     * reference in the phase compared (the first benchmark's, for a user workload), or the subject's efficiency
     * against its bound (a load test's throughput efficiency).
     */
    public static Optional<CompareReport.Side> value(CellRecord cell, Contrast contrast, Comparer.Phase phase) {
        if (contrast.kind() == Contrast.Kind.SPEEDUP) {
            boolean cold = phase == Comparer.Phase.COLD_START;
            return cell.speedups().stream()
                    .filter(s -> s.over().equals(contrast.subject())
                            && contrast.reference().map(s.variant()::equals).orElse(false)
                            && s.metric().equals(MetricDescriptor.COLD_START_MS.name()) == cold)
                    .findFirst()
                    .map(s -> new CompareReport.Side(s.ratio(), s.ci95()));
        }
        return cell.measurement(contrast.subject())
                .flatMap(m -> m.efficiency().or(() -> m.medianOf("throughputEfficiency")))
                .map(v -> new CompareReport.Side(v, null));
    }

    /** The compared cells measured beside other work, on either side (issue #32). */
    static List<CompareReport.Disturbed> disturbed(
            Map<String, CellRecord> before, Map<String, CellRecord> after, List<SeriesMatching.Pairing> pairings) {
        List<CompareReport.Disturbed> out = new ArrayList<>();
        pairings.stream()
                .map(SeriesMatching.Pairing::cellId)
                .distinct()
                .sorted()
                .forEach(id -> {
                    for (var side : List.of(Map.entry("baseline", before), Map.entry("candidate", after))) {
                        CellRecord cell = side.getValue().get(id);
                        if (cell != null) {
                            cell.execution()
                                    .interference()
                                    .flatMap(Interference::disturbed)
                                    .ifPresent(
                                            figure -> out.add(new CompareReport.Disturbed(id, side.getKey(), figure)));
                        }
                    }
                });
        return out;
    }
}
