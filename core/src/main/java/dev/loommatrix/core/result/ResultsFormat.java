package dev.loommatrix.core.result;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.loommatrix.core.matrix.Workloads;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;

/**
 * Reading results files: each is checked against {@code schemas/results.schema.json} (the one published
 * definition of the format) before it is bound to the records, so a file that lacks what a reader needs
 * is refused with its name and the JSON path — never a binding error from deep inside. Files of an
 * older minor version of schema 1 are brought up to date first (fields added since are filled in the
 * way their writer would have filled them).
 */
public final class ResultsFormat {

    /** Which top-level shape a file must have: a definition of the schema's {@code $defs}. */
    public enum Kind {
        CELL("cell"),
        RUN("run"),
        COMPARE("compare");

        final String def;

        Kind(String def) {
            this.def = def;
        }
    }

    /** A results file that is not what the format says; the message names the file and the path. */
    public static final class Invalid extends IOException {
        public Invalid(String message) {
            super(message);
        }
    }

    private static final java.util.Map<Kind, JsonSchema> SCHEMAS = new java.util.EnumMap<>(Kind.class);

    private ResultsFormat() {}

    /** The schema's text (the build copies {@code schemas/results.schema.json} beside this class). */
    public static JsonNode schemaTree() {
        try (InputStream in = ResultsFormat.class.getResourceAsStream("results.schema.json")) {
            if (in == null) {
                throw new IllegalStateException("results.schema.json is missing from the build");
            }
            return Json.MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static synchronized JsonSchema schema(Kind kind) {
        return SCHEMAS.computeIfAbsent(kind, k -> {
            ObjectNode root = (ObjectNode) schemaTree();
            root.remove("oneOf");
            root.put("$ref", "#/$defs/" + k.def);
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                    .getSchema(root);
        });
    }

    /** The problems of a document against one kind, as {@code $.path: what is wrong}, sorted. */
    public static List<String> problems(Kind kind, JsonNode document) {
        return schema(kind).validate(document).stream()
                .sorted(Comparator.comparing(
                                (ValidationMessage m) -> m.getInstanceLocation().toString())
                        .thenComparing(ValidationMessage::getMessage))
                .map(m -> {
                    String where = m.getInstanceLocation().toString();
                    String text = m.getMessage();
                    // networknt prefixes the message with the location; say it once
                    return text.startsWith(where) ? text : where + ": " + text;
                })
                .distinct()
                .toList();
    }

    /** Checks a document read from {@code file}; the first problems, each with the file's name. */
    public static void check(Path file, Kind kind, JsonNode document) throws Invalid {
        int version = document.path("schemaVersion").asInt(-1);
        if (version != CellRecord.SCHEMA_VERSION) {
            throw new Invalid(file + ": $.schemaVersion: results schema " + (version < 0 ? "(none)" : version)
                    + "; this loom-matrix reads schema " + CellRecord.SCHEMA_VERSION
                    + (version > CellRecord.SCHEMA_VERSION ? " — upgrade loom-matrix to read it" : ""));
        }
        List<String> problems = problems(kind, document);
        if (!problems.isEmpty()) {
            throw new Invalid(problems.stream()
                            .limit(5)
                            .map(p -> file + ": " + p)
                            .reduce((a, b) -> a + "\n" + b)
                            .orElseThrow()
                    + (problems.size() > 5 ? "\n… and " + (problems.size() - 5) + " more" : "")
                    + "\nhint: the file is not a loom-matrix " + kind.def + " file of schema "
                    + CellRecord.SCHEMA_VERSION + ", or it was edited or cut short");
        }
    }

    /**
     * Brings a cell document of an older minor version up to date, in place: a measurement without the
     * metric it is judged by gets the catalogue's for its workload (as the writer would have recorded).
     */
    public static JsonNode upgradeCell(JsonNode cell) {
        String workload = cell.path("coordinates").path("workload").asText("");
        for (JsonNode m : cell.path("measurements")) {
            if (m instanceof ObjectNode measurement && !measurement.has("metric")) {
                measurement.set("metric", Json.MAPPER.valueToTree(Workloads.judgedBy(workload)));
            }
        }
        return cell;
    }

    /**
     * A cell file: checked, brought up to date, bound. A file without {@code speedups} (its writer left the
     * derived block out) gets them as the runner computes them when a cell ends, so readers never see a
     * cell of several variants without its speedups; one written before contrasts existed gets its headline
     * contrast (and a built-in workload's catalogue baseline) the same way.
     */
    public static CellRecord readCell(Path file, JsonNode tree) throws IOException {
        check(file, Kind.CELL, tree);
        upgradeCell(tree);
        CellRecord cell = Json.MAPPER.treeToValue(tree, CellRecord.class);
        if (!tree.has("speedups") || !tree.has("contrast")) {
            cell = cell.derived(!tree.has("speedups"));
        }
        return cell;
    }

    public static RunManifest readRun(Path file, JsonNode tree) throws IOException {
        check(file, Kind.RUN, tree);
        return Json.MAPPER.treeToValue(tree, RunManifest.class);
    }
}
