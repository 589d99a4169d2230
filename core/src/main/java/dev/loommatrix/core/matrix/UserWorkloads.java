package dev.loommatrix.core.matrix;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;

/**
 * A {@code workloads} entry that names the user's code ({@code jmh:} or {@code program:}) instead of a
 * built-in id. Everything that can be checked before a cell starts is checked here, with the position in
 * the file: the jar exists and is one, JMH is in it, the patterns select benchmarks, the parameters exist,
 * every variant sets something. The artifact's section is read by {@link JmhEntries}, {@link ProgramEntries} or
 * {@link ServiceWorkloads}, the variants by {@link UserVariants}.
 */
final class UserWorkloads {

    static final List<String> KEYS =
            List.of("id", "jmh", "program", "service", "load", "variants", "baseline", "headline", "enabled");
    static final List<String> HEADLINE_KEYS = List.of("subject", "words");

    private UserWorkloads() {}

    /** Whether a workloads entry names the user's code (checked without reporting anything). */
    static boolean isUserEntry(Node item) {
        return item instanceof MappingNode m
                && m.getValue().stream()
                        .anyMatch(t -> t.getKeyNode() instanceof ScalarNode k
                                && (k.getValue().equals("jmh")
                                        || k.getValue().equals("program")
                                        || k.getValue().equals("service")));
    }

    static Optional<WorkloadSpec> read(
            YamlReader in, Node item, Map<String, NodeTuple> fields, String where, Path matrixFile) {
        unknownKeys(in, fields, where);
        Optional<String> kind = kind(in, fields, where);
        if (kind.isEmpty()) {
            return Optional.empty();
        }
        Optional<String> id = id(in, item, fields, where);
        Path base = Optional.ofNullable(matrixFile.toAbsolutePath().getParent()).orElse(Path.of("."));
        // the @Param names of the benchmarks the entry selects, read from the jar with it, for its variants
        Set<String> paramNames = new LinkedHashSet<>();
        List<JmhJar.Benchmark> selection = new ArrayList<>();
        List<JmhJar.Benchmark> listed = new ArrayList<>();
        Optional<UserWorkload.Artifact> artifact =
                switch (kind.get()) {
                    case "jmh" ->
                        JmhEntries.jmh(
                                in,
                                fields.get("jmh").getValueNode(),
                                where + ".jmh",
                                base,
                                paramNames,
                                selection,
                                listed);
                    case "service" -> ServiceWorkloads.service(in, item, fields, where, base);
                    default ->
                        ProgramEntries.program(in, fields.get("program").getValueNode(), where + ".program", base);
                };
        boolean isJmh = kind.get().equals("jmh");
        Optional<Set<String>> jmhParams =
                artifact.filter(a -> a instanceof UserWorkload.Jmh).map(a -> paramNames);
        List<JmhJar.Benchmark> selectedBenchmarks = artifact.isPresent() ? List.copyOf(selection) : List.of();
        Map<String, UserWorkload.VariantSettings> variants =
                UserVariants.read(in, item, fields, where, isJmh, jmhParams, selectedBenchmarks, List.copyOf(listed));
        String chosen = baseline(in, item, fields, where, variants.keySet());
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
                                artifact.get(), in.where(fields.get(kind.get()).getKeyNode()))))));
    }

    private static void unknownKeys(YamlReader in, Map<String, NodeTuple> fields, String where) {
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
    }

    /** Which artifact the entry runs ({@code jmh}, {@code program} or {@code service}); empty when it names two. */
    private static Optional<String> kind(YamlReader in, Map<String, NodeTuple> fields, String where) {
        List<String> kinds = Stream.of("jmh", "program", "service")
                .filter(fields::containsKey)
                .toList();
        if (kinds.size() > 1) {
            in.error(
                    fields.get(kinds.get(1)).getKeyNode(),
                    where + " names both " + kinds.get(0) + " and " + kinds.get(1),
                    "one workload entry runs one artifact; make two entries");
            return Optional.empty();
        }
        if (fields.containsKey("load") && !kinds.get(0).equals("service")) {
            in.error(
                    fields.get("load").getKeyNode(),
                    where + " has a load but no service",
                    "load: goes with service: (the server it loads); a JMH suite or program loads itself");
        }
        return Optional.of(kinds.get(0));
    }

    /** The entry's id: its own, never a built-in workload's. */
    private static Optional<String> id(YamlReader in, Node item, Map<String, NodeTuple> fields, String where) {
        return Sections.requiredField(in, item, fields, "id", where)
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
    }

    /**
     * The variant the others' speedups are over: the entry's {@code baseline}, which must be one of its variants and
     * must be said when there are two or more; else the one variant there is ("" when there is none).
     */
    private static String baseline(
            YamlReader in, Node item, Map<String, NodeTuple> fields, String where, Set<String> variants) {
        Optional<String> baseline = Sections.field(fields, "baseline")
                .flatMap(n -> in.string(n, where + ".baseline").filter(name -> {
                    if (!variants.isEmpty() && !variants.contains(name)) {
                        in.error(
                                n,
                                "baseline '" + name + "' is not one of " + where + "'s variants"
                                        + YamlReader.didYouMeanSuffix(name, variants),
                                "variants: " + String.join(", ", variants));
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
        return baseline.orElse(variants.isEmpty() ? "" : variants.iterator().next());
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
}
