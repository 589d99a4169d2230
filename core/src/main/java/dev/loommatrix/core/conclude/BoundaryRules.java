package dev.loommatrix.core.conclude;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where a workload's conclusion changes along the matrix's axes, in the fewest rules that explain every condition
 * (issue #51: "pays off on JDK 25 at every CPU limit; on JDK 21 it hurts"). The rules are the leaves of the smallest
 * decision tree over the axes whose conditions agree: one rule when nothing changes, one per class when one axis
 * decides, nested clauses when it takes two. Conditions whose conclusions differ at the same coordinates (which no
 * axis can split) each keep a rule of their own, so nothing is hidden.
 */
public final class BoundaryRules {

    private BoundaryRules() {}

    /** A condition of the workload: its value on each axis that varies, its conclusion, and what it stands for. */
    public record Placed<T>(Map<String, String> axes, Conclusion conclusion, T what) {
        public Placed {
            axes = Map.copyOf(axes);
        }
    }

    /** One clause of a rule: the axis, and the values it holds for. */
    public record Clause(String axis, List<String> values) {
        public Clause {
            values = List.copyOf(values);
        }
    }

    /** Where (every clause holds; none: everywhere), the conclusion there, and the conditions it covers. */
    public record Rule<T>(List<Clause> where, Conclusion conclusion, List<Placed<T>> conditions) {
        public Rule {
            where = List.copyOf(where);
            conditions = List.copyOf(conditions);
        }
    }

    /**
     * The fewest rules over the given axes (in the order a tie prefers them) that give every condition its
     * conclusion.
     */
    public static <T> List<Rule<T>> of(List<Placed<T>> conditions, List<String> axes) {
        if (conditions.isEmpty()) {
            return List.of();
        }
        List<Rule<T>> rules = new ArrayList<>();
        for (Node<T> leaf : best(conditions, axes).leaves(List.of())) {
            rules.add(new Rule<>(leaf.path, leaf.conclusion, leaf.conditions));
        }
        return rules;
    }

    /** A tree's node: a leaf (a conclusion for its conditions), or a split on an axis. */
    private static final class Node<T> {
        final Conclusion conclusion; // a leaf's; null for a split
        final List<Placed<T>> conditions;
        final String axis; // a split's
        final List<Map.Entry<List<String>, Node<T>>> children;
        List<Clause> path = List.of();

        private Node(
                Conclusion conclusion,
                List<Placed<T>> conditions,
                String axis,
                List<Map.Entry<List<String>, Node<T>>> children) {
            this.conclusion = conclusion;
            this.conditions = conditions;
            this.axis = axis;
            this.children = children;
        }

        static <T> Node<T> leaf(Conclusion conclusion, List<Placed<T>> conditions) {
            return new Node<>(conclusion, List.copyOf(conditions), null, List.of());
        }

        int size() {
            return conclusion != null
                    ? 1
                    : children.stream().mapToInt(c -> c.getValue().size()).sum();
        }

        List<Node<T>> leaves(List<Clause> above) {
            if (conclusion != null) {
                path = above;
                return List.of(this);
            }
            List<Node<T>> out = new ArrayList<>();
            for (var child : children) {
                List<Clause> here = new ArrayList<>(above);
                if (axis != null) { // null: conditions no axis tells apart, each conclusion where they are
                    here.add(new Clause(axis, child.getKey()));
                }
                out.addAll(child.getValue().leaves(here));
            }
            return out;
        }
    }

    private static <T> Node<T> best(List<Placed<T>> conditions, List<String> axes) {
        Set<Conclusion> classes = new LinkedHashSet<>();
        conditions.forEach(c -> classes.add(c.conclusion()));
        if (classes.size() == 1) {
            return Node.leaf(classes.iterator().next(), conditions);
        }
        Node<T> best = null;
        for (String axis : axes) {
            Map<String, List<Placed<T>>> groups = new LinkedHashMap<>();
            conditions.forEach(c -> groups.computeIfAbsent(c.axes().getOrDefault(axis, ""), v -> new ArrayList<>())
                    .add(c));
            if (groups.size() < 2) {
                continue;
            }
            List<String> rest = axes.stream().filter(a -> !a.equals(axis)).toList();
            Node<T> split = split(axis, groups, rest);
            if (best == null || split.size() < best.size()) {
                best = split;
            }
        }
        return best != null ? best : contradicting(conditions);
    }

    /** A split on an axis whose values' subtrees are built; values whose subtrees are one same conclusion merge. */
    private static <T> Node<T> split(String axis, Map<String, List<Placed<T>>> groups, List<String> rest) {
        List<Map.Entry<List<String>, Node<T>>> children = new ArrayList<>();
        Map<Conclusion, Integer> leafAt = new LinkedHashMap<>();
        for (var group : groups.entrySet()) {
            Node<T> child = best(group.getValue(), rest);
            Integer at = child.conclusion != null ? leafAt.get(child.conclusion) : null;
            if (at != null) {
                var merged = children.get(at);
                List<String> values = new ArrayList<>(merged.getKey());
                values.add(group.getKey());
                List<Placed<T>> all = new ArrayList<>(merged.getValue().conditions);
                all.addAll(child.conditions);
                children.set(at, Map.entry(values, Node.leaf(child.conclusion, all)));
            } else {
                if (child.conclusion != null) {
                    leafAt.put(child.conclusion, children.size());
                }
                children.add(Map.entry(List.of(group.getKey()), child));
            }
        }
        return new Node<>(null, List.of(), axis, children);
    }

    /** Conditions no axis tells apart but whose conclusions differ: a leaf for each conclusion, said as it is. */
    private static <T> Node<T> contradicting(List<Placed<T>> conditions) {
        Map<Conclusion, List<Placed<T>>> byClass = new LinkedHashMap<>();
        conditions.forEach(c ->
                byClass.computeIfAbsent(c.conclusion(), k -> new ArrayList<>()).add(c));
        List<Map.Entry<List<String>, Node<T>>> children = new ArrayList<>();
        byClass.forEach((conclusion, placed) -> children.add(Map.entry(List.of(), Node.leaf(conclusion, placed))));
        return new Node<>(null, List.of(), null, children);
    }
}
