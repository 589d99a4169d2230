package dev.loommatrix.core.conclude;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.stats.RatioInterval;
import java.util.Locale;
import java.util.Optional;

/**
 * Causes from what every fork counts itself, without a profile (issue #51): the harness counts the parks its virtual
 * threads made pinned to their carrier (the JDK's pinned events, where it emits them), the time they took and where
 * the first was; the bytes each task allocated and the collections; the objects a workload built. A cell that was not
 * profiled still says these — "profile the cell" is for what they cannot tell.
 */
final class SampleCauses {

    private SampleCauses() {}

    /** One side allocating this many times the other's per task, or collecting this many times as often, is a cause. */
    static final double ALLOCATION_FACTOR = 4;

    static final double MIN_COLLECTIONS = 10;

    /** "pinning: in synchronized, virtual threads parked pinned to their carrier 40 times, 805 ms in all, at …". */
    static Optional<Cause> pinning(Measurement m) {
        Optional<Double> events = median(m, "pinnedEvents");
        if (events.isEmpty() || events.get() < 1) {
            return Optional.empty();
        }
        String at = m.samples().stream()
                .map(s -> s.flat().get("pinnedAt"))
                .filter(a -> a instanceof String)
                .map(a -> String.format(Locale.ROOT, ", at `%s` (%.0f)", a, events.get()))
                .findFirst()
                .orElse("");
        return Optional.of(new Cause(
                Cause.Kind.PINNING,
                m.variant(),
                "measurements",
                String.format(
                        Locale.ROOT,
                        "pinning: in %s, virtual threads parked pinned to their carrier %,.0f times, %s in all%s —"
                                + " the forks' own count, the median of %d",
                        m.variant(),
                        events.get(),
                        Causes.ms(median(m, "pinnedMs").orElse(0.0)),
                        at,
                        m.samples().size())));
    }

    /**
     * Allocation where one side allocated or collected far more than the other: "allocation: virtual allocated 65.3
     * KiB a task against pool:cpus's 0.26 KiB, and collected 76 times against 1; it built its objects 1,000 times
     * against 2 — one per thread, and a thread per task builds them for every task".
     */
    static Optional<Cause> allocation(CellRecord cell, String subject, String reference, String benchmark) {
        Optional<Measurement> s = cell.measurement(subject, benchmark);
        Optional<Measurement> r = cell.measurement(reference, benchmark);
        if (s.isEmpty() || r.isEmpty()) {
            return Optional.empty();
        }
        Optional<Double> sBytes = median(s.get(), "allocatedBytesPerTask");
        Optional<Double> rBytes = median(r.get(), "allocatedBytesPerTask");
        Optional<Double> sGcs = median(s.get(), "gcCount");
        Optional<Double> rGcs = median(r.get(), "gcCount");
        boolean bytesApart = sBytes.isPresent() && rBytes.isPresent() && apart(sBytes.get(), rBytes.get());
        // a handful of collections either way is no cause: at least ten on the side that collected more
        boolean gcsApart = sGcs.isPresent()
                && rGcs.isPresent()
                && apart(sGcs.get(), rGcs.get())
                && Math.max(sGcs.get(), rGcs.get()) >= MIN_COLLECTIONS;
        if (!bytesApart && !gcsApart) {
            return Optional.empty();
        }
        boolean subjectMore = bytesApart ? sBytes.get() > rBytes.get() : sGcs.get() > rGcs.get();
        String more = subjectMore ? subject : reference;
        String less = subjectMore ? reference : subject;
        StringBuilder words = new StringBuilder("allocation: ").append(more);
        if (bytesApart) {
            words.append(String.format(
                    Locale.ROOT,
                    " allocated %s a task against %s's %s",
                    kib(subjectMore ? sBytes.get() : rBytes.get()),
                    less,
                    kib(subjectMore ? rBytes.get() : sBytes.get())));
        }
        if (sGcs.isPresent() && rGcs.isPresent()) {
            words.append(bytesApart ? ", and" : "")
                    .append(String.format(
                            Locale.ROOT,
                            " collected %,.0f times against %,.0f",
                            subjectMore ? sGcs.get() : rGcs.get(),
                            subjectMore ? rGcs.get() : sGcs.get()));
        }
        Optional<Double> sBuilt = median(s.get(), "objectsBuilt");
        Optional<Double> rBuilt = median(r.get(), "objectsBuilt");
        if (sBuilt.isPresent() && rBuilt.isPresent() && apart(sBuilt.get(), rBuilt.get())) {
            words.append(String.format(
                    Locale.ROOT,
                    "; %s built its per-thread objects %,.0f times against %,.0f — once per thread, and a thread"
                            + " per task builds them for every task",
                    subject,
                    sBuilt.get(),
                    rBuilt.get()));
        }
        return Optional.of(new Cause(Cause.Kind.GC, more, "measurements", words.toString()));
    }

    private static boolean apart(double a, double b) {
        double hi = Math.max(a, b);
        double lo = Math.min(a, b);
        return hi > 0 && hi >= ALLOCATION_FACTOR * Math.max(lo, 1e-9) && hi - lo >= 1;
    }

    private static Optional<Double> median(Measurement m, String metric) {
        double[] values = m.values(metric);
        return values.length == 0 ? Optional.empty() : Optional.of(RatioInterval.median(values));
    }

    private static String kib(double bytes) {
        return bytes >= 1024
                ? String.format(Locale.ROOT, "%.1f KiB", bytes / 1024)
                : String.format(Locale.ROOT, "%.0f B", bytes);
    }
}
