package dev.loommatrix.runner.records;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.result.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads what a user workload's variant left in the raw directory: the agent's lines ({@code <variant>.records.jsonl},
 * one per JVM, a JMH fork's before its host's) grouped into fresh JVM runs with each run's own collected result, a
 * service's load runs, and the driver's process times. Warmup runs are dropped whole, host and forks.
 */
public final class AgentLines {

    private AgentLines() {}

    public static VariantRuns read(Path rawDir, String variant, int warmup) throws IOException {
        List<JvmRun> runs = new ArrayList<>();
        Optional<String> problem = Optional.empty();
        List<AgentRecord> forks = new ArrayList<>();
        Map<Integer, LoadLine> loads = loads(rawDir, variant);
        int seen = 0;
        int ofThisRun = 0;
        for (RecordsFile.Line line : RecordsFile.lines(rawDir, variant)) {
            JsonNode tree = Json.MAPPER.readTree(line.json());
            if (tree.path("schemaVersion").asInt(-1) != RawResults.HarnessRecord.SCHEMA_VERSION
                    || !tree.path("kind").asText().equals("agent")) {
                problem = Optional.of(line.where() + ": not a record of this runner's attestation agent (schema "
                        + tree.path("schemaVersion").asText("none") + ", kind "
                        + tree.path("kind").asText("none") + ")");
                break;
            }
            AgentRecord record = Json.MAPPER.treeToValue(tree, AgentRecord.class);
            if (record.pinnedRecording().isPresent()) {
                record = record.withMetrics(
                        pinnedParks(rawDir.resolve(record.pinnedRecording().get())));
            }
            if (record.isFork()) {
                forks.add(record);
                continue;
            }
            // a capacity search's repetition runs a server for the search and another for its validation
            if (++ofThisRun < serversOf(loads.get(seen))) {
                forks.add(record);
                continue;
            }
            ofThisRun = 0;
            if (seen++ >= warmup) {
                runs.add(new JvmRun(record, forks));
            }
            forks = new ArrayList<>();
        }
        return new VariantRuns(
                variant,
                runs,
                RawResults.processTimes(rawDir, CellFiles.slug(variant)),
                problem,
                measured(loads, warmup));
    }

    /** How many server JVMs a repetition started: one, or a capacity search's two. */
    private static int serversOf(LoadLine load) {
        return load == null ? 1 : load.capacity().map(CapacityLine::servers).orElse(1);
    }

    /** The measured repetitions' load runs, numbered from the first measured one. */
    private static Map<Integer, LoadLine> measured(Map<Integer, LoadLine> loads, int warmup) {
        Map<Integer, LoadLine> out = new LinkedHashMap<>();
        loads.forEach((run, load) -> {
            if (run >= warmup) {
                out.put(run - warmup, load);
            }
        });
        return out;
    }

    /** A service's load runs (issue #28), by the repetition they belong to, warmups included. */
    private static Map<Integer, LoadLine> loads(Path rawDir, String variant) throws IOException {
        Map<Integer, LoadLine> loads = new LinkedHashMap<>();
        Path loadFile = rawDir.resolve(LoadLine.file(variant));
        if (Files.isRegularFile(loadFile)) {
            for (String line : Files.readAllLines(loadFile)) {
                if (!line.isBlank()) {
                    LoadLine load = Json.MAPPER.readValue(line, LoadLine.class);
                    loads.put(load.run(), load);
                }
            }
        }
        return loads;
    }

    /**
     * {@code pinnedEvents} and {@code pinnedMs} from the JFR recording the agent asked for
     * ({@code -Dloom.pinnedEvents=true}), which JFR wrote when the JVM exited.
     */
    static Map<String, Object> pinnedParks(Path recording) {
        if (!Files.isRegularFile(recording)) {
            return Map.of();
        }
        long count = 0;
        long nanos = 0;
        try (var file = new jdk.jfr.consumer.RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                var event = file.readEvent();
                if (event.getEventType().getName().equals("jdk.VirtualThreadPinned")) {
                    count++;
                    nanos += event.getDuration().toNanos();
                }
            }
        } catch (IOException e) {
            return Map.of();
        }
        return Map.of("pinnedEvents", count, "pinnedMs", nanos / 1e6);
    }

    /** Every JVM of the variants' runs, warmups excluded, forks included: each is attested. */
    public static List<HarnessEnvironment> environments(List<VariantRuns> variants) {
        List<HarnessEnvironment> out = new ArrayList<>();
        for (VariantRuns v : variants) {
            for (JvmRun run : v.runs()) {
                run.all().forEach(r -> r.environment().ifPresent(out::add));
            }
        }
        return out;
    }
}
