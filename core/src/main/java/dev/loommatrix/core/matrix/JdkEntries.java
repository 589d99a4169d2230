package dev.loommatrix.core.matrix;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;

/** The {@code jdks} section: each entry's JDK, VM and version, how to get it and how to run it. */
final class JdkEntries {

    static final List<String> JDK_KEYS = List.of(
            "id", "vm", "version", "image", "setup-java", "jvmArgs", "env", "javaHome", "javaToolOptions", "runsOn");
    static final List<String> VMS = List.of("hotspot", "openj9");

    private JdkEntries() {}

    static List<JdkEntry> read(YamlReader in, Node node) {
        List<JdkEntry> jdks = new ArrayList<>();
        Map<String, Node> seen = new LinkedHashMap<>();
        in.nonEmptySequence(node, "jdks").ifPresent(items -> {
            for (int i = 0; i < items.size(); i++) {
                String where = "jdks[" + i + "]";
                Node item = items.get(i);
                in.mapping(item, where, JDK_KEYS)
                        .flatMap(fields -> entry(in, item, fields, where, seen))
                        .ifPresent(jdks::add);
            }
        });
        return jdks;
    }

    /** One jdks entry; empty when it has a problem or repeats an id in {@code seen} (both reported). */
    private static Optional<JdkEntry> entry(
            YamlReader in, Node item, Map<String, NodeTuple> fields, String where, Map<String, Node> seen) {
        Optional<String> id =
                Sections.requiredField(in, item, fields, "id", where).flatMap(n -> Sections.id(in, n, where + ".id"));
        Optional<String> vm =
                Sections.requiredField(in, item, fields, "vm", where).flatMap(n -> in.oneOf(n, where + ".vm", VMS));
        Optional<Long> version = Sections.requiredField(in, item, fields, "version", where)
                .flatMap(n -> in.integer(n, where + ".version", 21, 99));
        Optional<String> image = Sections.field(fields, "image").flatMap(n -> in.string(n, where + ".image"));
        Map<String, String> setupJava = Sections.field(fields, "setup-java")
                .flatMap(n -> in.stringMap(n, where + ".setup-java"))
                .orElse(Map.of());
        List<String> jvmArgs = Sections.field(fields, "jvmArgs")
                .flatMap(n -> in.stringList(n, where + ".jvmArgs"))
                .orElse(List.of());
        Map<String, String> env = Sections.field(fields, "env")
                .flatMap(n -> in.stringMap(n, where + ".env"))
                .orElse(Map.of());
        Optional<String> javaHome = Sections.field(fields, "javaHome").flatMap(n -> in.string(n, where + ".javaHome"));
        Optional<String> javaToolOptions =
                Sections.field(fields, "javaToolOptions").flatMap(n -> in.string(n, where + ".javaToolOptions"));
        Map<String, String> runsOn = Sections.field(fields, "runsOn")
                .map(n -> runsOn(in, n, where + ".runsOn"))
                .orElse(Map.of());
        if (env.containsKey("JAVA_TOOL_OPTIONS") && javaToolOptions.isPresent()) {
            in.error(
                    fields.get("javaToolOptions").getValueNode(),
                    "JAVA_TOOL_OPTIONS is set twice, in env and in javaToolOptions",
                    "keep javaToolOptions and remove it from env");
        }
        if (id.isPresent() && seen.containsKey(id.get())) {
            duplicate(in, fields.get("id").getValueNode(), id.get(), seen.get(id.get()));
            return Optional.empty();
        }
        if (id.isEmpty() || vm.isEmpty() || version.isEmpty()) {
            return Optional.empty();
        }
        seen.put(id.get(), fields.get("id").getValueNode());
        return Optional.of(new JdkEntry(
                id.get(),
                JdkEntry.Vm.valueOf(vm.get().toUpperCase(Locale.ROOT)),
                version.get().intValue(),
                image,
                setupJava,
                jvmArgs,
                env,
                javaHome,
                javaToolOptions,
                runsOn));
    }

    private static void duplicate(YamlReader in, Node at, String id, Node first) {
        in.error(
                at,
                "duplicate jdk id '" + id + "'",
                "first defined at line "
                        + (first.getStartMark().map(m -> m.getLine() + 1).orElse(0)) + "; ids must be unique");
    }

    /**
     * The GitHub runner label for this JDK's cells: one label for every OS, or a map from OS to label (a
     * self-hosted machine for Linux cells, say). OS names are checked.
     */
    static Map<String, String> runsOn(YamlReader in, Node node, String where) {
        if (node instanceof org.snakeyaml.engine.v2.nodes.ScalarNode) {
            return in.string(node, where)
                    .map(label -> {
                        Map<String, String> all = new LinkedHashMap<>();
                        Sections.OS.forEach(os -> all.put(os, label));
                        return all;
                    })
                    .orElse(Map.of());
        }
        Map<String, String> byOs = new LinkedHashMap<>();
        in.mapping(node, where, Sections.OS)
                .ifPresent(fields -> fields.forEach((os, t) ->
                        in.string(t.getValueNode(), where + "." + os).ifPresent(label -> byOs.put(os, label))));
        return byOs;
    }
}
