package dev.loommatrix.core.matrix;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * Profiles, merged onto the node tree before anything is read: maps merge key by key, lists and scalars
 * are replaced, and a profile's {@code workloads} is a map from workload id to fields merged into that
 * workload — so a later problem still points at the line that caused it, in the profile or the file.
 */
final class Profiles {

    static final List<String> PROFILE_KEYS = MatrixParser.TOP_KEYS.stream()
            .filter(k -> !k.equals("schema") && !k.equals("profiles"))
            .toList();
    static final List<String> PROFILE_WORKLOAD_KEYS = List.of("variants", "params", "iterations", "enabled");
    /** A user workload's profile changes: e.g. fewer JMH iterations for pull requests. */
    static final List<String> PROFILE_USER_WORKLOAD_KEYS =
            List.of("jmh", "program", "service", "load", "variants", "baseline", "enabled");

    private Profiles() {}

    static Map<String, NodeTuple> apply(YamlReader in, Node root, Map<String, NodeTuple> top, String name) {
        NodeTuple profilesTuple = top.get("profiles");
        Map<String, NodeTuple> profiles = profilesTuple == null
                ? Map.of()
                : in.mapping(profilesTuple.getValueNode(), "profiles", List.of())
                        .orElse(Map.of());
        NodeTuple chosen = profiles.get(name);
        if (chosen == null) {
            in.error(
                    profilesTuple == null ? root : profilesTuple.getKeyNode(),
                    "unknown profile '" + name + "'" + YamlReader.didYouMeanSuffix(name, profiles.keySet()),
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
    static Node mergeWorkloads(YamlReader in, NodeTuple base, Node override, String profile) {
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
                                + YamlReader.didYouMeanSuffix(id, items.keySet()),
                        "workloads in this file: " + String.join(", ", items.keySet()));
                continue;
            }
            Map<String, NodeTuple> fields = in.mapping(
                            changes,
                            "profile '" + profile + "'.workloads." + id,
                            UserWorkloads.isUserEntry(existing) ? PROFILE_USER_WORKLOAD_KEYS : PROFILE_WORKLOAD_KEYS)
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

    static String keyOf(NodeTuple tuple) {
        return tuple.getKeyNode() instanceof ScalarNode s
                ? s.getValue()
                : tuple.getKeyNode().toString();
    }

    static Optional<String> idOf(Node item) {
        if (item instanceof MappingNode m) {
            for (NodeTuple t : m.getValue()) {
                if (keyOf(t).equals("id") && t.getValueNode() instanceof ScalarNode v) {
                    return Optional.of(v.getValue());
                }
            }
        }
        return Optional.empty();
    }
}
