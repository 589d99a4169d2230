package dev.loommatrix.core.conclude;

import dev.loommatrix.core.capacity.CapacityResult;
import dev.loommatrix.core.matrix.Contrast;
import dev.loommatrix.core.matrix.ServiceLoad;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.result.Sample;
import dev.loommatrix.core.result.Speedups;
import dev.loommatrix.core.stats.MetricDescriptor;
import dev.loommatrix.core.stats.Speedup;
import java.util.List;
import java.util.Optional;

/**
 * Each cell of a run concluded (issue #51): not valid when it failed, was invalid or skipped, ran beside other work
 * (disturbed) or could not prove its settings (not attested) — never evidence; otherwise the class its headline
 * contrast's interval gives against the practical band, with the best alternative it measured beside it.
 */
public final class Findings {

    private Findings() {}

    /**
     * The conclusions of one cell, at a practical band of ± {@code threshold} (0.10 for 10 %): one, or one per
     * benchmark a user's workload measured with both variants of its contrast.
     */
    public static List<Finding> of(CellRecord cell, double threshold) {
        if (cell.status() == CellStatus.SKIPPED) {
            return List.of(); // not run here (no JDK, no image): no evidence either way, and nothing went wrong
        }
        Optional<String> invalid = notValid(cell);
        if (invalid.isPresent()) {
            return List.of(new Finding(
                    cell.cellId(),
                    cell.coordinates(),
                    Optional.empty(),
                    Conclusion.NOT_VALID,
                    Optional.empty(),
                    Optional.empty(),
                    invalid));
        }
        // an efficiency headline (a measure against the workload's own bound, not a contest) is still concluded:
        // its subject against the best other variant the cell measured
        Optional<Contrast> contrast = cell.contrast()
                .map(c -> c.kind() == Contrast.Kind.SPEEDUP ? c : Contrast.overFastestOther(c.subject(), c.words()));
        boolean footprint = cell.coordinates().workload().equals(Footprints.WORKLOAD);
        Optional<String> noFootprint = footprint ? Footprints.unmeasured(cell) : Optional.empty();
        if (noFootprint.isPresent()) {
            return List.of(new Finding(
                    cell.cellId(),
                    cell.coordinates(),
                    Optional.empty(),
                    Conclusion.CANNOT_TELL,
                    Optional.empty(),
                    Optional.empty(),
                    noFootprint));
        }
        List<Speedup> headlines = footprint
                ? contrast.flatMap(c -> Footprints.contrast(cell, c)).stream().toList()
                : contrast.map(c -> judged(cell, c.subject(), c.reference())).orElse(List.of());
        if (headlines.isEmpty()) {
            return List.of(); // one variant, or none measured: no contest, nothing to conclude
        }
        return headlines.stream()
                .map(h -> finding(cell, h, threshold, !footprint))
                .toList();
    }

    /**
     * A headline contrast concluded against the best alternative the cell measured: the conclusion is the subject's
     * against the fastest other variant (a win over a pool picked to lose is no conclusion), the headline kept beside.
     */
    private static Finding finding(CellRecord cell, Speedup headline, double threshold, boolean againstBest) {
        Finding.Contrasted said = bounded(cell, contrasted(headline, threshold), headline.benchmark());
        Optional<Finding.Contrasted> best = againstBest
                ? bestOther(cell, said.subject(), said.reference(), headline.benchmark())
                        .map(s -> bounded(cell, contrasted(s, threshold), headline.benchmark()))
                : Optional.empty();
        Finding.Contrasted deciding = best.orElse(said);
        Optional<String> why =
                deciding.conclusion() == Conclusion.CANNOT_TELL ? Optional.of(toDecide(deciding)) : Optional.empty();
        Finding finding = new Finding(
                cell.cellId(),
                cell.coordinates(),
                headline.benchmark(),
                deciding.conclusion(),
                Optional.of(said),
                best,
                why);
        Finding measured = finding.withTail(tail(cell, deciding, headline.benchmark(), threshold))
                .withOthers(againstBest ? others(cell, deciding, headline.benchmark(), threshold) : List.of())
                .withCaveats(caveats(cell, deciding, headline.benchmark()))
                .withAlternatives(alternatives(cell, deciding.subject(), headline.benchmark()));
        return measured.withCauses(Causes.of(cell, measured));
    }

    /**
     * Where the subject does not pay off, the other variants that differ from it beyond the band, each against the
     * subject: on a JDK where synchronized no longer pins, pinning's class-init still does (0.25×), and a reader
     * deciding on the subject must hear it. Where the subject pays off over the best other, every other is worse by
     * construction and says nothing new.
     */
    private static List<Finding.Contrasted> others(
            CellRecord cell, Finding.Contrasted deciding, Optional<String> benchmark, double threshold) {
        if (deciding.conclusion() == Conclusion.PAYS_OFF) {
            return List.of();
        }
        String label = benchmark.orElse("");
        Optional<Measurement> subject = cell.measurement(deciding.subject(), label);
        if (subject.isEmpty()) {
            return List.of();
        }
        return cell.measurements().stream()
                .filter(m -> m.benchmark().map(b -> b.label()).orElse("").equals(label))
                .filter(m ->
                        !m.variant().equals(deciding.subject()) && !m.variant().equals(deciding.reference()))
                .filter(Findings::didAllItsWork)
                .flatMap(m -> Speedups.between(cell.cellId(), m, subject.get()).stream())
                .map(s -> contrasted(s, threshold))
                .filter(c -> c.conclusion() == Conclusion.PAYS_OFF || c.conclusion() == Conclusion.HURTS)
                .toList();
    }

    /** A service's p99 latency: the subject against the variant the conclusion rests on, lower is better. */
    static final dev.loommatrix.core.stats.MetricDescriptor P99 = new dev.loommatrix.core.stats.MetricDescriptor(
            "latencyP99Ms", "ms", dev.loommatrix.core.stats.MetricDescriptor.Direction.LOWER_IS_BETTER);

    private static Optional<Finding.Contrasted> tail(
            CellRecord cell, Finding.Contrasted deciding, Optional<String> benchmark, double threshold) {
        if (!deciding.metric().equals(MetricDescriptor.THROUGHPUT.name())) {
            return Optional.empty(); // a service's tail beside its throughput; a workload's own latencies are not one
        }
        String label = benchmark.orElse("");
        Optional<Measurement> subject = cell.measurement(deciding.subject(), label);
        Optional<Measurement> reference = cell.measurement(deciding.reference(), label);
        if (subject.isEmpty() || reference.isEmpty()) {
            return Optional.empty();
        }
        double[] s = subject.get().values(P99.name());
        double[] r = reference.get().values(P99.name());
        if (s.length == 0 || r.length == 0) {
            return Optional.empty();
        }
        return Optional.of(contrasted(
                Speedup.of(
                        deciding.subject(),
                        deciding.reference(),
                        subject.get().benchmark().map(b -> b.label()),
                        P99,
                        s,
                        r,
                        (cell.cellId() + "/p99/" + deciding.reference()).hashCode()),
                threshold));
    }

    public static List<Finding> of(List<CellRecord> cells, double threshold) {
        return cells.stream().flatMap(c -> of(c, threshold).stream()).toList();
    }

    /** Why a cell is not evidence, if it is not. */
    static Optional<String> notValid(CellRecord cell) {
        if (cell.status() != CellStatus.OK) {
            return Optional.of(
                    cell.status().word() + cell.reason().map(r -> ": " + r).orElse(""));
        }
        Optional<String> disturbed = cell.execution().interference().flatMap(i -> i.disturbed());
        if (disturbed.isPresent()) {
            return Optional.of("disturbed: " + disturbed.get());
        }
        if (cell.environment().isEmpty()) {
            return Optional.of("no JVM run finished");
        }
        if (!cell.environment().get().attested()) {
            return Optional.of("not attested: "
                    + cell.environment().get().attestation().stream()
                            .filter(c -> !c.ok())
                            .findFirst()
                            .map(c -> c.setting() + " asked " + c.requested() + ", observed " + c.observed())
                            .orElse("a setting was not observed"));
        }
        return Optional.empty();
    }

    /**
     * The subject's speedups over the reference on the judged metric: one, or one per benchmark. A user workload's
     * speedups are every variant over its baseline, so a contrast the other way round is read inverted.
     */
    private static List<Speedup> judged(CellRecord cell, String subject, Optional<String> reference) {
        List<Speedup> out = new java.util.ArrayList<>();
        for (Speedup s : cell.speedups()) {
            if (!s.metric().equals(judgedMetric(cell, s))) {
                continue;
            }
            if (s.over().equals(subject)
                    && reference.map(r -> r.equals(s.variant())).orElse(true)) {
                out.add(s);
            } else if (s.variant().equals(subject)
                    && reference.map(r -> r.equals(s.over())).orElse(false)) {
                out.add(inverted(s));
            }
        }
        // a built-in cell's one headline: the first such speedup (over the fastest other, it is the one stored)
        return reference.isEmpty() && !out.isEmpty() ? List.of(out.get(0)) : out;
    }

    private static Speedup inverted(Speedup s) {
        List<Double> ci = s.ci95().isEmpty()
                ? List.of()
                : List.of(1 / s.ci95().get(1), 1 / s.ci95().get(0));
        return new Speedup(s.over(), s.variant(), s.metric(), 1 / s.ratio(), ci, s.benchmark(), s.ciLevel());
    }

    /** The metric the cell's first speedup is on: the judged one (cold-start speedups come after all of those). */
    private static String judgedMetric(CellRecord cell, Speedup any) {
        return cell.speedups().isEmpty() ? any.metric() : cell.speedups().get(0).metric();
    }

    /**
     * The subject against the best other variant the cell measured (the same benchmark), the fastest by its
     * steady-state median in the judged metric's direction, when that is not the headline's reference.
     */
    private static Optional<Speedup> bestOther(
            CellRecord cell, String subject, String reference, Optional<String> benchmark) {
        String label = benchmark.orElse("");
        Optional<Measurement> mine = cell.measurement(subject, label);
        Optional<Measurement> fastest = Speedups.fastestOther(cell.measurements(), subject, label);
        if (mine.isEmpty() || fastest.isEmpty() || fastest.get().variant().equals(reference)) {
            return Optional.empty(); // the headline is over the best other already: no second interval to compute
        }
        return Speedups.between(cell.cellId(), mine.get(), fastest.get());
    }

    /**
     * A capacity contrast where a side's capacity is only a lower bound (every repetition met the objective at the
     * top of the range): the ratio is a floor or a ceiling, and only a conclusion the bound cannot overturn stands
     * — a floor above the band still pays off, a ceiling below it still hurts; anything else cannot tell.
     */
    static Finding.Contrasted bounded(CellRecord cell, Finding.Contrasted c, Optional<String> benchmark) {
        if (!c.metric().equals(ServiceLoad.CAPACITY.name())) {
            return c;
        }
        boolean subject = onlyLowerBound(cell, c.subject(), benchmark);
        boolean reference = onlyLowerBound(cell, c.reference(), benchmark);
        if (subject && reference) {
            return c.bounded(Finding.Bound.UNKNOWN, Conclusion.CANNOT_TELL);
        }
        if (subject) {
            return c.bounded(
                    Finding.Bound.AT_LEAST,
                    c.conclusion() == Conclusion.PAYS_OFF ? Conclusion.PAYS_OFF : Conclusion.CANNOT_TELL);
        }
        if (reference) {
            return c.bounded(
                    Finding.Bound.AT_MOST,
                    c.conclusion() == Conclusion.HURTS ? Conclusion.HURTS : Conclusion.CANNOT_TELL);
        }
        return c;
    }

    /** Whether every repetition of the variant's capacity search ended at the top of its range. */
    private static boolean onlyLowerBound(CellRecord cell, String variant, Optional<String> benchmark) {
        List<Sample> samples = cell.measurement(variant, benchmark.orElse(""))
                .map(Measurement::samples)
                .orElse(List.of());
        String lowerBound = CapacityResult.Outcome.LOWER_BOUND.words();
        return !samples.isEmpty()
                && samples.stream().allMatch(s -> lowerBound.equals(s.facts().get(CAPACITY_OUTCOME)));
    }

    /** A capacity search's sample fact: its outcome in words (the results' {@code capacityOutcome}). */
    public static final String CAPACITY_OUTCOME = "capacityOutcome";

    private static Finding.Contrasted contrasted(Speedup s, double threshold) {
        double low = s.ci95().isEmpty() ? s.ratio() : s.ci95().get(0);
        double high = s.ci95().isEmpty() ? s.ratio() : s.ci95().get(1);
        Conclusion conclusion = s.ci95().isEmpty() ? Conclusion.CANNOT_TELL : Conclusion.of(low, high, threshold);
        return new Finding.Contrasted(
                s.over(), s.variant(), s.metric(), s.ratio(), low, high, Optional.ofNullable(s.ciLevel()), conclusion);
    }

    /** How many other variants the cell measured beside the subject, on the same benchmark. */
    private static int alternatives(CellRecord cell, String subject, Optional<String> benchmark) {
        String label = benchmark.orElse("");
        return (int) cell.measurements().stream()
                .filter(m -> m.benchmark().map(b -> b.label()).orElse("").equals(label))
                .map(Measurement::variant)
                .filter(v -> !v.equals(subject))
                .distinct()
                .count();
    }

    /**
     * What weakens the contrast's numbers, per side: forks whose iterations still trended (not steady: the steady
     * state was not reached, and the numbers are of a JVM still warming), and forks spread widely (unstable).
     */
    static List<String> caveats(CellRecord cell, Finding.Contrasted deciding, Optional<String> benchmark) {
        List<String> out = new java.util.ArrayList<>();
        for (String variant : List.of(deciding.subject(), deciding.reference())) {
            cell.measurement(variant, benchmark.orElse("")).ifPresent(m -> {
                long notSteady = m.notSteadyForks();
                if (notSteady > 0) {
                    out.add(String.format(
                            java.util.Locale.ROOT,
                            "%s not steady in %d of %d forks (its iterations still trended)",
                            variant,
                            notSteady,
                            m.samples().size()));
                }
                m.summary()
                        .filter(s -> Boolean.TRUE.equals(s.unstable()))
                        .ifPresent(s -> out.add(String.format(
                                java.util.Locale.ROOT,
                                "%s unstable (its forks spread %.0f %% around their mean)",
                                variant,
                                s.cv() * 100)));
            });
        }
        return out;
    }

    /**
     * A variant that stopped short of its work (fib-fanout's recursive variants: 10 of 50 calls, by design, within a
     * budget) timed less work than the subject: no ratio with it is said.
     */
    private static boolean didAllItsWork(Measurement m) {
        double[] requested = m.values("callsRequested");
        double[] completed = m.values("callsCompleted");
        for (int i = 0; i < Math.min(requested.length, completed.length); i++) {
            if (completed[i] < requested[i]) {
                return false;
            }
        }
        return true;
    }

    /** What would decide an interval that reaches across an edge of the band. */
    private static String toDecide(Finding.Contrasted c) {
        String interval = String.format(java.util.Locale.ROOT, "%.3g–%.3g×", c.low(), c.high());
        if (c.level().isPresent() && c.level().get() < 0.9) {
            return String.format(
                    java.util.Locale.ROOT,
                    "more repetitions: the interval %s covers only %.0f %% with so few",
                    interval,
                    c.level().get() * 100);
        }
        return "more repetitions, or an A/B run (loom-matrix ab) for a small difference: the interval " + interval
                + " reaches across the band's edge";
    }
}
