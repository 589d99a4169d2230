package dev.loommatrix.runner.bisect;

import dev.loommatrix.core.bisect.Change;
import dev.loommatrix.core.compare.CompareReport;
import dev.loommatrix.core.compare.Comparison;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The series a bisection follows: one cell's variant, metric and benchmark, as the A/B reports name it. The first
 * step picks it — the one asked for, else the comparison with the largest regression — and every step after reads
 * the same one.
 */
record Series(String cellId, String variant, String metric, Optional<String> benchmark) {

    static Series of(Comparison c) {
        return new Series(c.cellId(), c.variant(), c.metric(), c.benchmark());
    }

    /** "spring-boot … virtual, wallMs" as a reader finds it in the A/B report. */
    String words() {
        return cellId + " · " + variant + benchmark.map(b -> " · " + b).orElse("") + " · " + metric;
    }

    boolean matches(Comparison c) {
        return c.cellId().equals(cellId)
                && c.variant().equals(variant)
                && c.metric().equals(metric)
                && c.benchmark().equals(benchmark);
    }

    /**
     * The series to follow in the bad commit's A/B: among those matching {@code wanted} ("cell", "cell variant" or
     * a variant alone; every one when empty), the worst change against good.
     */
    static Optional<Comparison> worst(CompareReport report, Optional<String> wanted) {
        List<Comparison> candidates = report.comparisons().stream()
                .filter(c -> c.ci95().size() == 2 && Double.isFinite(c.ratio()) && c.ratio() > 0)
                .filter(c -> wanted.map(w -> wants(w, c)).orElse(true))
                .toList();
        return candidates.stream()
                .max(Comparator.comparingDouble(c -> Change.of(c).ratio()));
    }

    private static boolean wants(String wanted, Comparison c) {
        String[] words = wanted.strip().split("\\s+");
        return words.length == 1
                ? c.cellId().equals(words[0]) || c.variant().equals(words[0])
                : c.cellId().equals(words[0]) && c.variant().equals(words[1]);
    }
}
