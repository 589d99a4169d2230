package dev.loommatrix.core.matrix;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * Reads matrix.yaml (schema 1). The chosen profile is merged onto the node tree first — maps merge
 * key by key, lists and scalars replace, {@code workloads} is keyed by id — so that every later
 * problem still points at the line that caused it, in the profile or in the file.
 */
public final class MatrixParser {

    static final List<String> TOP_KEYS = List.of(
            "schema",
            "id",
            "jdks",
            "os",
            "cpus",
            "cpuset",
            "scheduler",
            "workloads",
            "repetitions",
            "warmup",
            "iterations",
            "timeout",
            "memory",
            "pids",
            "exclude",
            "include",
            "profiling",
            "profiles");

    /** The axes of the cross product, in the contract's order. */
    public static final List<String> AXES = AxisEntry.AXES;

    private MatrixParser() {}

    public static Matrix parse(Path file, Optional<String> profile) throws MatrixException, IOException {
        return parse(file.toString(), readUtf8(file), profile, file);
    }

    /**
     * The base matrix, and every profile checked too: a typo inside a profile is found by {@code validate},
     * not first by whoever runs that profile. Problems of all of them come back together, each once.
     */
    public static Matrix parseWithEveryProfile(Path file) throws MatrixException, IOException {
        String text = readUtf8(file);
        List<Problem> problems = new ArrayList<>();
        Matrix base = null;
        try {
            base = parse(file.toString(), text, Optional.empty(), file);
        } catch (MatrixException e) {
            problems.addAll(e.problems());
        }
        for (String name : profileNames(file.toString(), text)) {
            try {
                parse(file.toString(), text, Optional.of(name), file);
            } catch (MatrixException e) {
                for (Problem p : e.problems()) {
                    boolean known = problems.stream()
                            .anyMatch(q -> q.line() == p.line()
                                    && q.column() == p.column()
                                    && q.message().equals(p.message()));
                    if (!known) {
                        String where = "found with --profile " + name;
                        problems.add(new Problem(
                                p.file(),
                                p.line(),
                                p.column(),
                                p.message(),
                                Optional.of(p.hint()
                                        .map(h -> h + " (" + where + ")")
                                        .orElse(where))));
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new MatrixException(problems);
        }
        return base;
    }

    /** The names under {@code profiles:}, or none when the file has no such mapping. */
    static List<String> profileNames(String label, String text) {
        try {
            return new Compose(LoadSettings.builder().setLabel(label).build())
                            .composeString(text)
                            .filter(root -> root instanceof org.snakeyaml.engine.v2.nodes.MappingNode)
                            .stream()
                            .flatMap(root -> ((org.snakeyaml.engine.v2.nodes.MappingNode) root).getValue().stream())
                            .filter(t -> t.getKeyNode() instanceof ScalarNode k
                                    && k.getValue().equals("profiles"))
                            .filter(t -> t.getValueNode() instanceof org.snakeyaml.engine.v2.nodes.MappingNode)
                            .flatMap(t ->
                                    ((org.snakeyaml.engine.v2.nodes.MappingNode) t.getValueNode()).getValue().stream())
                            .filter(t -> t.getKeyNode() instanceof ScalarNode)
                            .map(t -> ((ScalarNode) t.getKeyNode()).getValue())
                            .toList();
        } catch (YamlEngineException e) {
            return List.of(); // the base parse reports it
        }
    }

    /** The file as UTF-8; another encoding is a problem at the first byte that is not UTF-8. */
    static String readUtf8(Path file) throws IOException, MatrixException {
        byte[] bytes = Files.readAllBytes(file);
        try {
            return java.nio.charset.StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes))
                    .toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            int bad = firstNonUtf8(bytes);
            int line = 1;
            int lineStart = 0;
            for (int i = 0; i < bad; i++) {
                if (bytes[i] == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            // the column counts characters: decode the line's good prefix
            int column =
                    new String(bytes, lineStart, bad - lineStart, java.nio.charset.StandardCharsets.UTF_8).length() + 1;
            throw new MatrixException(List.of(new Problem(
                    file.toString(),
                    line,
                    column,
                    String.format(
                            "the file is not UTF-8: byte 0x%02X at offset %d is not valid UTF-8 (Latin-1 or"
                                    + " Windows-1252, perhaps)",
                            bytes[bad] & 0xff, bad),
                    Optional.of("save matrix.yaml as UTF-8 (YAML files are UTF-8), e.g. iconv -f latin1 -t utf-8"))));
        }
    }

    /** The offset of the first byte that does not start or continue a valid UTF-8 sequence. */
    private static int firstNonUtf8(byte[] bytes) {
        var decoder = java.nio.charset.StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
        var in = java.nio.ByteBuffer.wrap(bytes);
        var out = java.nio.CharBuffer.allocate(bytes.length + 1);
        var result = decoder.decode(in, out, true);
        return result.isError() ? in.position() : bytes.length - 1;
    }

    public static Matrix parse(String label, String text, Optional<String> profile, Path file) throws MatrixException {
        YamlReader in = new YamlReader(label);
        Optional<Node> document;
        try {
            document = new Compose(LoadSettings.builder().setLabel(label).build()).composeString(text);
        } catch (MarkedYamlEngineException e) {
            var mark = e.getProblemMark().or(e::getContextMark);
            if (mark.isPresent()) {
                in.error(
                        mark.get(),
                        "not valid YAML: " + e.getProblem(),
                        "check indentation and quoting near this position");
            } else {
                in.error((Node) null, "not valid YAML: " + e.getMessage());
            }
            throw new MatrixException(in.problems());
        } catch (YamlEngineException e) {
            in.error((Node) null, "not valid YAML: " + e.getMessage());
            throw new MatrixException(in.problems());
        }
        if (document.isEmpty()) {
            in.error((Node) null, "the file is empty", "start from the matrix.yaml in the loom-matrix repository");
            throw new MatrixException(in.problems());
        }
        Node root = document.get();
        Map<String, NodeTuple> top = in.mapping(root, "the matrix", TOP_KEYS).orElse(null);
        if (top == null) {
            throw new MatrixException(in.problems());
        }
        checkSchema(in, root, top);
        Set<String> baseJdkIds = jdkIds(top);
        if (profile.isPresent()) {
            top = Profiles.apply(in, root, top, profile.get());
        }
        Matrix matrix = Sections.build(in, root, top, profile, file, baseJdkIds);
        if (!in.problems().isEmpty()) {
            throw new MatrixException(in.problems());
        }
        return matrix;
    }

    private static void checkSchema(YamlReader in, Node root, Map<String, NodeTuple> top) {
        NodeTuple schema = top.get("schema");
        if (schema == null) {
            in.error(root, "missing key 'schema'", "add 'schema: 1' as the first line");
            return;
        }
        in.integer(schema.getValueNode(), "schema", 0, Integer.MAX_VALUE).ifPresent(v -> {
            if (v != Matrix.SCHEMA) {
                in.error(
                        schema.getValueNode(),
                        "unsupported schema " + v + "; this loom-matrix reads schema " + Matrix.SCHEMA,
                        "upgrade loom-matrix, or write the file for schema " + Matrix.SCHEMA);
            }
        });
    }

    private static Set<String> jdkIds(Map<String, NodeTuple> top) {
        Set<String> ids = new HashSet<>();
        if (top.get("jdks") != null && top.get("jdks").getValueNode() instanceof SequenceNode seq) {
            for (Node item : seq.getValue()) {
                if (item instanceof MappingNode m) {
                    for (NodeTuple t : m.getValue()) {
                        if (t.getKeyNode() instanceof ScalarNode k
                                && k.getValue().equals("id")
                                && t.getValueNode() instanceof ScalarNode v) {
                            ids.add(v.getValue());
                        }
                    }
                }
            }
        }
        return ids;
    }
}
