package dev.loommatrix.core.matrix;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;

/**
 * The sections of matrix.yaml (the axes, workloads, counts and limits; each jdks entry in {@link JdkEntries}), read
 * into the typed {@link Matrix}.
 */
final class Sections {

    static final List<String> WORKLOAD_KEYS = List.of("id", "variants", "params", "iterations", "enabled");
    static final List<String> SCHEDULER_KEYS = List.of("parallelism", "maxPoolSize", "minRunnable");
    static final List<String> OS = List.of("linux", "windows");
    private static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9_-]*");

    private static final String JDKS_HINT =
            "list the JDKs to test, e.g. '- {id: temurin-21, vm: hotspot, version: 21, image: eclipse-temurin:21-jdk}'";
    private static final String WORKLOADS_HINT =
            "list the workloads to run, e.g. '- {id: sleep-bound, variants: [virtual, \"pool:200\"]}'";

    private Sections() {}

    static Matrix build(
            YamlReader in,
            Node root,
            Map<String, NodeTuple> top,
            Optional<String> profile,
            Path file,
            Set<String> baseJdkIds) {
        Axes axes = axes(in, root, top, file);
        Optional<String> id = optional(top, "id").flatMap(n -> matrixId(in, n));
        int repetitions = optional(top, "repetitions")
                .flatMap(n -> in.integer(n, "repetitions", 1, 10_000))
                .map(Long::intValue)
                .orElse(5);
        int warmup = optional(top, "warmup")
                .flatMap(n -> in.integer(n, "warmup", 0, 10_000))
                .map(Long::intValue)
                .orElse(1);
        Iterations iterations =
                optional(top, "iterations").flatMap(n -> iterations(in, n)).orElse(Iterations.ONCE);
        Duration timeout =
                optional(top, "timeout").flatMap(n -> Values.duration(in, n)).orElse(Duration.ofMinutes(10));
        long memory = optional(top, "memory").flatMap(n -> Values.size(in, n)).orElse(2L << 30);
        long pids = optional(top, "pids")
                .flatMap(n -> in.integer(n, "pids", 16, Integer.MAX_VALUE))
                .orElse(20_000L);
        Profiling profiling =
                optional(top, "profiling").flatMap(n -> profiling(in, n)).orElse(Profiling.OFF);

        Set<String> knownJdks = new HashSet<>(baseJdkIds);
        axes.jdks().forEach(j -> knownJdks.add(j.id()));
        List<AxisEntry> exclude = axisEntries(in, top, "exclude", false, knownJdks, axes);
        List<AxisEntry> include = axisEntries(in, top, "include", true, knownJdks, axes);
        return new Matrix(
                file,
                profile,
                axes.jdks(),
                axes.os(),
                axes.cpus(),
                axes.cpuset(),
                axes.scheduler().get("parallelism"),
                axes.scheduler().get("maxPoolSize"),
                axes.scheduler().get("minRunnable"),
                axes.workloads(),
                repetitions,
                warmup,
                iterations,
                timeout,
                memory,
                pids,
                exclude,
                include,
                id,
                profiling);
    }

    /** The values of the cross product's axes, as the matrix lists them. */
    private record Axes(
            List<JdkEntry> jdks,
            List<String> os,
            List<BigDecimal> cpus,
            List<String> cpuset,
            Map<String, List<String>> scheduler,
            List<WorkloadSpec> workloads) {}

    private static Axes axes(YamlReader in, Node root, Map<String, NodeTuple> top, Path file) {
        List<JdkEntry> jdks = required(in, root, top, "jdks", JDKS_HINT)
                .map(node -> JdkEntries.read(in, node))
                .orElse(List.of());
        List<String> os = axis(in, top, "os", (item, where) -> in.oneOf(item, where, OS), List.of("linux"));
        List<BigDecimal> cpus = axis(in, top, "cpus", in::cpuQuota, List.of(BigDecimal.valueOf(2)));
        List<String> cpuset = axis(in, top, "cpuset", (item, where) -> Values.cpuList(in, item, where), List.of("all"));
        Map<String, List<String>> scheduler = scheduler(in, top.get("scheduler"));
        List<WorkloadSpec> workloads = required(in, root, top, "workloads", WORKLOADS_HINT)
                .map(node -> workloads(in, node, file))
                .orElse(List.of());
        return new Axes(jdks, os, cpus, cpuset, scheduler, workloads);
    }

    /** A top-level axis ({@code os}, {@code cpus}, {@code cpuset}): a non-empty list, each value once. */
    private static <T> List<T> axis(
            YamlReader in,
            Map<String, NodeTuple> top,
            String key,
            BiFunction<Node, String, Optional<T>> value,
            List<T> otherwise) {
        return optional(top, key)
                .flatMap(n -> in.nonEmptySequence(n, key))
                .map(items -> {
                    List<T> values = new ArrayList<>();
                    items.forEach(item -> value.apply(item, key).ifPresent(values::add));
                    return noDuplicates(in, items, values, key);
                })
                .orElse(otherwise);
    }

    /** {@code include} or {@code exclude}, checked against the JDKs and workloads the matrix defines. */
    private static List<AxisEntry> axisEntries(
            YamlReader in, Map<String, NodeTuple> top, String key, boolean include, Set<String> knownJdks, Axes axes) {
        return optional(top, key)
                .flatMap(n -> in.sequence(n, key))
                .map(items -> AxisEntries.of(in, items, key, include, knownJdks, axes.jdks(), axes.workloads()))
                .orElse(List.of());
    }

    /** {@code profiling: {jfr: true, flame: true}}: what each variant's extra, untimed JVM run collects. */
    static Optional<Profiling> profiling(YamlReader in, Node node) {
        return in.mapping(node, "profiling", List.of("jfr", "flame"))
                .map(fields -> new Profiling(
                        flag(in, fields.get("jfr"), "profiling.jfr"),
                        flag(in, fields.get("flame"), "profiling.flame")));
    }

    private static boolean flag(YamlReader in, NodeTuple field, String where) {
        return Optional.ofNullable(field)
                .flatMap(t -> in.bool(t.getValueNode(), where))
                .orElse(false);
    }

    /**
     * {@code id}: the matrix's identity across edits (issue #19), so a run's published baseline is an earlier
     * run of the same matrix even after a JDK was added; without one, the file's hash is its identity.
     */
    static Optional<String> matrixId(YamlReader in, Node node) {
        return in.string(node, "id").flatMap(v -> {
            if (!v.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")) {
                in.error(
                        node,
                        "id '" + v + "' is not a matrix identity",
                        "use up to 64 letters, digits, '.', '_' or '-', starting with a letter or digit, e.g."
                                + " 'id: nightly-services'");
                return Optional.empty();
            }
            return Optional.of(v);
        });
    }

    /** {@code iterations: {warmup: W, measure: M}}: both optional (0 and 1), M at least 1. */
    static Optional<Iterations> iterations(YamlReader in, Node node) {
        return in.mapping(node, "iterations", List.of("warmup", "measure")).map(fields -> {
            int warmup = Optional.ofNullable(fields.get("warmup"))
                    .flatMap(t -> in.integer(t.getValueNode(), "iterations.warmup", 0, 1_000))
                    .map(Long::intValue)
                    .orElse(0);
            int measure = Optional.ofNullable(fields.get("measure"))
                    .flatMap(t -> in.integer(t.getValueNode(), "iterations.measure", 1, 1_000))
                    .map(Long::intValue)
                    .orElse(1);
            return new Iterations(warmup, measure);
        });
    }

    static Optional<Node> optional(Map<String, NodeTuple> top, String key) {
        return Optional.ofNullable(top.get(key)).map(NodeTuple::getValueNode);
    }

    static Optional<Node> required(YamlReader in, Node root, Map<String, NodeTuple> top, String key, String hint) {
        if (!top.containsKey(key)) {
            in.error(root, "missing key '" + key + "'", hint);
        }
        return optional(top, key);
    }

    static List<WorkloadSpec> workloads(YamlReader in, Node node, Path file) {
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
                workload(in, items.get(i), "workloads[" + i + "]", seen, file).ifPresent(workloads::add);
            }
        });
        return workloads;
    }

    /** One workloads entry; empty when it is disabled or has a problem (reported). */
    private static Optional<WorkloadSpec> workload(
            YamlReader in, Node item, String where, Set<String> seen, Path file) {
        if (UserWorkloads.isUserEntry(item)) {
            Map<String, NodeTuple> all = in.mapping(item, where, List.of()).orElse(Map.of());
            boolean enabled = field(all, "enabled")
                    .flatMap(n -> in.bool(n, where + ".enabled"))
                    .orElse(true);
            Optional<WorkloadSpec> user = UserWorkloads.read(in, item, all, where, file);
            if (user.isPresent() && !seen.add(user.get().id())) {
                in.error(
                        all.get("id").getValueNode(),
                        "duplicate workload id '" + user.get().id() + "'",
                        "each workload entry needs its own id");
                return Optional.empty();
            }
            return enabled ? user : Optional.empty();
        }
        Map<String, NodeTuple> fields = in.mapping(item, where, WORKLOAD_KEYS).orElse(null);
        if (fields == null) {
            return Optional.empty();
        }
        Optional<Workloads.Definition> definition =
                requiredField(in, item, fields, "id", where).flatMap(n -> definition(in, n, where + ".id"));
        boolean enabled = field(fields, "enabled")
                .flatMap(n -> in.bool(n, where + ".enabled"))
                .orElse(true);
        if (definition.isEmpty() || !enabled) {
            return Optional.empty();
        }
        Workloads.Definition def = definition.get();
        if (!seen.add(def.id())) {
            in.error(
                    fields.get("id").getValueNode(),
                    "duplicate workload id '" + def.id() + "'",
                    "list each workload once; put all its variants in one entry");
            return Optional.empty();
        }
        List<String> variants = new ArrayList<>();
        requiredField(in, item, fields, "variants", where)
                .flatMap(n -> in.nonEmptySequence(n, where + ".variants"))
                .ifPresent(nodes -> nodes.forEach(
                        v -> Values.variant(in, def, v, where + ".variants").ifPresent(name -> {
                            if (variants.contains(name)) {
                                in.error(v, "variant '" + name + "' is listed twice in " + where);
                            } else {
                                variants.add(name);
                            }
                        })));
        Map<String, Long> params = new LinkedHashMap<>(def.defaults());
        Optional<Node> paramsNode = field(fields, "params");
        Map<String, NodeTuple> given = paramsNode
                .flatMap(n -> in.mapping(
                        n,
                        where + ".params",
                        new java.util.TreeSet<>(def.defaults().keySet())))
                .orElse(Map.of());
        given.forEach((name, t) -> in.integer(t.getValueNode(), where + ".params." + name, 0, Long.MAX_VALUE)
                .ifPresent(v -> params.put(name, v)));
        if (def.id().equals(Workloads.SPRING_BOOT_CAPACITY)) {
            paramsNode.ifPresent(n -> capacityParams(in, n, given, params, where + ".params"));
        }
        Optional<Iterations> iterations = field(fields, "iterations").flatMap(n -> iterations(in, n));
        return Optional.of(new WorkloadSpec(def.id(), variants, params, Optional.empty(), iterations));
    }

    /** The built-in capacity search's range, precision and connections, as a {@code capacity:} load checks them. */
    private static void capacityParams(
            YamlReader in, Node node, Map<String, NodeTuple> given, Map<String, Long> p, String where) {
        if (p.get("from") < 1 || p.get("to") <= p.get("from")) {
            in.error(
                    at(node, given, "to", "from"),
                    where + ": the rates searched must run from 1 request/s or more up to a higher one, got from "
                            + p.get("from") + " to " + p.get("to"),
                    "e.g. {from: 100, to: 6400}");
        }
        if (p.get("precisionPercent") < 1 || p.get("precisionPercent") > 50) {
            in.error(
                    at(node, given, "precisionPercent"),
                    where + ".precisionPercent must be 1 to 50, got " + p.get("precisionPercent"),
                    "the search ends when the first failing rate is at most this many percent above the last passing");
        }
        if (p.get("connections") < 1 || p.get("connections") > 100_000) {
            in.error(
                    at(node, given, "connections"),
                    where + ".connections must be 1 to 100000, got " + p.get("connections"));
        }
        if (p.get("p99Ms") < 1) {
            in.error(
                    at(node, given, "p99Ms"),
                    where + ".p99Ms must be 1 or more, got " + p.get("p99Ms"),
                    "the objective: p99 within this many ms");
        }
    }

    /** The value of the first of these keys the params gave, else the params themselves: where a problem is said. */
    private static Node at(Node params, Map<String, NodeTuple> given, String... keys) {
        for (String key : keys) {
            if (given.containsKey(key)) {
                return given.get(key).getValueNode();
            }
        }
        return params;
    }

    /** A built-in workload by its id. */
    private static Optional<Workloads.Definition> definition(YamlReader in, Node node, String where) {
        return in.string(node, where).flatMap(id -> {
            Optional<Workloads.Definition> found = Workloads.find(id);
            if (found.isEmpty()) {
                in.error(
                        node,
                        "unknown workload '" + id + "'" + YamlReader.didYouMeanSuffix(id, Workloads.ids()),
                        "known workloads: " + String.join(", ", Workloads.ids()));
            }
            return found;
        });
    }

    static Map<String, List<String>> scheduler(YamlReader in, NodeTuple tuple) {
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
                                    items.forEach(item -> Values.schedulerValue(in, item, "scheduler." + key)
                                            .ifPresent(values::add));
                                    axes.put(key, noDuplicates(in, items, values, "scheduler." + key));
                                })));
        return axes;
    }

    static <T> List<T> noDuplicates(YamlReader in, List<Node> nodes, List<T> values, String where) {
        Set<T> seen = new HashSet<>();
        for (int i = 0; i < values.size() && i < nodes.size(); i++) {
            if (!seen.add(values.get(i))) {
                in.error(nodes.get(i), where + " lists '" + values.get(i) + "' twice", "each axis value once");
            }
        }
        return values;
    }

    static Optional<Node> field(Map<String, NodeTuple> fields, String key) {
        return Optional.ofNullable(fields.get(key)).map(NodeTuple::getValueNode);
    }

    static Optional<Node> requiredField(
            YamlReader in, Node item, Map<String, NodeTuple> fields, String key, String where) {
        if (!fields.containsKey(key)) {
            in.error(item, where + " is missing '" + key + "'");
        }
        return field(fields, key);
    }

    static Optional<String> id(YamlReader in, Node node, String where) {
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
}
