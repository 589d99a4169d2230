package dev.loommatrix.core.matrix;

import dev.loommatrix.core.stats.MetricDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * A {@code workloads} entry that names the user's code ({@code jmh:} or {@code program:}) instead of a
 * built-in id. Everything that can be checked before a cell starts is checked here, with the position in
 * the file: the jar exists and is one, JMH is in it, the patterns select benchmarks, the parameters exist,
 * every variant sets something.
 */
final class UserWorkloads {

    static final List<String> KEYS =
            List.of("id", "jmh", "program", "service", "load", "variants", "baseline", "headline", "enabled");
    static final List<String> HEADLINE_KEYS = List.of("subject", "words");
    static final List<String> JMH_KEYS = List.of(
            "jar",
            "include",
            "exclude",
            "params",
            "mode",
            "timeUnit",
            "warmupIterations",
            "iterations",
            "warmupTime",
            "time",
            "threads",
            "forks",
            "profilers");
    static final List<String> PROGRAM_KEYS = List.of("jar", "classpath", "mainClass", "args", "metrics");
    static final List<String> VARIANT_KEYS = List.of("jvmArgs", "properties", "env", "args", "params");
    static final List<String> METRIC_KEYS = List.of("unit", "direction");

    /** Variant names become file names and JVM properties: letters, digits, '.', '_' and '-'. */
    private static final Pattern VARIANT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");
    /** JMH's TimeValue as its -w / -r options take it. */
    private static final Pattern JMH_TIME = Pattern.compile("[1-9][0-9]*(ns|us|ms|s|m|min|hr)");

    private UserWorkloads() {}

    /** Whether a workloads entry names the user's code (checked without reporting anything). */
    static boolean isUserEntry(Node item) {
        return item instanceof org.snakeyaml.engine.v2.nodes.MappingNode m
                && m.getValue().stream()
                        .anyMatch(t -> t.getKeyNode() instanceof ScalarNode k
                                && (k.getValue().equals("jmh")
                                        || k.getValue().equals("program")
                                        || k.getValue().equals("service")));
    }

    static Optional<WorkloadSpec> read(
            YamlReader in, Node item, Map<String, NodeTuple> fields, String where, Path matrixFile) {
        for (String key : fields.keySet()) {
            if (!KEYS.contains(key)) {
                in.error(
                        fields.get(key).getKeyNode(),
                        "unknown key '" + key + "' in " + where + YamlReader.didYouMeanSuffix(key, KEYS),
                        key.equals("params")
                                ? "a user workload's parameters live under jmh.params (JMH @Param values) or in a variant"
                                : "a user workload takes: " + String.join(", ", KEYS));
            }
        }
        List<String> kinds = java.util.stream.Stream.of("jmh", "program", "service")
                .filter(fields::containsKey)
                .toList();
        if (kinds.size() > 1) {
            in.error(
                    fields.get(kinds.get(1)).getKeyNode(),
                    where + " names both " + kinds.get(0) + " and " + kinds.get(1),
                    "one workload entry runs one artifact; make two entries");
            return Optional.empty();
        }
        boolean isService = fields.containsKey("service");
        if (fields.containsKey("load") && !isService) {
            in.error(
                    fields.get("load").getKeyNode(),
                    where + " has a load but no service",
                    "load: goes with service: (the server it loads); a JMH suite or program loads itself");
        }
        Optional<String> id = Sections.requiredField(in, item, fields, "id", where)
                .flatMap(n -> Sections.id(in, n, where + ".id"))
                .filter(name -> {
                    if (Workloads.find(name).isPresent()) {
                        in.error(
                                fields.get("id").getValueNode(),
                                "'" + name + "' is a built-in workload; a workload with your own code needs its own id",
                                "e.g. id: my-service");
                        return false;
                    }
                    return true;
                });
        Path base = Optional.ofNullable(matrixFile.toAbsolutePath().getParent()).orElse(Path.of("."));
        // the @Param names of the benchmarks the entry selects, read from the jar with it, for its variants
        Set<String> paramNames = new LinkedHashSet<>();
        List<JmhJar.Benchmark> selection = new ArrayList<>();
        Optional<UserWorkload.Artifact> artifact = fields.containsKey("jmh")
                ? jmh(in, fields.get("jmh").getValueNode(), where + ".jmh", base, paramNames, selection)
                : isService
                        ? ServiceWorkloads.service(in, item, fields, where, base)
                        : program(in, fields.get("program").getValueNode(), where + ".program", base);
        boolean isJmh = fields.containsKey("jmh");
        Optional<Set<String>> jmhParams =
                artifact.filter(a -> a instanceof UserWorkload.Jmh).map(a -> paramNames);
        List<JmhJar.Benchmark> selectedBenchmarks = artifact.isPresent() ? List.copyOf(selection) : List.of();
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
                        variant(in, tuple, where + ".variants." + name, isJmh, jmhParams, selectedBenchmarks)
                                .ifPresent(s -> variants.put(name, s));
                    });
                });
        Optional<String> baseline = Sections.field(fields, "baseline")
                .flatMap(n -> in.string(n, where + ".baseline").filter(name -> {
                    if (!variants.isEmpty() && !variants.containsKey(name)) {
                        in.error(
                                n,
                                "baseline '" + name + "' is not one of " + where + "'s variants"
                                        + YamlReader.didYouMeanSuffix(name, variants.keySet()),
                                "variants: " + String.join(", ", variants.keySet()));
                        return false;
                    }
                    return true;
                }));
        if (baseline.isEmpty() && !fields.containsKey("baseline") && variants.size() > 1) {
            in.error(
                    item,
                    where + " does not say which variant is the baseline",
                    "add e.g. 'baseline: platform': every other variant's speedup is taken over it");
        }
        String chosen = baseline.orElse(
                variants.isEmpty() ? "" : variants.keySet().iterator().next());
        Optional<Contrast> headline = Sections.field(fields, "headline")
                .flatMap(n -> headline(in, n, where + ".headline", variants.keySet(), chosen));
        if (id.isEmpty() || artifact.isEmpty() || variants.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new WorkloadSpec(
                id.get(),
                List.copyOf(variants.keySet()),
                Map.of(),
                Optional.of(new UserWorkload(
                        artifact.get(),
                        variants,
                        chosen,
                        headline.orElse(UserWorkload.defaultContrast(variants.keySet(), chosen)),
                        // what Java its classes need, held against each cell's JDK once the matrix is planned
                        ClassFiles.of(
                                artifact.get(),
                                in.where(fields.get(kinds.get(0)).getKeyNode()))))));
    }

    /**
     * {@code headline: {subject: NAME, words: TEXT}}: which variant's speedup over the baseline the entry's
     * tiles, history, compare and Grafana show first, and how to say it.
     */
    private static Optional<Contrast> headline(
            YamlReader in, Node node, String where, Set<String> variants, String baseline) {
        Map<String, NodeTuple> f = in.mapping(node, where, HEADLINE_KEYS).orElse(null);
        if (f == null) {
            return Optional.empty();
        }
        if (!f.containsKey("subject")) {
            in.error(
                    node,
                    where + " does not name its subject",
                    "e.g. headline: {subject: virtual}: its speedup over the baseline is shown first");
            return Optional.empty();
        }
        Node subjectNode = f.get("subject").getValueNode();
        Optional<String> subject = in.string(subjectNode, where + ".subject").filter(name -> {
            if (!variants.isEmpty() && !variants.contains(name)) {
                in.error(
                        subjectNode,
                        "headline subject '" + name + "' is not one of the entry's variants"
                                + YamlReader.didYouMeanSuffix(name, variants),
                        "variants: " + String.join(", ", variants));
                return false;
            }
            if (name.equals(baseline)) {
                in.error(
                        subjectNode,
                        "headline subject '" + name + "' is the baseline: its speedup over itself is 1",
                        "name another variant; the headline is a variant's speedup over the baseline " + baseline);
                return false;
            }
            return true;
        });
        Optional<String> words = Sections.field(f, "words").flatMap(n -> in.string(n, where + ".words"));
        return subject.map(s -> Contrast.over(s, baseline, words.orElse(s + " vs the baseline " + baseline)));
    }

    /**
     * The entry's JMH settings; {@code paramNames} receives the selected benchmarks' @Param names, {@code selection}
     * the benchmarks.
     */
    private static Optional<UserWorkload.Artifact> jmh(
            YamlReader in,
            Node node,
            String where,
            Path base,
            Set<String> paramNames,
            List<JmhJar.Benchmark> selection) {
        Map<String, NodeTuple> f = in.mapping(node, where, JMH_KEYS).orElse(null);
        if (f == null) {
            return Optional.empty();
        }
        Optional<Path> jarPath = Sections.requiredField(in, node, f, "jar", where)
                .flatMap(n -> in.string(n, where + ".jar"))
                .map(text -> base.resolve(text).normalize());
        Optional<JmhJar> jar = jarPath.flatMap(path -> {
            try {
                return Optional.of(JmhJar.read(path));
            } catch (JmhJar.NotUsable e) {
                in.error(f.get("jar").getValueNode(), e.getMessage(), e.hint());
                return Optional.empty();
            }
        });
        int problemsBefore = in.problems().size();
        List<String> include = patterns(in, f.get("include"), where + ".include");
        List<String> exclude = patterns(in, f.get("exclude"), where + ".exclude");
        // a pattern that did not compile leaves a selection that is not the user's: its variants are not held to it
        boolean patternsHold = in.problems().size() == problemsBefore;
        List<String> selected = new ArrayList<>();
        jar.ifPresent(j -> {
            List<JmhJar.Benchmark> chosen = j.select(include, exclude);
            if (chosen.isEmpty()) {
                Node at = f.containsKey("include")
                        ? f.get("include").getValueNode()
                        : f.get("jar").getValueNode();
                in.error(
                        at,
                        "no benchmark in " + jarPath.get().getFileName() + " matches include " + include
                                + (exclude.isEmpty() ? "" : " without exclude " + exclude),
                        "the jar lists: "
                                + String.join(
                                        ", ",
                                        j.benchmarks().stream()
                                                .map(JmhJar.Benchmark::name)
                                                .limit(20)
                                                .toList()));
            }
            chosen.forEach(b -> {
                selected.add(b.name());
                paramNames.addAll(b.params());
                if (patternsHold) {
                    selection.add(b);
                }
            });
        });
        Map<String, List<String>> params = new LinkedHashMap<>();
        Sections.field(f, "params")
                .flatMap(n -> in.mapping(n, where + ".params", List.of()))
                .ifPresent(entries -> entries.forEach((name, tuple) -> {
                    if (knownParam(in, tuple.getKeyNode(), name, paramNames, jar.isPresent() && !selected.isEmpty())) {
                        paramValues(in, tuple.getValueNode(), where + ".params." + name)
                                .ifPresent(v -> params.put(name, v));
                    }
                }));
        Optional<String> mode =
                Sections.field(f, "mode").flatMap(n -> in.oneOf(n, where + ".mode", UserWorkload.Jmh.MODES));
        Optional<String> timeUnit = Sections.field(f, "timeUnit")
                .flatMap(n -> in.oneOf(n, where + ".timeUnit", UserWorkload.Jmh.TIME_UNITS));
        OptionalInt warmupIterations = count(in, f, "warmupIterations", where, 0);
        OptionalInt iterations = count(in, f, "iterations", where, 1);
        Optional<String> warmupTime = Sections.field(f, "warmupTime").flatMap(n -> time(in, n, where + ".warmupTime"));
        Optional<String> time = Sections.field(f, "time").flatMap(n -> time(in, n, where + ".time"));
        OptionalInt threads = count(in, f, "threads", where, 1);
        OptionalInt forks = OptionalInt.of(0);
        if (f.containsKey("forks")) {
            Node n = f.get("forks").getValueNode();
            if (n instanceof ScalarNode s && s.getValue().equals("suite")) {
                forks = OptionalInt.empty();
            } else {
                forks = in.integer(n, where + ".forks", 0, 100)
                        .map(v -> OptionalInt.of(v.intValue()))
                        .orElse(OptionalInt.of(0));
            }
        }
        List<String> profilers = Sections.field(f, "profilers")
                .flatMap(n -> in.stringList(n, where + ".profilers"))
                .orElse(List.of());
        if (jarPath.isEmpty() || jar.isEmpty() || selected.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new UserWorkload.Jmh(
                jarPath.get(),
                include,
                exclude,
                params,
                mode,
                timeUnit,
                warmupIterations,
                iterations,
                warmupTime,
                time,
                threads,
                forks,
                profilers,
                selected));
    }

    private static Optional<UserWorkload.Artifact> program(YamlReader in, Node node, String where, Path base) {
        Map<String, NodeTuple> f = in.mapping(node, where, PROGRAM_KEYS).orElse(null);
        if (f == null) {
            return Optional.empty();
        }
        Optional<Launchable> launch = launchable(in, node, f, where, base);
        boolean ok = launch.isPresent();
        List<String> args = Sections.field(f, "args")
                .flatMap(n -> in.stringList(n, where + ".args"))
                .orElse(List.of());
        Map<String, MetricDescriptor> metrics = new LinkedHashMap<>();
        Sections.field(f, "metrics")
                .flatMap(n -> in.mapping(n, where + ".metrics", List.of()))
                .ifPresent(entries -> entries.forEach((name, tuple) -> in.mapping(
                                tuple.getValueNode(), where + ".metrics." + name, METRIC_KEYS)
                        .ifPresent(m -> {
                            Optional<String> unit = Sections.requiredField(
                                            in, tuple.getValueNode(), m, "unit", where + ".metrics." + name)
                                    .flatMap(u -> in.scalarText(u, where + ".metrics." + name + ".unit"));
                            Optional<String> direction = Sections.requiredField(
                                            in, tuple.getValueNode(), m, "direction", where + ".metrics." + name)
                                    .flatMap(d -> in.oneOf(
                                            d, where + ".metrics." + name + ".direction", List.of("lower", "higher")));
                            if (unit.isPresent() && direction.isPresent()) {
                                metrics.put(
                                        name,
                                        new MetricDescriptor(
                                                name,
                                                unit.get(),
                                                direction.get().equals("lower")
                                                        ? MetricDescriptor.Direction.LOWER_IS_BETTER
                                                        : MetricDescriptor.Direction.HIGHER_IS_BETTER));
                            }
                        })));
        if (!ok) {
            return Optional.empty();
        }
        return Optional.of(new UserWorkload.Program(
                launch.get().jar(), launch.get().classpath(), launch.get().mainClass(), args, metrics));
    }

    /** What starts a JVM of the user's: a runnable jar, or a classpath with a main class. */
    record Launchable(Optional<Path> jar, List<Path> classpath, Optional<String> mainClass) {}

    /** {@code jar} or {@code classpath} + {@code mainClass} of a program or service entry; empty after a problem. */
    static Optional<Launchable> launchable(
            YamlReader in, Node node, Map<String, NodeTuple> f, String where, Path base) {
        boolean ok = true;
        Optional<Path> jar = Optional.empty();
        List<Path> classpath = new ArrayList<>();
        Optional<String> mainClass = Sections.field(f, "mainClass").flatMap(n -> in.string(n, where + ".mainClass"));
        if (f.containsKey("jar") == f.containsKey("classpath")) {
            in.error(
                    node,
                    where + " needs either 'jar' or 'classpath'",
                    "jar: build/libs/app.jar (its manifest's Main-Class runs), or classpath: [...] with mainClass");
            ok = false;
        }
        if (f.containsKey("jar")) {
            Node n = f.get("jar").getValueNode();
            jar = in.string(n, where + ".jar").map(text -> base.resolve(text).normalize());
            if (jar.isPresent()) {
                ok &= runnableJar(in, n, jar.get(), mainClass.isPresent());
            } else {
                ok = false;
            }
        }
        if (f.containsKey("classpath")) {
            Node n = f.get("classpath").getValueNode();
            List<Node> items = in.nonEmptySequence(n, where + ".classpath").orElse(List.of());
            for (int i = 0; i < items.size(); i++) {
                Node entry = items.get(i);
                Optional<Path> path = in.string(entry, where + ".classpath[" + i + "]")
                        .map(t -> base.resolve(t).normalize());
                if (path.isPresent() && !Files.exists(path.get())) {
                    in.error(entry, "classpath entry " + path.get() + " does not exist", "build it first");
                    ok = false;
                }
                path.ifPresent(classpath::add);
            }
            if (mainClass.isEmpty()) {
                in.error(node, where + " has a classpath but no mainClass", "add e.g. mainClass: com.example.Main");
                ok = false;
            }
        }
        return ok ? Optional.of(new Launchable(jar, classpath, mainClass)) : Optional.empty();
    }

    /** A jar that exists, is a zip, and says what to run (its manifest, or the entry's mainClass). */
    private static boolean runnableJar(YamlReader in, Node at, Path jar, boolean hasMainClass) {
        if (!Files.isRegularFile(jar)) {
            in.error(at, "jar " + jar + " does not exist", "build it first; paths are relative to the matrix file");
            return false;
        }
        try (java.util.jar.JarFile file = new java.util.jar.JarFile(jar.toFile())) {
            var manifest = file.getManifest();
            if (!hasMainClass
                    && (manifest == null || manifest.getMainAttributes().getValue("Main-Class") == null)) {
                in.error(at, "jar " + jar + " has no Main-Class in its manifest", "add mainClass: com.example.Main");
                return false;
            }
            return true;
        } catch (java.io.IOException e) {
            in.error(at, "file " + jar + " is not a jar (" + e.getMessage() + ")", "name a .jar file");
            return false;
        }
    }

    private static Optional<UserWorkload.VariantSettings> variant(
            YamlReader in,
            NodeTuple tuple,
            String where,
            boolean isJmh,
            Optional<Set<String>> jmhParams,
            List<JmhJar.Benchmark> benchmarks) {
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
        Map<String, String> params = new LinkedHashMap<>();
        if (f.containsKey("params")) {
            if (!isJmh) {
                in.error(
                        f.get("params").getKeyNode(),
                        where + ".params is for JMH @Param values",
                        "a program's variants use jvmArgs, properties, env or args");
            } else {
                in.mapping(f.get("params").getValueNode(), where + ".params", List.of())
                        .ifPresent(entries -> entries.forEach((name, t) -> {
                            if (knownParam(in, t.getKeyNode(), name, jmhParams.orElse(Set.of()), jmhParams.isPresent())
                                    && everyBenchmarkHas(in, t.getKeyNode(), name, variantName, benchmarks)) {
                                in.scalarText(t.getValueNode(), where + ".params." + name)
                                        .ifPresent(v -> params.put(name, v));
                            }
                        }));
            }
        }
        UserWorkload.VariantSettings settings =
                new UserWorkload.VariantSettings(jvmArgs, properties, env, args, params);
        if (f.isEmpty()) { // a key that was there but wrong is reported as such, not as "nothing"
            in.error(
                    node,
                    "variant '" + ((ScalarNode) tuple.getKeyNode()).getValue() + "' sets nothing",
                    "give it jvmArgs, properties, env, args" + (isJmh ? " or params" : "")
                            + ", e.g. {jvmArgs: [\"-Dspring.threads.virtual.enabled=true\"]}");
            return Optional.empty();
        }
        return Optional.of(settings);
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

    /** What {@code loom-matrix init} writes where only the team knows the answer: {@code <…>}. */
    static final java.util.regex.Pattern PLACEHOLDER = java.util.regex.Pattern.compile("^<[^>]*>$");

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
        } else if (node instanceof org.snakeyaml.engine.v2.nodes.MappingNode mapping) {
            mapping.getValue().forEach(t -> {
                placeholders(in, t.getKeyNode(), variant);
                placeholders(in, t.getValueNode(), variant);
            });
        } else if (node instanceof SequenceNode sequence) {
            sequence.getValue().forEach(n -> placeholders(in, n, variant));
        }
    }

    private static boolean knownParam(YamlReader in, Node at, String name, Set<String> known, boolean check) {
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

    /** A @Param's values: one scalar or a list of them (JMH's -p name=v1,v2). */
    private static Optional<List<String>> paramValues(YamlReader in, Node node, String where) {
        if (node instanceof SequenceNode) {
            List<String> values = new ArrayList<>();
            in.nonEmptySequence(node, where)
                    .ifPresent(
                            items -> items.forEach(i -> in.scalarText(i, where).ifPresent(values::add)));
            return values.isEmpty() ? Optional.empty() : Optional.of(values);
        }
        return in.scalarText(node, where).map(List::of);
    }

    /** One regex or a list of them, each compiled to report a bad one where it is written. */
    private static List<String> patterns(YamlReader in, NodeTuple tuple, String where) {
        if (tuple == null) {
            return List.of();
        }
        Node node = tuple.getValueNode();
        List<Node> items = node instanceof SequenceNode s ? s.getValue() : List.of(node);
        List<String> out = new ArrayList<>();
        for (Node item : items) {
            in.string(item, where).ifPresent(text -> {
                try {
                    Pattern.compile(text);
                    out.add(text);
                } catch (PatternSyntaxException e) {
                    in.error(
                            item,
                            where + " '" + text + "' is not a regular expression: " + e.getDescription(),
                            "JMH matches these as Java regexes against class.method, e.g. 'MyBenchmark\\.run'");
                }
            });
        }
        return out;
    }

    private static OptionalInt count(YamlReader in, Map<String, NodeTuple> f, String key, String where, long min) {
        return Sections.field(f, key)
                .flatMap(n -> in.integer(n, where + "." + key, min, 10_000))
                .map(v -> OptionalInt.of(v.intValue()))
                .orElse(OptionalInt.empty());
    }

    private static Optional<String> time(YamlReader in, Node node, String where) {
        return in.scalarText(node, where).filter(text -> {
            if (!JMH_TIME.matcher(text).matches()) {
                in.error(
                        node, where + " '" + text + "' is not a JMH time", "write a number with a unit: 500ms, 1s, 2m");
                return false;
            }
            return true;
        });
    }
}
