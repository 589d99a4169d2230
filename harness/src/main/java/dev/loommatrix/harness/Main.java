package dev.loommatrix.harness;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.loommatrix.harness.env.Cgroups;
import dev.loommatrix.harness.env.Environment;
import dev.loommatrix.harness.env.PinnedEvents;
import dev.loommatrix.harness.env.Scheduler;
import dev.loommatrix.harness.measure.RecordFile;
import dev.loommatrix.harness.workload.Catalogue;
import dev.loommatrix.harness.workload.Outcome;
import dev.loommatrix.harness.workload.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code java -jar harness.jar <workload> --variant V [--param k=v]... [--out FILE]}
 *
 * <p>Runs one workload once and appends one JSON record (one line) to FILE, or prints it. The runner
 * starts a fresh JVM per repetition; records arrive in run order, so warmup runs come first.
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
            err.println("usage: java -jar harness.jar <workload> --variant V [--param k=v]... [--out FILE]");
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

    static Map<String, Object> measure(Invocation inv) throws InterruptedException {
        Workload workload = inv.workload();
        // JFR is not free: its threads share the cell's CPUs while the workload runs (measured: sleep-bound,
        // 1000 virtual threads, 1 CPU: median 616 ms with the recording, 555 ms without). So pinned parks
        // are recorded where they are the result (pinning), or where asked (-Dloom.pinnedEvents=true).
        Optional<PinnedEvents> pinned = workload.recordsPinnedEvents() || Boolean.getBoolean("loom.pinnedEvents")
                ? Optional.of(PinnedEvents.start())
                : Optional.empty();
        Cgroups cgroups = Cgroups.host();
        Map<String, Long> throttleBefore = cgroups.cpuStat();
        long[] gcBefore = Environment.gcTotals();
        long cpuBefore = Environment.processCpuNanos();

        Outcome outcome;
        try {
            outcome = workload.run(inv.variant(), inv.params());
        } finally {
            pinned.ifPresent(PinnedEvents::close);
        }

        long cpuAfter = Environment.processCpuNanos();
        long[] gcAfter = Environment.gcTotals();
        Map<String, Long> throttleAfter = cgroups.cpuStat();
        // Read after the run: the pool keeps its carriers for 30 s, so poolSize = carriers the run used.
        Scheduler.Snapshot scheduler = Scheduler.read();

        Map<String, Object> record = new LinkedHashMap<>();
        record.put("schemaVersion", SCHEMA_VERSION);
        record.put("workload", workload.id());
        record.put("variant", inv.variant().name());
        record.put("params", inv.params().values());
        record.put("wallMs", outcome.wallMs());
        var lowerBound = workload.lowerBoundMs(inv.variant(), inv.params());
        if (lowerBound.isPresent()) {
            record.put("lowerBoundMs", lowerBound.getAsDouble());
            record.put("efficiency", lowerBound.getAsDouble() / outcome.wallMs());
        }
        Map<String, Object> metrics = new LinkedHashMap<>(outcome.metrics());
        metrics.put("gcCount", gcAfter[0] - gcBefore[0]);
        metrics.put("gcMs", gcAfter[1] - gcBefore[1]);
        if (cpuBefore >= 0 && cpuAfter >= 0) {
            metrics.put("cpuMs", (cpuAfter - cpuBefore) / 1e6);
        }
        if (workload.usesVirtualThreads(inv.variant()) && scheduler.poolSize() >= 0) {
            metrics.put("carriers", scheduler.poolSize());
        }
        throttleAfter.forEach((k, v) -> metrics.put(k, v - throttleBefore.getOrDefault(k, 0L)));
        pinned.ifPresent(p -> metrics.putAll(p.finish()));
        // The whole JVM's high-water mark (start-up included), from the OS; absent where it has none.
        Environment.peakResidentBytes().ifPresent(b -> metrics.put("peakRssBytes", b));
        // The JMH micro case runs last: after every delta above was taken and the record's numbers fixed.
        metrics.putAll(workload.micro(inv.variant(), inv.params()));
        record.put("metrics", metrics);
        outcome.ceiling().ifPresent(c -> record.put("ceiling", Map.of("threads", c.threads(), "reason", c.reason())));
        record.put("environment", Environment.capture(scheduler, cgroups));
        return record;
    }

    record Invocation(Workload workload, Variant variant, Params params, Optional<Path> out) {

        static Invocation parse(String[] args) {
            if (args.length == 0) {
                throw new IllegalArgumentException("no workload given");
            }
            Workload workload = Catalogue.find(args[0])
                    .orElseThrow(() -> new IllegalArgumentException("unknown workload '" + args[0] + "'"));
            String variantName = null;
            Map<String, String> given = new LinkedHashMap<>();
            Path out = null;
            for (int i = 1; i < args.length; i++) {
                String arg = args[i];
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException("option " + arg + " needs a value");
                }
                String value = args[++i];
                switch (arg) {
                    case "--variant" -> variantName = value;
                    case "--out" -> out = Path.of(value);
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
            Variant variant = Variant.parse(variantName);
            if (!workload.accepts(variant)) {
                throw new IllegalArgumentException("workload " + workload.id() + " has no variant '" + variantName
                        + "' (accepts " + String.join(", ", workload.variants()) + ")");
            }
            return new Invocation(workload, variant, Params.of(workload.defaults(), given), Optional.ofNullable(out));
        }
    }
}
