package dev.loommatrix.core.matrix;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
            "jdks",
            "os",
            "cpus",
            "cpuset",
            "scheduler",
            "workloads",
            "repetitions",
            "warmup",
            "timeout",
            "memory",
            "pids",
            "exclude",
            "include",
            "profiles");
    static final List<String> PROFILE_KEYS = TOP_KEYS.stream()
            .filter(k -> !k.equals("schema") && !k.equals("profiles"))
            .toList();
    static final List<String> JDK_KEYS =
            List.of("id", "vm", "version", "image", "setup-java", "jvmArgs", "env", "javaHome", "javaToolOptions");
    static final List<String> WORKLOAD_KEYS = List.of("id", "variants", "params", "enabled");
    static final List<String> PROFILE_WORKLOAD_KEYS = List.of("variants", "params", "enabled");
    static final List<String> SCHEDULER_KEYS = List.of("parallelism", "maxPoolSize", "minRunnable");
    public static final List<String> AXES =
            List.of("jdk", "os", "cpus", "cpuset", "parallelism", "maxPoolSize", "minRunnable", "workload");
    /** A Linux CPU list ("0", "0-1", "0,2-3") or "all" (no cpuset: the quota alone limits). */
    static final Pattern CPU_LIST = Pattern.compile("all|[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*");

    static final List<String> INCLUDE_EXTRA_KEYS = List.of("jvmArgs", "env");
    static final List<String> OS = List.of("linux", "windows");
    static final List<String> VMS = List.of("hotspot", "openj9");
    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9_-]*");
    private static final Pattern DURATION = Pattern.compile("([0-9]+)(ms|s|m|h)");
    private static final Pattern SIZE = Pattern.compile("([0-9]+)([kmg]?)", Pattern.CASE_INSENSITIVE);

    private MatrixParser() {}

    /** The largest timeout a cell may have: a week (GitHub's self-hosted jobs end after 5 days). */
    static final Duration MAX_TIMEOUT = Duration.ofDays(7);
    /** The largest memory limit: 1 TiB — beyond any runner, and a typo when written. */
    static final long MAX_MEMORY = 1L << 40;
    /** The largest fixed pool: more platform threads than any OS limit lets one JVM start. */
    public static final long MAX_POOL = 1_000_000;
    /** CPU numbers beyond this are not CPUs of any machine (Linux's NR_CPUS is at most 8192). */
    static final int MAX_CPU = 8191;

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
            top = applyProfile(in, root, top, profile.get());
        }
        Matrix matrix = build(in, root, top, profile, file, baseJdkIds);
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

    // ---- profiles -------------------------------------------------------------------------------

    private static Map<String, NodeTuple> applyProfile(
            YamlReader in, Node root, Map<String, NodeTuple> top, String name) {
        NodeTuple profilesTuple = top.get("profiles");
        Map<String, NodeTuple> profiles = profilesTuple == null
                ? Map.of()
                : in.mapping(profilesTuple.getValueNode(), "profiles", List.of())
                        .orElse(Map.of());
        NodeTuple chosen = profiles.get(name);
        if (chosen == null) {
            in.error(
                    profilesTuple == null ? root : profilesTuple.getKeyNode(),
                    "unknown profile '" + name + "'"
                            + YamlReader.didYouMean(name, profiles.keySet())
                                    .map(s -> " (did you mean '" + s + "'?)")
                                    .orElse(""),
                    profiles.isEmpty()
                            ? "this matrix defines no profiles"
                            : "profiles defined here: " + String.join(", ", profiles.keySet()));
            return top;
        }
        Map<String, NodeTuple> overrides = in.mapping(chosen.getValueNode(), "profile '" + name + "'", PROFILE_KEYS)
                .orElse(Map.of());
        Map<String, NodeTuple> merged = new LinkedHashMap<>(top);
        for (var entry : overrides.entrySet()) {
            String key = entry.getKey();
            NodeTuple override = entry.getValue();
            NodeTuple base = top.get(key);
            if (key.equals("workloads")) {
                merged.put(
                        key,
                        new NodeTuple(override.getKeyNode(), mergeWorkloads(in, base, override.getValueNode(), name)));
            } else if (base != null) {
                merged.put(
                        key,
                        new NodeTuple(base.getKeyNode(), mergeNodes(base.getValueNode(), override.getValueNode())));
            } else {
                merged.put(key, override);
            }
        }
        return merged;
    }

    /** Maps merge key by key; anything else (lists, scalars) is replaced by the profile's value. */
    static Node mergeNodes(Node base, Node override) {
        if (base instanceof MappingNode baseMap && override instanceof MappingNode overMap) {
            Map<String, NodeTuple> tuples = new LinkedHashMap<>();
            for (NodeTuple t : baseMap.getValue()) {
                tuples.put(keyOf(t), t);
            }
            for (NodeTuple t : overMap.getValue()) {
                NodeTuple existing = tuples.get(keyOf(t));
                tuples.put(
                        keyOf(t),
                        existing == null
                                ? t
                                : new NodeTuple(
                                        existing.getKeyNode(), mergeNodes(existing.getValueNode(), t.getValueNode())));
            }
            return new MappingNode(
                    baseMap.getTag(),
                    true,
                    new ArrayList<>(tuples.values()),
                    baseMap.getFlowStyle(),
                    baseMap.getStartMark(),
                    baseMap.getEndMark());
        }
        return override;
    }

    /** A profile's {@code workloads} is a map from workload id to fields merged into that workload. */
    private static Node mergeWorkloads(YamlReader in, NodeTuple base, Node override, String profile) {
        if (base == null || !(base.getValueNode() instanceof SequenceNode baseSeq)) {
            in.error(override, "profile '" + profile + "' changes workloads, but the file has no workloads list");
            return override;
        }
        Map<String, NodeTuple> byId = in.mapping(override, "profile '" + profile + "'.workloads", List.of())
                .orElse(Map.of());
        Map<String, Node> items = new LinkedHashMap<>();
        for (Node item : baseSeq.getValue()) {
            items.put(idOf(item).orElse("#" + items.size()), item);
        }
        for (var entry : byId.entrySet()) {
            String id = entry.getKey();
            Node changes = entry.getValue().getValueNode();
            Node existing = items.get(id);
            if (existing == null) {
                in.error(
                        entry.getValue().getKeyNode(),
                        "profile '" + profile + "' refers to workload '" + id + "', which is not in workloads"
                                + YamlReader.didYouMean(id, items.keySet())
                                        .map(s -> " (did you mean '" + s + "'?)")
                                        .orElse(""),
                        "workloads in this file: " + String.join(", ", items.keySet()));
                continue;
            }
            Map<String, NodeTuple> fields = in.mapping(
                            changes, "profile '" + profile + "'.workloads." + id, PROFILE_WORKLOAD_KEYS)
                    .orElse(Map.of());
            NodeTuple enabled = fields.get("enabled");
            if (enabled != null && in.bool(enabled.getValueNode(), "enabled").orElse(true) == false) {
                items.remove(id);
                continue;
            }
            items.put(id, mergeNodes(existing, changes));
        }
        return new SequenceNode(
                baseSeq.getTag(),
                true,
                new ArrayList<>(items.values()),
                baseSeq.getFlowStyle(),
                baseSeq.getStartMark(),
                baseSeq.getEndMark());
    }

    private static String keyOf(NodeTuple tuple) {
        return tuple.getKeyNode() instanceof ScalarNode s
                ? s.getValue()
                : tuple.getKeyNode().toString();
    }

    private static Optional<String> idOf(Node item) {
        if (item instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                if (keyOf(t).equals("id") && t.getValueNode() instanceof ScalarNode v) {
                    return Optional.of(v.getValue());
                }
            }
        }
        return Optional.empty();
    }

    // ---- typed model ----------------------------------------------------------------------------

    private static Matrix build(
            YamlReader in,
            Node root,
            Map<String, NodeTuple> top,
            Optional<String> profile,
            Path file,
            Set<String> baseJdkIds) {
        List<JdkEntry> jdks = required(
                        in,
                        root,
                        top,
                        "jdks",
                        "list the JDKs to test, e.g. '- {id: temurin-21, vm: hotspot, version: 21, image: eclipse-temurin:21-jdk}'")
                .map(node -> jdks(in, node))
                .orElse(List.of());
        List<String> os = optional(top, "os")
                .flatMap(n -> in.nonEmptySequence(n, "os"))
                .map(items -> {
                    List<String> values = new ArrayList<>();
                    items.forEach(item -> in.oneOf(item, "os", OS).ifPresent(values::add));
                    return noDuplicates(in, items, values, "os");
                })
                .orElse(List.of("linux"));
        List<BigDecimal> cpus = optional(top, "cpus")
                .flatMap(n -> in.nonEmptySequence(n, "cpus"))
                .map(items -> {
                    List<BigDecimal> values = new ArrayList<>();
                    items.forEach(item -> in.positiveNumber(item, "cpus").ifPresent(values::add));
                    return noDuplicates(in, items, values, "cpus");
                })
                .orElse(List.of(BigDecimal.valueOf(2)));
        List<String> cpuset = optional(top, "cpuset")
                .flatMap(n -> in.nonEmptySequence(n, "cpuset"))
                .map(items -> {
                    List<String> values = new ArrayList<>();
                    items.forEach(item -> cpuList(in, item, "cpuset").ifPresent(values::add));
                    return noDuplicates(in, items, values, "cpuset");
                })
                .orElse(List.of("all"));
        Map<String, List<String>> scheduler = scheduler(in, top.get("scheduler"));
        List<WorkloadSpec> workloads = required(
                        in,
                        root,
                        top,
                        "workloads",
                        "list the workloads to run, e.g. '- {id: sleep-bound, variants: [virtual, \"pool:200\"]}'")
                .map(node -> workloads(in, node))
                .orElse(List.of());
        int repetitions = optional(top, "repetitions")
                .flatMap(n -> in.integer(n, "repetitions", 1, 10_000))
                .map(Long::intValue)
                .orElse(5);
        int warmup = optional(top, "warmup")
                .flatMap(n -> in.integer(n, "warmup", 0, 10_000))
                .map(Long::intValue)
                .orElse(1);
        Duration timeout =
                optional(top, "timeout").flatMap(n -> duration(in, n)).orElse(Duration.ofMinutes(10));
        long memory = optional(top, "memory").flatMap(n -> size(in, n)).orElse(2L << 30);
        long pids = optional(top, "pids")
                .flatMap(n -> in.integer(n, "pids", 16, Integer.MAX_VALUE))
                .orElse(20_000L);

        Set<String> knownJdks = new HashSet<>(baseJdkIds);
        jdks.forEach(j -> knownJdks.add(j.id()));
        List<Map<String, Object>> exclude = optional(top, "exclude")
                .flatMap(n -> in.sequence(n, "exclude"))
                .map(items -> entries(in, items, "exclude", false, knownJdks, jdks, workloads))
                .orElse(List.of());
        List<Map<String, Object>> include = optional(top, "include")
                .flatMap(n -> in.sequence(n, "include"))
                .map(items -> entries(in, items, "include", true, knownJdks, jdks, workloads))
                .orElse(List.of());
        return new Matrix(
                file,
                profile,
                jdks,
                os,
                cpus,
                cpuset,
                scheduler.get("parallelism"),
                scheduler.get("maxPoolSize"),
                scheduler.get("minRunnable"),
                workloads,
                repetitions,
                warmup,
                timeout,
                memory,
                pids,
                exclude,
                include);
    }

    private static Optional<Node> optional(Map<String, NodeTuple> top, String key) {
        return Optional.ofNullable(top.get(key)).map(NodeTuple::getValueNode);
    }

    private static Optional<Node> required(
            YamlReader in, Node root, Map<String, NodeTuple> top, String key, String hint) {
        if (!top.containsKey(key)) {
            in.error(root, "missing key '" + key + "'", hint);
        }
        return optional(top, key);
    }

    private static List<JdkEntry> jdks(YamlReader in, Node node) {
        List<JdkEntry> jdks = new ArrayList<>();
        Map<String, Node> seen = new LinkedHashMap<>();
        in.nonEmptySequence(node, "jdks").ifPresent(items -> {
            for (int i = 0; i < items.size(); i++) {
                String where = "jdks[" + i + "]";
                Node item = items.get(i);
                in.mapping(item, where, JDK_KEYS).ifPresent(fields -> {
                    Optional<String> id =
                            requiredField(in, item, fields, "id", where).flatMap(n -> id(in, n, where + ".id"));
                    Optional<String> vm =
                            requiredField(in, item, fields, "vm", where).flatMap(n -> in.oneOf(n, where + ".vm", VMS));
                    Optional<Long> version = requiredField(in, item, fields, "version", where)
                            .flatMap(n -> in.integer(n, where + ".version", 21, 99));
                    Optional<String> image = field(fields, "image").flatMap(n -> in.string(n, where + ".image"));
                    Map<String, String> setupJava = field(fields, "setup-java")
                            .flatMap(n -> in.stringMap(n, where + ".setup-java"))
                            .orElse(Map.of());
                    List<String> jvmArgs = field(fields, "jvmArgs")
                            .flatMap(n -> in.stringList(n, where + ".jvmArgs"))
                            .orElse(List.of());
                    Map<String, String> env = field(fields, "env")
                            .flatMap(n -> in.stringMap(n, where + ".env"))
                            .orElse(Map.of());
                    Optional<String> javaHome =
                            field(fields, "javaHome").flatMap(n -> in.string(n, where + ".javaHome"));
                    Optional<String> javaToolOptions =
                            field(fields, "javaToolOptions").flatMap(n -> in.string(n, where + ".javaToolOptions"));
                    if (env.containsKey("JAVA_TOOL_OPTIONS") && javaToolOptions.isPresent()) {
                        in.error(
                                fields.get("javaToolOptions").getValueNode(),
                                "JAVA_TOOL_OPTIONS is set twice, in env and in javaToolOptions",
                                "keep javaToolOptions and remove it from env");
                    }
                    if (id.isPresent() && seen.containsKey(id.get())) {
                        Node at = fields.get("id").getValueNode();
                        in.error(
                                at,
                                "duplicate jdk id '" + id.get() + "'",
                                "first defined at line "
                                        + (seen.get(id.get())
                                                .getStartMark()
                                                .map(m -> m.getLine() + 1)
                                                .orElse(0)) + "; ids must be unique");
                    } else if (id.isPresent() && vm.isPresent() && version.isPresent()) {
                        seen.put(id.get(), fields.get("id").getValueNode());
                        jdks.add(new JdkEntry(
                                id.get(),
                                JdkEntry.Vm.valueOf(vm.get().toUpperCase(Locale.ROOT)),
                                version.get().intValue(),
                                image,
                                setupJava,
                                jvmArgs,
                                env,
                                javaHome,
                                javaToolOptions));
                    }
                });
            }
        });
        return jdks;
    }

    private static List<WorkloadSpec> workloads(YamlReader in, Node node) {
        List<WorkloadSpec> workloads = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        in.sequence(node, "workloads").ifPresent(items -> {
            if (items.isEmpty()) {
                in.error(
                        node,
                        "workloads must not be empty",
                        "a matrix needs at least one workload; known: " + String.join(", ", Workloads.ids()));
            }
            for (int i = 0; i < items.size(); i++) {
                String where = "workloads[" + i + "]";
                Node item = items.get(i);
                in.mapping(item, where, WORKLOAD_KEYS).ifPresent(fields -> {
                    Optional<Workloads.Definition> definition = requiredField(in, item, fields, "id", where)
                            .flatMap(n -> in.string(n, where + ".id").flatMap(id -> {
                                Optional<Workloads.Definition> found = Workloads.find(id);
                                if (found.isEmpty()) {
                                    in.error(
                                            n,
                                            "unknown workload '" + id + "'"
                                                    + YamlReader.didYouMean(id, Workloads.ids())
                                                            .map(s -> " (did you mean '" + s + "'?)")
                                                            .orElse(""),
                                            "known workloads: " + String.join(", ", Workloads.ids()));
                                }
                                return found;
                            }));
                    if (definition.isEmpty()) {
                        return;
                    }
                    Workloads.Definition def = definition.get();
                    if (field(fields, "enabled")
                                    .flatMap(n -> in.bool(n, where + ".enabled"))
                                    .orElse(true)
                            == false) {
                        return;
                    }
                    if (!seen.add(def.id())) {
                        in.error(
                                fields.get("id").getValueNode(),
                                "duplicate workload id '" + def.id() + "'",
                                "list each workload once; put all its variants in one entry");
                        return;
                    }
                    List<String> variants = new ArrayList<>();
                    Optional<Node> variantsNode = requiredField(in, item, fields, "variants", where);
                    variantsNode
                            .flatMap(n -> in.nonEmptySequence(n, where + ".variants"))
                            .ifPresent(vs -> {
                                for (Node v : vs) {
                                    in.scalarText(v, where + ".variants").ifPresent(name -> {
                                        java.util.regex.Matcher pool = Workloads.POOL.matcher(name);
                                        if (def.accepts(name)
                                                && pool.matches()
                                                && !pool.group(1).equals("cpus")
                                                && (pool.group(1).length() > 7
                                                        || Long.parseLong(pool.group(1)) > MAX_POOL)) {
                                            in.error(
                                                    v,
                                                    "variant '" + name + "' asks for more than " + MAX_POOL
                                                            + " platform threads",
                                                    "no OS lets one JVM start that many (each needs a native stack);"
                                                            + " the seeds' largest pool is 1000");
                                        } else if (!def.accepts(name)) {
                                            in.error(
                                                    v,
                                                    "workload " + def.id() + " has no variant '" + name + "'"
                                                            + YamlReader.didYouMean(name, def.variants())
                                                                    .map(s -> " (did you mean '" + s + "'?)")
                                                                    .orElse(""),
                                                    "variants of " + def.id() + ": " + def.describeVariants()
                                                            + (name.startsWith("pool:")
                                                                    ? "; a pool size is a whole number ≥ 1 or 'cpus'"
                                                                    : ""));
                                        } else if (variants.contains(name)) {
                                            in.error(v, "variant '" + name + "' is listed twice in " + where);
                                        } else {
                                            variants.add(name);
                                        }
                                    });
                                }
                            });
                    Map<String, Long> params = new LinkedHashMap<>(def.defaults());
                    field(fields, "params")
                            .flatMap(n -> in.mapping(
                                    n,
                                    where + ".params",
                                    List.copyOf(new java.util.TreeSet<>(
                                            def.defaults().keySet()))))
                            .ifPresent(ps -> ps.forEach(
                                    (k, t) -> in.integer(t.getValueNode(), where + ".params." + k, 0, Long.MAX_VALUE)
                                            .ifPresent(v -> params.put(k, v))));
                    workloads.add(new WorkloadSpec(def.id(), variants, params));
                });
            }
        });
        return workloads;
    }

    private static Map<String, List<String>> scheduler(YamlReader in, NodeTuple tuple) {
        Map<String, List<String>> axes = new LinkedHashMap<>();
        SCHEDULER_KEYS.forEach(k -> axes.put(k, List.of("auto")));
        if (tuple == null) {
            return axes;
        }
        in.mapping(tuple.getValueNode(), "scheduler", SCHEDULER_KEYS)
                .ifPresent(
                        fields -> fields.forEach((key, t) -> in.nonEmptySequence(t.getValueNode(), "scheduler." + key)
                                .ifPresent(items -> {
                                    List<String> values = new ArrayList<>();
                                    items.forEach(item -> schedulerValue(in, item, "scheduler." + key)
                                            .ifPresent(values::add));
                                    axes.put(key, noDuplicates(in, items, values, "scheduler." + key));
                                })));
        return axes;
    }

    private static Optional<String> schedulerValue(YamlReader in, Node item, String where) {
        if (item instanceof ScalarNode s && s.getValue().equals("auto")) {
            return Optional.of("auto");
        }
        if (item instanceof ScalarNode s && s.getTag().equals(org.snakeyaml.engine.v2.nodes.Tag.INT)) {
            return in.integer(item, where, 1, 32_767).map(String::valueOf);
        }
        in.error(
                item,
                where + " values must be 'auto' or a whole number from 1 to 32767, found " + YamlReader.describe(item),
                "'auto' keeps the JDK's default");
        return Optional.empty();
    }

    private static <T> List<T> noDuplicates(YamlReader in, List<Node> nodes, List<T> values, String where) {
        Set<T> seen = new HashSet<>();
        for (int i = 0; i < values.size() && i < nodes.size(); i++) {
            if (!seen.add(values.get(i))) {
                in.error(nodes.get(i), where + " lists '" + values.get(i) + "' twice", "each axis value once");
            }
        }
        return values;
    }

    /** include / exclude entries: axis keys with values that exist; include may add jvmArgs and env. */
    private static List<Map<String, Object>> entries(
            YamlReader in,
            List<Node> items,
            String what,
            boolean include,
            Set<String> knownJdks,
            List<JdkEntry> jdks,
            List<WorkloadSpec> workloads) {
        List<Map<String, Object>> entries = new ArrayList<>();
        List<String> allowed = new ArrayList<>(AXES);
        if (include) {
            allowed.addAll(INCLUDE_EXTRA_KEYS);
        }
        for (int i = 0; i < items.size(); i++) {
            String where = what + "[" + i + "]";
            Node item = items.get(i);
            Optional<Map<String, NodeTuple>> fields = in.mapping(item, where, allowed);
            if (fields.isEmpty()) {
                continue;
            }
            if (fields.get().isEmpty()) {
                in.error(item, where + " is empty", "name at least one of: " + String.join(", ", allowed));
                continue;
            }
            Map<String, Object> entry = new LinkedHashMap<>();
            fields.get().forEach((key, tuple) -> {
                Node value = tuple.getValueNode();
                String at = where + "." + key;
                Optional<?> parsed =
                        switch (key) {
                            case "jdk" ->
                                in.string(value, at).filter(id -> {
                                    Set<String> ids = include
                                            ? jdks.stream()
                                                    .map(JdkEntry::id)
                                                    .collect(java.util.stream.Collectors.toCollection(
                                                            java.util.LinkedHashSet::new))
                                            : knownJdks;
                                    if (!ids.contains(id)) {
                                        in.error(
                                                value,
                                                where + " refers to jdk '" + id + "', which is not defined"
                                                        + YamlReader.didYouMean(id, ids)
                                                                .map(s -> " (did you mean '" + s + "'?)")
                                                                .orElse(""),
                                                "jdk ids defined: " + String.join(", ", ids));
                                        return false;
                                    }
                                    return true;
                                });
                            case "workload" ->
                                in.string(value, at).filter(id -> {
                                    List<String> ids = include
                                            ? workloads.stream()
                                                    .map(WorkloadSpec::id)
                                                    .toList()
                                            : Workloads.ids();
                                    if (!ids.contains(id)) {
                                        in.error(
                                                value,
                                                where + " refers to workload '" + id + "', which is not "
                                                        + (include ? "in workloads" : "a known workload")
                                                        + YamlReader.didYouMean(id, ids)
                                                                .map(s -> " (did you mean '" + s + "'?)")
                                                                .orElse(""),
                                                "workloads: " + String.join(", ", ids));
                                        return false;
                                    }
                                    return true;
                                });
                            case "os" -> in.oneOf(value, at, OS);
                            case "cpus" -> in.positiveNumber(value, at).map(BigDecimal::toPlainString);
                            case "cpuset" -> cpuList(in, value, at);
                            case "parallelism", "maxPoolSize", "minRunnable" -> schedulerValue(in, value, at);
                            case "jvmArgs" -> in.stringList(value, at);
                            case "env" -> in.stringMap(value, at);
                            default -> Optional.empty();
                        };
                parsed.ifPresent(v -> entry.put(key, v));
            });
            entries.add(entry);
        }
        return entries;
    }

    /** A cpuset value: CPU numbers and ranges as Linux writes them, or "all". */
    private static Optional<String> cpuList(YamlReader in, Node node, String where) {
        return in.string(node, where).filter(text -> {
            if (!CPU_LIST.matcher(text).matches()) {
                in.error(
                        node,
                        where + " '" + text + "' is not a CPU list",
                        "write CPUs as Linux does, e.g. \"0\", \"0-1\", \"0,2-3\", or all for no cpuset");
                return false;
            }
            if (text.equals("all")) {
                return true;
            }
            for (String part : text.split(",")) {
                String[] ends = part.split("-");
                if (ends[0].length() > 4
                        || ends[ends.length - 1].length() > 4
                        || Integer.parseInt(ends[ends.length - 1]) > MAX_CPU
                        || Integer.parseInt(ends[0]) > MAX_CPU) {
                    in.error(
                            node,
                            where + " '" + text + "' names CPU " + ends[ends.length - 1] + ", beyond any machine's",
                            "CPU numbers run from 0 to " + MAX_CPU + "; a cell on a CPU the host lacks fails");
                    return false;
                }
                if (ends.length == 2 && Integer.parseInt(ends[0]) > Integer.parseInt(ends[1])) {
                    in.error(
                            node,
                            where + " '" + text + "' has a range that runs backwards (" + part + ")",
                            "write the lower CPU first: " + ends[1] + "-" + ends[0]);
                    return false;
                }
            }
            return true;
        });
    }

    private static Optional<Node> field(Map<String, NodeTuple> fields, String key) {
        return Optional.ofNullable(fields.get(key)).map(NodeTuple::getValueNode);
    }

    private static Optional<Node> requiredField(
            YamlReader in, Node item, Map<String, NodeTuple> fields, String key, String where) {
        if (!fields.containsKey(key)) {
            in.error(item, where + " is missing '" + key + "'");
        }
        return field(fields, key);
    }

    private static Optional<String> id(YamlReader in, Node node, String where) {
        return in.string(node, where).filter(id -> {
            if (!ID.matcher(id).matches()) {
                in.error(
                        node,
                        where + " '" + id + "' is not a valid id",
                        "ids use lower-case letters, digits, '-' and '_' (they become part of cell ids and file names)");
                return false;
            }
            return true;
        });
    }

    private static Optional<Duration> duration(YamlReader in, Node node) {
        return in.scalarText(node, "timeout").flatMap(text -> {
            Matcher m = DURATION.matcher(text.trim());
            if (!m.matches() || new java.math.BigInteger(m.group(1)).signum() == 0) {
                in.error(
                        node,
                        "timeout '" + text + "' is not a duration",
                        "write a positive number with a unit: 90s, 10m, 1h, 500ms");
                return Optional.empty();
            }
            java.math.BigInteger millis = new java.math.BigInteger(m.group(1))
                    .multiply(java.math.BigInteger.valueOf(
                            switch (m.group(2)) {
                                case "ms" -> 1L;
                                case "s" -> 1_000L;
                                case "m" -> 60_000L;
                                default -> 3_600_000L;
                            }));
            if (millis.compareTo(java.math.BigInteger.valueOf(MAX_TIMEOUT.toMillis())) > 0) {
                in.error(
                        node,
                        "timeout '" + text + "' is too long: a cell's timeout is at most 7 days (168h)",
                        "a timeout ends a cell that hangs; 10m is the default, GitHub-hosted jobs end after 6h");
                return Optional.empty();
            }
            return Optional.of(Duration.ofMillis(millis.longValueExact()));
        });
    }

    private static Optional<Long> size(YamlReader in, Node node) {
        return in.scalarText(node, "memory").flatMap(text -> {
            Matcher m = SIZE.matcher(text.trim());
            if (!m.matches()) {
                in.error(
                        node,
                        "memory '" + text + "' is not a size",
                        "write bytes or a number with k, m or g: 512m, 2g");
                return Optional.empty();
            }
            java.math.BigInteger exact = new java.math.BigInteger(m.group(1))
                    .shiftLeft(
                            switch (m.group(2).toLowerCase(Locale.ROOT)) {
                                case "k" -> 10;
                                case "m" -> 20;
                                case "g" -> 30;
                                default -> 0;
                            });
            if (exact.compareTo(java.math.BigInteger.valueOf(MAX_MEMORY)) > 0) {
                in.error(
                        node,
                        "memory " + text + " is too large: a cell's memory limit is at most 1024g (1 TiB)",
                        "the limit is per cell (one container or JVM); 2g is the default");
                return Optional.empty();
            }
            long bytes = exact.longValueExact();
            if (bytes < (64L << 20)) {
                in.error(
                        node,
                        "memory " + text + " is below the 64m a JVM cell needs",
                        "use at least 64m; 2g is the default");
                return Optional.empty();
            }
            return Optional.of(bytes);
        });
    }
}
