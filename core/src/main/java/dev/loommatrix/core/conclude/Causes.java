package dev.loommatrix.core.conclude;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.result.Profile;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Why a condition came out as it did, from its cell's own evidence (issue #51): pinning where the JFR recording shows
 * pinned parks (count, time and the frames, the longest first), GC where one side's collections took much longer, CPU
 * where the JVM kept its CPUs busy, a pool at its Little's-law bound, a run too short to tell. A conclusion that
 * hurts or cannot tell, with no profile, says what would tell.
 */
public final class Causes {

    private Causes() {}

    /** A pool at this share of its Little's-law bound or more is held by its threads. */
    static final double POOL_BOUND_EFFICIENCY = 0.8;

    /** One side's GC pauses this many times the other's, and this share of its recording, are a cause. */
    static final double GC_FACTOR = 2;

    static final double GC_SHARE = 0.05;

    /** The JVM busy this share of the CPUs it had or more is CPU-bound. */
    static final double CPU_BOUND_LOAD = 0.85;

    /** A judged time below this is too short to tell a thread's cost from the work's. */
    static final double TOO_SMALL_MS = 2;

    public static List<Cause> of(CellRecord cell, Finding finding) {
        if (finding.headline().isEmpty()) {
            return List.of();
        }
        Finding.Contrasted h = finding.headline().get();
        List<String> sides = List.of(h.subject(), h.reference());
        List<Cause> out = new ArrayList<>();
        String benchmark = finding.benchmark().orElse("");
        // pinning in every variant the finding names (a variant far from the subject included): the profile's where
        // the cell was profiled, else the forks' own count
        java.util.Set<String> named = new java.util.LinkedHashSet<>(sides);
        finding.others().forEach(o -> named.add(o.subject()));
        for (String variant : named) {
            jfr(cell, variant)
                    .flatMap(j -> pinning(variant, j))
                    .or(() -> cell.measurement(variant, benchmark).flatMap(SampleCauses::pinning))
                    .ifPresent(out::add);
        }
        boolean bothProfiled =
                jfr(cell, h.subject()).isPresent() && jfr(cell, h.reference()).isPresent();
        // the profile's GC where both sides were profiled (it measured the pauses); else the forks' own counts
        (bothProfiled ? gc(cell, h) : SampleCauses.allocation(cell, h.subject(), h.reference(), benchmark))
                .ifPresent(out::add);
        for (String variant : sides) {
            jfr(cell, variant).ifPresent(j -> cpuBound(variant, j).ifPresent(out::add));
        }
        for (String variant : sides) {
            cell.measurement(variant, finding.benchmark().orElse("")).ifPresent(m -> poolBound(cell, m)
                    .or(() -> ServicePools.bound(cell, m))
                    .ifPresent(out::add));
        }
        Footprints.memory(cell, h).ifPresent(out::add);
        for (String variant : sides) {
            cell.measurement(variant, finding.benchmark().orElse(""))
                    .ifPresent(m -> tooSmall(m).ifPresent(out::add));
        }
        boolean profiled = sides.stream().anyMatch(v -> jfr(cell, v).isPresent());
        if (out.isEmpty()
                && !profiled
                && (finding.conclusion() == Conclusion.HURTS || finding.conclusion() == Conclusion.CANNOT_TELL)) {
            out.add(new Cause(
                    Cause.Kind.UNMEASURED,
                    h.subject(),
                    "profiles",
                    "no cause measured: profile the cell (`profiling: {jfr: true}`) to see whether virtual threads"
                            + " pinned, and where the time and the collections went"));
        }
        return out;
    }

    static Optional<Profile.Jfr> jfr(CellRecord cell, String variant) {
        return cell.profiles().stream()
                .filter(p -> p.variant().equals(variant))
                .findFirst()
                .flatMap(Profile::jfr);
    }

    private static Optional<Cause> pinning(String variant, Profile.Jfr j) {
        if (j.pinnedEvents() == 0) {
            return Optional.empty();
        }
        String frames = j.pinnedFrames().stream()
                .limit(3)
                .map(f -> "`" + f.frame() + "` (" + f.count() + ")")
                .collect(Collectors.joining(", "));
        return Optional.of(new Cause(
                Cause.Kind.PINNING,
                variant,
                "jfr",
                String.format(
                        Locale.ROOT,
                        "pinning: in %s, virtual threads parked pinned to their carrier %,d times, %s in all%s",
                        variant,
                        j.pinnedEvents(),
                        ms(j.pinnedMs()),
                        frames.isEmpty() ? "" : ", at " + frames)));
    }

    private static Optional<Cause> gc(CellRecord cell, Finding.Contrasted h) {
        Optional<Profile.Jfr> s = jfr(cell, h.subject());
        Optional<Profile.Jfr> r = jfr(cell, h.reference());
        if (s.isEmpty() || r.isEmpty()) {
            return Optional.empty();
        }
        boolean subjectMore = s.get().gcPauseMs() >= r.get().gcPauseMs();
        Profile.Jfr more = subjectMore ? s.get() : r.get();
        Profile.Jfr less = subjectMore ? r.get() : s.get();
        if (more.gcPauseMs() < GC_FACTOR * less.gcPauseMs() || more.gcPauseMs() < GC_SHARE * more.durationMs()) {
            return Optional.empty();
        }
        String collector = cell.environment().map(e -> collector(e.gc())).orElse("its collector");
        return Optional.of(new Cause(
                Cause.Kind.GC,
                subjectMore ? h.subject() : h.reference(),
                "jfr",
                String.format(
                        Locale.ROOT,
                        "GC: %s paused %s in %d collections (%s for %s), on %s%s",
                        subjectMore ? h.subject() : h.reference(),
                        ms(more.gcPauseMs()),
                        more.gcPauses(),
                        ms(less.gcPauseMs()),
                        subjectMore ? h.reference() : h.subject(),
                        collector,
                        cell.environment()
                                .map(e -> ", the JVM's choice with " + e.availableProcessors()
                                        + (e.availableProcessors() == 1 ? " CPU" : " CPUs"))
                                .orElse(""))));
    }

    private static Optional<Cause> cpuBound(String variant, Profile.Jfr j) {
        if (j.jvmCpu() == null || j.jvmCpu() < CPU_BOUND_LOAD) {
            return Optional.empty();
        }
        return Optional.of(new Cause(
                Cause.Kind.CPU_BOUND,
                variant,
                "jfr",
                String.format(
                        Locale.ROOT, "CPU-bound: %s kept %.0f %% of the CPUs it had busy", variant, j.jvmCpu() * 100)));
    }

    private static Optional<Cause> poolBound(CellRecord cell, Measurement m) {
        if (!m.variant().startsWith("pool:")
                || m.efficiency().isEmpty()
                || m.lowerBoundMs().isEmpty()
                || m.efficiency().get() < POOL_BOUND_EFFICIENCY) {
            return Optional.empty();
        }
        return Optional.of(new Cause(
                Cause.Kind.POOL_BOUND,
                m.variant(),
                "measurements",
                String.format(
                        Locale.ROOT,
                        "pool-bound: %s's %s set its time — running its tasks that many at a time takes at least %s,"
                                + " and it took %s",
                        m.variant(),
                        threads(cell, m.variant().substring(5)),
                        ms(m.lowerBoundMs().get()),
                        ms(m.lowerBoundMs().get() / m.efficiency().get()))));
    }

    /** A pool's threads in words: "200 threads", or "2 threads (one per CPU)" for {@code pool:cpus}. */
    private static String threads(CellRecord cell, String size) {
        if (!size.equals("cpus")) {
            return size + " threads";
        }
        return cell.environment()
                .map(e -> e.availableProcessors() + " threads (one per CPU)")
                .orElse("threads, one per CPU");
    }

    private static Optional<Cause> tooSmall(Measurement m) {
        if (!m.metric().unit().equals("ms")
                || m.summary().isEmpty()
                || m.summary().get().median() >= TOO_SMALL_MS) {
            return Optional.empty();
        }
        return Optional.of(new Cause(
                Cause.Kind.TOO_SMALL,
                m.variant(),
                "measurements",
                String.format(
                        Locale.ROOT,
                        "too small to tell: %s takes %s a run, so starting threads costs as much as the work or more;"
                                + " a larger workload (its params) would say how it scales",
                        m.variant(),
                        ms(m.summary().get().median()))));
    }

    /** The collector by the names of its JVM beans. */
    static String collector(List<String> beans) {
        String all = String.join(" ", beans);
        if (all.contains("G1")) {
            return "G1";
        }
        if (all.contains("ZGC")) {
            return "ZGC";
        }
        if (all.contains("Shenandoah")) {
            return "Shenandoah";
        }
        if (all.contains("PS ") || all.contains("Parallel")) {
            return "Parallel";
        }
        if (all.contains("Copy") || all.contains("MarkSweepCompact")) {
            return "Serial";
        }
        return beans.isEmpty() ? "its collector" : all;
    }

    static String ms(double v) {
        if (v >= 10_000) {
            return String.format(Locale.ROOT, "%.1f s", v / 1000);
        }
        return v >= 10 ? String.format(Locale.ROOT, "%,.0f ms", v) : String.format(Locale.ROOT, "%.2g ms", v);
    }
}
