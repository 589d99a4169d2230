package dev.loommatrix.harness.agent;

import com.fasterxml.jackson.jr.ob.JSON;
import dev.loommatrix.harness.env.Cgroups;
import dev.loommatrix.harness.env.Environment;
import dev.loommatrix.harness.env.Scheduler;
import dev.loommatrix.harness.measure.RecordFile;
import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Attestation for any JVM — a user's JMH benchmark or program as much as the built-in workloads. Loaded
 * with {@code -javaagent:harness.jar=FILE}, it appends one JSON line to FILE when the JVM exits: the same
 * environment block the harness records (processors, the virtual-thread scheduler as it is, cgroup limits,
 * CPU affinity, VM, GC, JVM arguments), and what the JVM used (carriers, GC, CPU, peak RSS; with
 * {@code -Dloom.pinnedEvents=true}, a JFR recording of its pinned parks, see {@link PinnedParks}). JMH starts its
 * forks with the host JVM's arguments, so every fork carries the agent and appends its own line.
 *
 * <p>With {@code -Dloom.collect=PATH} the record also carries what the JVM left at PATH (JMH's
 * {@code -rff} result file, a program's Bencher Metric Format file), parsed, under {@code collected}, and
 * the file is removed: each JVM run's numbers then sit on the same line as the proof of its settings, in
 * run order, with no per-run file names for the driver to invent.
 *
 * <p>With {@code -Dloom.watchedProperties=a,b} (a variant's own system properties) the record says, per property,
 * whether anything in the JVM read it ({@link PropertyReads}): a variant whose switch nothing reads changes nothing.
 */
public final class Agent {

    /** The record format, shared with the harness's own records. */
    public static final int SCHEMA_VERSION = 1;

    /** The agent's own thread, which writes the record at exit: what it reads is not the code under test's. */
    static final String THREAD_NAME = "loom-matrix-agent";

    private Agent() {}

    public static void premain(String file, Instrumentation instrumentation) {
        // The JDK 21–23 scheduler is read from java.lang.VirtualThread: open it to this agent, as the
        // harness's own command line does with --add-opens, without touching the user's command line.
        Module java = Object.class.getModule();
        if (!java.isOpen("java.lang", Agent.class.getModule())) {
            instrumentation.redefineModule(
                    java, Set.of(), Map.of(), Map.of("java.lang", Set.of(Agent.class.getModule())), Set.of(), Map.of());
        }
        Path out = Path.of(file == null || file.isBlank() ? "loom-agent.jsonl" : file);
        // first, so that every read of a variant's property from here on is seen
        Optional<PropertyReads> reads = PropertyReads.install();
        long[] gcBefore = Environment.gcTotals();
        // Pinned parks only when asked, as for the built-in workloads: JFR costs CPU while it records.
        Map<String, Object> pinned =
                Boolean.getBoolean("loom.pinnedEvents") ? PinnedParks.start(out.toAbsolutePath()) : Map.of();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> write(out, gcBefore, pinned, reads), THREAD_NAME));
    }

    public static void agentmain(String file, Instrumentation instrumentation) {
        premain(file, instrumentation);
    }

    private static void write(Path out, long[] gcBefore, Map<String, Object> pinned, Optional<PropertyReads> reads) {
        try {
            Map<String, Object> record = record(gcBefore);
            record.putAll(pinned);
            reads.ifPresent(r -> record.put("propertyReads", r.record()));
            RecordFile.append(out, JSON.std.asString(record));
        } catch (IOException | RuntimeException e) {
            // never fail the user's JVM at exit; the runner reports a missing attestation
            System.err.println("loom-matrix agent: could not write " + out + ": " + e);
        }
    }

    /** This JVM as it is now: the environment it ran in and what it used. */
    public static Map<String, Object> record(long[] gcBefore) {
        Scheduler.Snapshot scheduler = Scheduler.read();
        Cgroups cgroups = Cgroups.host();
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("schemaVersion", SCHEMA_VERSION);
        record.put("kind", "agent");
        record.put("pid", ProcessHandle.current().pid());
        record.put("variant", System.getProperty("loom.variant", ""));
        record.put("command", System.getProperty("sun.java.command", ""));
        Map<String, Object> used = new LinkedHashMap<>();
        used.put("uptimeMs", ManagementFactory.getRuntimeMXBean().getUptime());
        long[] gc = Environment.gcTotals();
        used.put("gcCount", gc[0] - gcBefore[0]);
        used.put("gcMs", gc[1] - gcBefore[1]);
        long cpu = Environment.processCpuNanos();
        if (cpu >= 0) {
            used.put("cpuMs", cpu / 1e6);
        }
        if (scheduler.poolSize() >= 0) {
            used.put("carriers", scheduler.poolSize()); // the pool keeps its carriers 30 s: those the JVM used
        }
        Environment.peakResidentBytes().ifPresent(b -> used.put("peakRssBytes", b));
        record.put("metrics", used);
        record.put("environment", Environment.capture(scheduler, cgroups));
        collect(record);
        return record;
    }

    /** The JVM's own result file, if it was asked for and left one (see the class comment). */
    private static void collect(Map<String, Object> record) {
        String path = System.getProperty("loom.collect", "");
        if (path.isBlank()) {
            return;
        }
        Path file = Path.of(path);
        if (!java.nio.file.Files.isRegularFile(file)) {
            return; // a JMH fork exits before its host writes the file; a program may report nothing
        }
        try {
            String text = java.nio.file.Files.readString(file);
            try {
                record.put("collected", JSON.std.anyFrom(text));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                // where and what, in the file's terms (issue #32: not the parser's text about its own settings)
                var at = e.getLocation();
                record.put(
                        "collectedError",
                        file + " is not JSON"
                                + (at != null && at.getLineNr() > 0
                                        ? " at line " + at.getLineNr() + ", column " + at.getColumnNr()
                                        : "")
                                + ": " + plain(e.getOriginalMessage()));
            } catch (IOException e) {
                record.put("collectedError", file + " is not JSON: " + e.getMessage());
            }
            java.nio.file.Files.delete(file);
        } catch (IOException e) {
            record.put("collectedError", "could not read " + file + ": " + e.getMessage());
        }
    }

    /** A parser's message without its character codes: "Unexpected character ('n'): was expecting double-quote…". */
    static String plain(String message) {
        String m = String.valueOf(message).replaceAll(" \\(code \\d+\\)", "");
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
