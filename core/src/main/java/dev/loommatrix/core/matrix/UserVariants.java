package dev.loommatrix.core.matrix;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * A user workload's {@code variants}: what each one sets (JVM options, properties, environment, arguments, JMH
 * {@code @Param} values), each held to what the entry's benchmarks declare and to what {@code init} left to fill in.
 */
final class UserVariants {

    static final List<String> VARIANT_KEYS = List.of("jvmArgs", "properties", "env", "args", "params", "method");

    /** A Java method name, as a benchmark method's is. */
    private static final Pattern METHOD = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*");

    /** Variant names become file names and JVM properties: letters, digits, '.', '_' and '-'. */
    private static final Pattern VARIANT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");

    /** What {@code loom-matrix init} writes where only the team knows the answer: {@code <…>}. */
    static final Pattern PLACEHOLDER = Pattern.compile("^<[^>]*>$");

    private UserVariants() {}

    /**
     * The entry's variants by name, in their order; a variant with a problem is left out (the problem said).
     *
     * @param jmhParams the selected benchmarks' @Param names, when the entry is a JMH suite that was read
     * @param benchmarks the selected benchmarks, each held to the @Params a variant sets
     * @param listed every benchmark the jar lists, which a variant's {@code method} is held to
     */
    static Map<String, UserWorkload.VariantSettings> read(
            YamlReader in,
            Node item,
            Map<String, NodeTuple> fields,
            String where,
            boolean isJmh,
            Optional<Set<String>> jmhParams,
            List<JmhJar.Benchmark> benchmarks,
            List<JmhJar.Benchmark> listed) {
        Map<String, UserWorkload.VariantSettings> variants = new LinkedHashMap<>();
        Sections.requiredField(in, item, fields, "variants", where)
                .flatMap(n -> in.mapping(n, where + ".variants", List.of()))
                .ifPresent(entries -> {
                    if (entries.isEmpty()) {
                        in.error(
                                fields.get("variants").getValueNode(),
                                where + ".variants must name at least one variant",
                                "e.g. variants: {virtual: {jvmArgs: [...]}, platform: {jvmArgs: [...]}}");
                    }
                    entries.forEach((name, tuple) -> {
                        if (!VARIANT.matcher(name).matches()) {
                            in.error(
                                    tuple.getKeyNode(),
                                    "variant name '" + name + "' is not usable",
                                    "variant names use letters, digits, '.', '_' and '-' (they name files and "
                                            + "reach the JVM as -Dloom.variant)");
                            return;
                        }
                        variant(in, tuple, where + ".variants." + name, isJmh, jmhParams, benchmarks, listed)
                                .ifPresent(s -> variants.put(name, s));
                    });
                    everyOrNoVariantNamesItsMethod(in, entries, variants);
                });
        return variants;
    }

    /**
     * Variants that name their method are contrasted by class; one that names none would run every selected
     * benchmark, both methods included, and pair with nothing.
     */
    private static void everyOrNoVariantNamesItsMethod(
            YamlReader in, Map<String, NodeTuple> entries, Map<String, UserWorkload.VariantSettings> variants) {
        // whether a variant names a method is read from the file: a method that was wrong is said as such
        List<String> naming = entries.entrySet().stream()
                .filter(e -> e.getValue().getValueNode() instanceof MappingNode m
                        && m.getValue().stream()
                                .anyMatch(t -> t.getKeyNode() instanceof ScalarNode k
                                        && k.getValue().equals("method")))
                .map(Map.Entry::getKey)
                .toList();
        if (naming.isEmpty()) {
            return;
        }
        variants.forEach((name, settings) -> {
            if (!naming.contains(name)) {
                in.error(
                        entries.get(name).getValueNode(),
                        "variant '" + name + "' names no method while '" + naming.get(0) + "' does: it would run"
                                + " every selected benchmark and pair with none of the others",
                        "give every variant of this entry the benchmark method it runs (method: NAME), or make"
                                + " the methods' contrast an entry of its own");
            }
        });
    }

    private static Optional<UserWorkload.VariantSettings> variant(
            YamlReader in,
            NodeTuple tuple,
            String where,
            boolean isJmh,
            Optional<Set<String>> jmhParams,
            List<JmhJar.Benchmark> benchmarks,
            List<JmhJar.Benchmark> listed) {
        Node node = tuple.getValueNode();
        String variantName = ((ScalarNode) tuple.getKeyNode()).getValue();
        placeholders(in, node, variantName);
        Map<String, NodeTuple> f = in.mapping(node, where, VARIANT_KEYS).orElse(null);
        if (f == null) {
            return Optional.empty();
        }
        List<String> jvmArgs = Sections.field(f, "jvmArgs")
                .flatMap(n -> in.stringList(n, where + ".jvmArgs"))
                .orElse(List.of());
        jvmArgs.stream()
                .filter(a -> !a.startsWith("-"))
                .findFirst()
                .ifPresent(a -> in.error(
                        f.get("jvmArgs").getValueNode(),
                        where + ".jvmArgs has '" + a + "', which is not a JVM option",
                        "JVM options start with '-' (e.g. -Xss256k, -Dkey=value); program arguments go in args"));
        Map<String, String> properties = Sections.field(f, "properties")
                .flatMap(n -> in.stringMap(n, where + ".properties"))
                .orElse(Map.of());
        Map<String, String> env = Sections.field(f, "env")
                .flatMap(n -> in.stringMap(n, where + ".env"))
                .orElse(Map.of());
        List<String> args = Sections.field(f, "args")
                .flatMap(n -> in.stringList(n, where + ".args"))
                .orElse(List.of());
        Optional<String> method = method(in, f, where, isJmh, benchmarks, listed);
        // a variant that names its method runs that method of each selected class: its @Params are held to those
        List<JmhJar.Benchmark> runs =
                method.map(m -> ofMethod(m, benchmarks, listed)).orElse(benchmarks);
        Map<String, String> params = params(in, f, where, variantName, isJmh, jmhParams, runs);
        UserWorkload.VariantSettings settings =
                new UserWorkload.VariantSettings(jvmArgs, properties, env, args, params, method);
        if (f.isEmpty()) { // a key that was there but wrong is reported as such, not as "nothing"
            in.error(
                    node,
                    "variant '" + variantName + "' sets nothing",
                    "give it jvmArgs, properties, env, args" + (isJmh ? ", params or method" : "")
                            + ", e.g. {jvmArgs: [\"-Dspring.threads.virtual.enabled=true\"]}");
            return Optional.empty();
        }
        return Optional.of(settings);
    }

    /**
     * A variant's {@code method}: a benchmark method every selected class declares (JMH only). Suites such as
     * {@code PinningBenchmark.synchronizedBlock} beside {@code reentrantLock} write their alternatives as methods.
     */
    private static Optional<String> method(
            YamlReader in,
            Map<String, NodeTuple> f,
            String where,
            boolean isJmh,
            List<JmhJar.Benchmark> benchmarks,
            List<JmhJar.Benchmark> listed) {
        if (!f.containsKey("method")) {
            return Optional.empty();
        }
        Node at = f.get("method").getValueNode();
        if (!isJmh) {
            in.error(
                    f.get("method").getKeyNode(),
                    where + ".method is for a JMH suite's benchmark methods",
                    "a program's or service's variants use jvmArgs, properties, env or args");
            return Optional.empty();
        }
        Optional<String> name = in.string(at, where + ".method");
        if (name.isEmpty()) {
            return Optional.empty();
        }
        if (!METHOD.matcher(name.get()).matches()) {
            in.error(
                    at,
                    where + ".method '" + name.get() + "' is not a method name",
                    "name the benchmark method alone, e.g. method: reentrantLock (the classes come from include)");
            return Optional.empty();
        }
        Set<String> names = listed.stream().map(JmhJar.Benchmark::name).collect(java.util.stream.Collectors.toSet());
        List<String> lacking = benchmarks.stream()
                .map(b -> UserWorkload.Jmh.classOf(b.name()))
                .distinct()
                .filter(c -> !names.contains(c + "." + name.get()))
                .toList();
        if (!lacking.isEmpty()) {
            String first = lacking.get(0);
            List<String> its = listed.stream()
                    .map(JmhJar.Benchmark::name)
                    .filter(n -> UserWorkload.Jmh.classOf(n).equals(first))
                    .map(n -> n.substring(first.length() + 1))
                    .toList();
            in.error(
                    at,
                    "no benchmark method '" + name.get() + "' in " + String.join(", ", lacking) + " (a selected class"
                            + (lacking.size() == 1 ? "" : "es") + ")",
                    first.substring(first.lastIndexOf('.') + 1) + " has: " + String.join(", ", its)
                            + "; or narrow include to the classes that declare it");
            return Optional.empty();
        }
        return name;
    }

    /** The jar's benchmarks a method variant runs: that method of each selected class. */
    private static List<JmhJar.Benchmark> ofMethod(
            String method, List<JmhJar.Benchmark> benchmarks, List<JmhJar.Benchmark> listed) {
        Set<String> wanted = benchmarks.stream()
                .map(b -> UserWorkload.Jmh.classOf(b.name()) + "." + method)
                .collect(java.util.stream.Collectors.toSet());
        return listed.stream().filter(b -> wanted.contains(b.name())).toList();
    }

    /** A variant's {@code params}: JMH @Param values only, each one every selected benchmark declares. */
    private static Map<String, String> params(
            YamlReader in,
            Map<String, NodeTuple> f,
            String where,
            String variantName,
            boolean isJmh,
            Optional<Set<String>> jmhParams,
            List<JmhJar.Benchmark> benchmarks) {
        Map<String, String> params = new LinkedHashMap<>();
        if (!f.containsKey("params")) {
            return params;
        }
        if (!isJmh) {
            in.error(
                    f.get("params").getKeyNode(),
                    where + ".params is for JMH @Param values",
                    "a program's variants use jvmArgs, properties, env or args");
            return params;
        }
        in.mapping(f.get("params").getValueNode(), where + ".params", List.of())
                .ifPresent(entries -> entries.forEach((name, t) -> {
                    if (knownParam(in, t.getKeyNode(), name, jmhParams.orElse(Set.of()), jmhParams.isPresent())
                            && everyBenchmarkHas(in, t.getKeyNode(), name, variantName, benchmarks)) {
                        in.scalarText(t.getValueNode(), where + ".params." + name)
                                .ifPresent(v -> params.put(name, v));
                    }
                }));
        return params;
    }

    /**
     * A variant's @Param must be one every selected benchmark declares (issue #49): JMH runs a benchmark without it as
     * it is, so that benchmark would be measured alike in every variant and reported under each one's name.
     */
    private static boolean everyBenchmarkHas(
            YamlReader in, Node at, String param, String variant, List<JmhJar.Benchmark> benchmarks) {
        List<String> without = benchmarks.stream()
                .filter(b -> !b.params().contains(param))
                .map(JmhJar.Benchmark::name)
                .toList();
        if (without.isEmpty()) {
            return true;
        }
        List<String> with = benchmarks.stream()
                .filter(b -> b.params().contains(param))
                .map(b -> "'" + b.includePattern() + "'")
                .toList();
        in.error(
                at,
                "variant '" + variant + "' sets @Param '" + param + "', which " + without.size() + " of the "
                        + benchmarks.size() + " selected benchmarks do not declare (" + String.join(", ", without)
                        + "): they would run alike in every variant",
                "select only the benchmarks that declare it, e.g. include: [" + String.join(", ", with)
                        + "], or switch the others with a property they read");
        return false;
    }

    /**
     * Init's placeholders left in a variant (issue #49): a variant run with one switches nothing, so the matrix is
     * refused until they are filled in.
     */
    private static void placeholders(YamlReader in, Node node, String variant) {
        if (node instanceof ScalarNode scalar
                && PLACEHOLDER.matcher(scalar.getValue()).matches()) {
            in.error(
                    node,
                    "variant '" + variant + "' still has the placeholder '" + scalar.getValue()
                            + "' that loom-matrix init wrote",
                    "put what switches your code between thread kinds in its place: the system property it reads"
                            + " (e.g. spring.threads.virtual.enabled), or use params: {threadType: VIRTUAL} for a"
                            + " @Param, jvmArgs or env; loom-matrix then checks in every JVM that it was read");
        } else if (node instanceof MappingNode mapping) {
            mapping.getValue().forEach(t -> {
                placeholders(in, t.getKeyNode(), variant);
                placeholders(in, t.getValueNode(), variant);
            });
        } else if (node instanceof SequenceNode sequence) {
            sequence.getValue().forEach(n -> placeholders(in, n, variant));
        }
    }

    /** A @Param name one of the selected benchmarks declares ({@code check}: when they are known). */
    static boolean knownParam(YamlReader in, Node at, String name, Set<String> known, boolean check) {
        if (check && !known.contains(name)) {
            in.error(
                    at,
                    "no selected benchmark has a @Param '" + name + "'" + YamlReader.didYouMeanSuffix(name, known),
                    known.isEmpty()
                            ? "the selected benchmarks have no @Param fields"
                            : "they have: " + String.join(", ", known));
            return false;
        }
        return true;
    }
}
