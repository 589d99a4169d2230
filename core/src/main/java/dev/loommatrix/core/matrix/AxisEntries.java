package dev.loommatrix.core.matrix;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;

/** {@code include} and {@code exclude}: entries of axis values, checked against what the matrix defines. */
final class AxisEntries {

    /** The axes of the cross product, in the contract's order: the keys include/exclude entries may name. */
    static final List<String> AXES = AxisEntry.AXES;

    static final List<String> INCLUDE_EXTRA_KEYS = List.of("jvmArgs", "env");

    private AxisEntries() {}

    /** include / exclude entries: axis keys with values that exist; include may add jvmArgs and env. */
    static List<AxisEntry> of(
            YamlReader in,
            List<Node> items,
            String what,
            boolean include,
            Set<String> knownJdks,
            List<JdkEntry> jdks,
            List<WorkloadSpec> workloads) {
        Defined context = new Defined(include, knownJdks, jdks, workloads);
        List<AxisEntry> entries = new ArrayList<>();
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
            fields.get().forEach((key, tuple) -> value(in, tuple.getValueNode(), where, key, context)
                    .ifPresent(v -> entry.put(key, v)));
            entries.add(toEntry(entry));
        }
        return entries;
    }

    /** What an entry's values are checked against: the JDKs and workloads it may name. */
    private record Defined(boolean include, Set<String> knownJdks, List<JdkEntry> jdks, List<WorkloadSpec> workloads) {}

    /** One key's value, parsed and checked (empty when reported). */
    private static Optional<?> value(YamlReader in, Node value, String where, String key, Defined defined) {
        String at = where + "." + key;
        return switch (key) {
            case "jdk" -> in.string(value, at).filter(id -> definedJdk(in, value, where, id, defined));
            case "workload" -> in.string(value, at).filter(id -> definedWorkload(in, value, where, id, defined));
            case "os" -> in.oneOf(value, at, Sections.OS);
            case "cpus" -> in.cpuQuota(value, at).map(BigDecimal::toPlainString);
            case "cpuset" -> Values.cpuList(in, value, at);
            case "parallelism", "maxPoolSize", "minRunnable" -> Values.schedulerValue(in, value, at);
            case "jvmArgs" -> in.stringList(value, at);
            case "env" -> in.stringMap(value, at);
            default -> Optional.empty();
        };
    }

    /**
     * An include names a JDK of this matrix; an exclude may also name one of the base matrix's (a profile may
     * have replaced its jdks).
     */
    private static boolean definedJdk(YamlReader in, Node value, String where, String id, Defined defined) {
        Set<String> ids = defined.include()
                ? defined.jdks().stream()
                        .map(JdkEntry::id)
                        .collect(java.util.stream.Collectors.toCollection(java.util.LinkedHashSet::new))
                : defined.knownJdks();
        if (!ids.contains(id)) {
            in.error(
                    value,
                    where + " refers to jdk '" + id + "', which is not defined" + YamlReader.didYouMeanSuffix(id, ids),
                    "jdk ids defined: " + String.join(", ", ids));
            return false;
        }
        return true;
    }

    private static boolean definedWorkload(YamlReader in, Node value, String where, String id, Defined defined) {
        // exclude may name a built-in a profile left out; either may name the matrix's own workloads (a user's, too)
        List<String> ids = new ArrayList<>(defined.include() ? List.of() : Workloads.ids());
        defined.workloads().stream()
                .map(WorkloadSpec::id)
                .filter(w -> !ids.contains(w))
                .forEach(ids::add);
        if (!ids.contains(id)) {
            in.error(
                    value,
                    where + " refers to workload '" + id + "', which is not "
                            + (defined.include() ? "in workloads" : "a known workload")
                            + YamlReader.didYouMeanSuffix(id, ids),
                    "workloads: " + String.join(", ", ids));
            return false;
        }
        return true;
    }

    /** The parsed values as the typed entry: axes as text, what an include adds as lists and maps. */
    @SuppressWarnings("unchecked")
    private static AxisEntry toEntry(Map<String, Object> parsed) {
        Map<String, String> axes = new LinkedHashMap<>();
        parsed.forEach((key, value) -> {
            if (AXES.contains(key)) {
                axes.put(key, (String) value);
            }
        });
        return new AxisEntry(axes, (List<String>) parsed.getOrDefault("jvmArgs", List.of()), (Map<String, String>)
                parsed.getOrDefault("env", Map.of()));
    }
}
