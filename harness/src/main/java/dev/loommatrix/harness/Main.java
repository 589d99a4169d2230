package dev.loommatrix.harness;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.loommatrix.harness.env.Cgroups;
import dev.loommatrix.harness.env.Environment;
import dev.loommatrix.harness.env.PinnedEvents;
import dev.loommatrix.harness.env.Scheduler;
import dev.loommatrix.harness.measure.RecordFile;
import dev.loommatrix.harness.measure.Turns;
import dev.loommatrix.harness.workload.Catalogue;
import dev.loommatrix.harness.workload.Outcome;
import dev.loommatrix.harness.workload.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code java -jar harness.jar <workload> --variant V [--param k=v]... [--iterations W:M] [--out FILE] [--turns DIR]}
 *
 * <p>Runs one workload and appends one JSON record (one line) to FILE, or prints it. The runner starts a
 * fresh JVM per repetition (a JMH fork); records arrive in run order, so warmup runs come first. Inside the
 * JVM the workload runs W + M times ({@code --iterations}, default 0:1: once, cold): the record's
 * {@code wallMs} is the median of the M measured iterations — the fork's one value — and with more than one
 * iteration the record also carries every iteration's time in order and the first's as {@code coldStartMs}.
 * With {@code --turns DIR} each iteration waits for its turn from a coordinator ({@link Turns}: a baseline's and a
 * candidate's fork in lockstep).
 * Exit codes: 0 ok, 1 the workload failed, 2 usage.
 */
public final class Main {

    static final int SCHEMA_VERSION = 1;

    private Main() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Invocation invocation;
        try {
            invocation = Invocation.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("harness: " + e.getMessage());
            err.println("usage: java -jar harness.jar <workload> --variant V [--param k=v]... [--iterations W:M]"
                    + " [--out FILE] [--turns DIR]");
            err.println("workloads: "
                    + String.join(
                            ", ", Catalogue.all().stream().map(Workload::id).toList()));
            return 2;
        }
        try {
            Map<String, Object> record = measure(invocation);
            String line = JSON.std.asString(record);
            if (invocation.out().isPresent()) {
                RecordFile.append(invocation.out().get(), line);
            } else {
                out.println(line);
            }
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("harness: interrupted");
            return 1;
        } catch (IOException | RuntimeException e) {
            err.println("harness: " + invocation.workload().id() + " failed: " + e);
            e.printStackTrace(err);
            return 1;
        }
    }

    /** Between iterations, outside timing: at most this long for the last one's platform threads to end. */
    static final long SETTLE_MS = 2_000;

    static Map<String, Object> measure(Invocation inv) throws InterruptedException, IOException {
        try (Turns turns = inv.turns().isPresent() ? Turns.at(inv.turns().get()) : Turns.NONE) {
            return measure(inv, turns);
        }
    }

    private static Map<String, Object> measure(Invocation inv, Turns turns) throws InterruptedException, IOException {
        Workload workload = inv.workload();
        Cgroups cgroups = Cgroups.host();
        Iterations iterations = inv.iterations();
        List<Double> iterationMs = new ArrayList<>();
        // Warmup iterations first, outside every delta below: they are the fork's cold start and JIT warm-up.
        for (int i = 0; i < iterations.warmup(); i++) {
            turns.take();
            iterationMs.add(workload.run(inv.variant(), inv.params()).wallMs());
            PlatformThreads.awaitEnded(SETTLE_MS);
            turns.give();
        }
        // JFR is not free: its threads share the cell's CPUs while the workload runs (measured: sleep-bound,
        // 1000 virtual threads, 1 CPU: median 616 ms with the recording, 555 ms without). So pinned parks
        // are recorded (over the measured iterations) where they are the result (pinning), or where asked
        // (-Dloom.pinnedEvents=true).
        Optional<PinnedEvents> pinned = workload.recordsPinnedEvents() || Boolean.getBoolean("loom.pinnedEvents")
                ? Optional.of(PinnedEvents.start())
                : Optional.empty();
        Map<String, Long> throttleBefore = cgroups.cpuStat();
        long[] gcBefore = Environment.gcTotals();
        long cpuBefore = Environment.processCpuNanos();

        List<Outcome> measured = new ArrayList<>();
        try {
            for (int i = 0; i < iterations.measure(); i++) {
                turns.take();
                Outcome one = workload.run(inv.variant(), inv.params());
                measured.add(one);
                iterationMs.add(one.wallMs());
                PlatformThreads.awaitEnded(SETTLE_MS);
                turns.give();
            }
        } finally {
            pinned.ifPresent(PinnedEvents::close);
        }
        // the fork's tail (the deltas, a JMH micro case, the record) in a turn of its own, which lasts until it exits
        turns.tail();
        // The fork's value is the median measured iteration; its own numbers (throughput, latencies) go with it.
        Outcome outcome = medianIteration(measured);

        long cpuAfter = Environment.processCpuNanos();
        long[] gcAfter = Environment.gcTotals();
        Map<String, Long> throttleAfter = cgroups.cpuStat();
        // Read after the run: the pool keeps its carriers for 30 s, so poolSize = carriers the run used.
        Scheduler.Snapshot scheduler = Scheduler.read();
        return record(
                inv,
                iterationMs,
                outcome,
                turns,
                new Counters(throttleBefore, gcBefore, cpuBefore),
                new Counters(throttleAfter, gcAfter, cpuAfter),
                scheduler,
                pinned,
                cgroups);
    }

    /** The process's CPU time, GC totals and cgroup CPU statistics, read just before and just after the measured iterations. */
    private record Counters(Map<String, Long> throttle, long[] gc, long cpuNanos) {}

    /**
     * The fork's record, after the measured iterations (and in the tail's turn): the calls below run in this
     * order on purpose — the JMH micro case last, once every other number is fixed.
     */
    private static Map<String, Object> record(
            Invocation inv,
            List<Double> iterationMs,
            Outcome outcome,
            Turns turns,
            Counters before,
            Counters after,
            Scheduler.Snapshot scheduler,
            Optional<PinnedEvents> pinned,
            Cgroups cgroups) {
        Workload workload = inv.workload();
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("schemaVersion", SCHEMA_VERSION);
        record.put("workload", workload.id());
        record.put("variant", inv.variant().name());
        record.put("params", inv.params().values());
        record.put("wallMs", outcome.wallMs());
        if (iterationMs.size() > 1) {
            // every iteration in run order (warmups first), so the runner can see the cold start and whether
            // the measured iterations still trend; CPU, GC and throttling below are of the measured ones
            record.put("iterations", Map.of("warmup", inv.iterations().warmup(), "wallMs", iterationMs));
            record.put("coldStartMs", iterationMs.get(0));
        }
        // in lockstep: where the turns began (the tail's turn among them)
        turns.summary().ifPresent(t -> record.put("turns", t));
        var lowerBound = workload.lowerBoundMs(inv.variant(), inv.params());
        if (lowerBound.isPresent()) {
            record.put("lowerBoundMs", lowerBound.getAsDouble());
            record.put("efficiency", lowerBound.getAsDouble() / outcome.wallMs());
        }
        record.put("metrics", metrics(inv, outcome, before, after, scheduler, pinned));
        outcome.ceiling().ifPresent(c -> record.put("ceiling", Map.of("threads", c.threads(), "reason", c.reason())));
        record.put("environment", Environment.capture(scheduler, cgroups));
        return record;
    }

    private static Map<String, Object> metrics(
            Invocation inv,
            Outcome outcome,
            Counters before,
            Counters after,
            Scheduler.Snapshot scheduler,
            Optional<PinnedEvents> pinned) {
        Workload workload = inv.workload();
        Map<String, Object> metrics = new LinkedHashMap<>(outcome.metrics());
        metrics.put("gcCount", after.gc()[0] - before.gc()[0]);
        metrics.put("gcMs", after.gc()[1] - before.gc()[1]);
        if (before.cpuNanos() >= 0 && after.cpuNanos() >= 0) {
            metrics.put("cpuMs", (after.cpuNanos() - before.cpuNanos()) / 1e6);
        }
        if (workload.usesVirtualThreads(inv.variant()) && scheduler.poolSize() >= 0) {
            metrics.put("carriers", scheduler.poolSize());
        }
        after.throttle().forEach((k, v) -> metrics.put(k, v - before.throttle().getOrDefault(k, 0L)));
        pinned.ifPresent(p -> metrics.putAll(p.finish()));
        // The whole JVM's high-water mark (start-up included), from the OS; absent where it has none.
        Environment.peakResidentBytes().ifPresent(b -> metrics.put("peakRssBytes", b));
        // The JMH micro case runs last: after every delta above was taken and the record's numbers fixed.
        metrics.putAll(workload.micro(inv.variant(), inv.params()));
        return metrics;
    }

    /** The lower median of the iterations by wall time (an odd count: the median itself). */
    static Outcome medianIteration(List<Outcome> measured) {
        List<Outcome> sorted = new ArrayList<>(measured);
        sorted.sort(java.util.Comparator.comparingDouble(Outcome::wallMs));
        return sorted.get((sorted.size() - 1) / 2);
    }

    /** How often the workload runs inside this JVM: {@code warmup} iterations discarded, then {@code measure}. */
    record Iterations(int warmup, int measure) {
        static final Iterations ONCE = new Iterations(0, 1);

        static Iterations parse(String text) {
            String[] parts = text.split(":", -1);
            try {
                if (parts.length == 2) {
                    Iterations it = new Iterations(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
                    if (it.warmup() >= 0 && it.measure() >= 1) {
                        return it;
                    }
                }
            } catch (NumberFormatException e) {
                // said below
            }
            throw new IllegalArgumentException(
                    "--iterations takes WARMUP:MEASURE, whole numbers, measure at least 1 (e.g. 2:5), got '" + text
                            + "'");
        }
    }

    record Invocation(
            Workload workload,
            Variant variant,
            Params params,
            Optional<Path> out,
            Iterations iterations,
            Optional<Path> turns) {

        static Invocation parse(String[] args) {
            if (args.length == 0) {
                throw new IllegalArgumentException("no workload given");
            }
            Workload workload = Catalogue.find(args[0])
                    .orElseThrow(() -> new IllegalArgumentException("unknown workload '" + args[0] + "'"));
            String variantName = null;
            Map<String, String> given = new LinkedHashMap<>();
            Path out = null;
            Iterations iterations = Iterations.ONCE;
            Path turns = null;
            for (int i = 1; i < args.length; i++) {
                String arg = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + arg + " needs a value");
                }
                String value = args[++i];
                switch (arg) {
                    case "--variant" -> variantName = value;
                    case "--out" -> out = Path.of(value);
                    case "--iterations" -> iterations = Iterations.parse(value);
                    case "--turns" -> turns = Path.of(value);
                    case "--param" -> {
                        int eq = value.indexOf('=');
                        if (eq <= 0) {
                            throw new IllegalArgumentException("--param takes name=value, got '" + value + "'");
                        }
                        given.put(value.substring(0, eq), value.substring(eq + 1));
                    }
                    default -> throw new IllegalArgumentException("unknown option " + arg);
                }
            }
            if (variantName == null) {
                throw new IllegalArgumentException("--variant is required");
            }
            if (turns != null
                    && !(java.nio.file.Files.exists(turns.resolve("go"))
                            && java.nio.file.Files.exists(turns.resolve("done")))) {
                throw new IllegalArgumentException("--turns " + turns
                        + " has no named pipes go and done: its coordinator makes them before it starts the fork");
            }
            Variant variant = Variant.parse(variantName);
            if (!workload.accepts(variant)) {
                throw new IllegalArgumentException("workload " + workload.id() + " has no variant '" + variantName
                        + "' (accepts " + String.join(", ", workload.variants()) + ")");
            }
            return new Invocation(
                    workload,
                    variant,
                    Params.of(workload.defaults(), given),
                    Optional.ofNullable(out),
                    iterations,
                    Optional.ofNullable(turns));
        }
    }
}
