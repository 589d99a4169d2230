package dev.loommatrix.core.matrix;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.commons.text.similarity.LevenshteinDistance;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * Typed access to a YAML node tree that records a positioned {@link Problem} for everything wrong
 * instead of stopping at the first. Each accessor returns empty when the node was unusable.
 */
final class YamlReader {

    private final String file;
    private final List<Problem> problems = new ArrayList<>();

    YamlReader(String file) {
        this.file = file;
    }

    List<Problem> problems() {
        return problems;
    }

    /** Where a node is, for a problem found after reading (see {@link ClassFiles.Needs}). */
    Problem.Where where(Node at) {
        Optional<Mark> mark = at == null ? Optional.empty() : at.getStartMark();
        return new Problem.Where(
                file,
                mark.map(m -> m.getLine() + 1).orElse(1),
                mark.map(m -> m.getColumn() + 1).orElse(1));
    }

    void error(Node at, String message) {
        error(at, message, null);
    }

    void error(Node at, String message, String hint) {
        Optional<Mark> mark = at == null ? Optional.empty() : at.getStartMark();
        int line = mark.map(m -> m.getLine() + 1).orElse(1);
        int column = mark.map(m -> m.getColumn() + 1).orElse(1);
        problems.add(new Problem(file, line, column, message, Optional.ofNullable(hint)));
    }

    /** How a file the matrix names at {@code relative} is shown in messages: beside the matrix as it was named. */
    String besideMatrix(String relative) {
        java.nio.file.Path parent = java.nio.file.Path.of(file).getParent();
        return parent == null ? relative : parent.resolve(relative).normalize().toString();
    }

    /** A problem found in another file the matrix names (its position is in that file). */
    void problem(Problem problem) {
        problems.add(problem);
    }

    void error(Mark mark, String message, String hint) {
        problems.add(new Problem(file, mark.getLine() + 1, mark.getColumn() + 1, message, Optional.ofNullable(hint)));
    }

    /** The mapping's entries by key; unknown and duplicate keys are reported. */
    Optional<Map<String, NodeTuple>> mapping(Node node, String where, Collection<String> allowed) {
        if (!(node instanceof MappingNode mapping)) {
            error(node, where + " must be a mapping (key: value), found " + describe(node));
            return Optional.empty();
        }
        Map<String, NodeTuple> entries = new LinkedHashMap<>();
        for (NodeTuple tuple : mapping.getValue()) {
            if (!(tuple.getKeyNode() instanceof ScalarNode keyNode)) {
                error(tuple.getKeyNode(), "keys in " + where + " must be plain names");
                continue;
            }
            String key = keyNode.getValue();
            if (!allowed.isEmpty() && !allowed.contains(key)) {
                error(
                        keyNode,
                        "unknown key '" + key + "' in " + where + didYouMeanSuffix(key, allowed),
                        "allowed keys: " + String.join(", ", allowed));
                continue;
            }
            if (entries.containsKey(key)) {
                error(
                        keyNode,
                        "duplicate key '" + key + "' in " + where,
                        "each key may appear once; remove one of them");
                continue;
            }
            entries.put(key, tuple);
        }
        return Optional.of(entries);
    }

    Optional<List<Node>> sequence(Node node, String where) {
        if (node instanceof SequenceNode sequence) {
            return Optional.of(sequence.getValue());
        }
        error(
                node,
                where + " must be a list, found " + describe(node),
                "write a list as [a, b] or one '- item' per line");
        return Optional.empty();
    }

    /** A non-empty list; a scalar is not silently promoted, because `cpus: 2` vs `cpus: [2]` should be one spelling. */
    Optional<List<Node>> nonEmptySequence(Node node, String where) {
        Optional<List<Node>> items = sequence(node, where);
        if (items.isPresent() && items.get().isEmpty()) {
            error(
                    node,
                    where + " must not be empty",
                    "an axis needs at least one value; remove the key to use the default");
            return Optional.empty();
        }
        return items;
    }

    Optional<String> string(Node node, String where) {
        if (node instanceof ScalarNode scalar && !scalar.getTag().equals(Tag.NULL)) {
            return Optional.of(scalar.getValue());
        }
        error(node, where + " must be a text value, found " + describe(node));
        return Optional.empty();
    }

    Optional<Long> integer(Node node, String where, long min, long max) {
        if (node instanceof ScalarNode scalar && scalar.getTag().equals(Tag.INT)) {
            try {
                long value = Long.parseLong(scalar.getValue().replace("_", ""));
                if (value < min || value > max) {
                    error(node, where + " must be between " + min + " and " + max + ", got " + value);
                    return Optional.empty();
                }
                return Optional.of(value);
            } catch (NumberFormatException e) {
                if (scalar.getValue().replace("_", "").matches("[-+]?[0-9]+")) {
                    error(
                            node,
                            where + " is too large: it must be between " + min + " and " + max + ", got "
                                    + scalar.getValue());
                    return Optional.empty();
                }
                // else falls through to the type error below
            }
        }
        error(node, where + " must be a whole number, found " + describe(node));
        return Optional.empty();
    }

    /** The most CPUs a quota can name: Linux's largest NR_CPUS. */
    static final BigDecimal MAX_CPUS = BigDecimal.valueOf(8192);
    /** The smallest quota Docker sets ({@code --cpus 0.01}). */
    static final BigDecimal MIN_CPUS = new BigDecimal("0.01");

    /** A CPU quota: a positive number of CPUs, from 0.01 to 8192, to a thousandth at most. */
    Optional<BigDecimal> cpuQuota(Node node, String where) {
        if (node instanceof ScalarNode scalar
                && (scalar.getTag().equals(Tag.INT) || scalar.getTag().equals(Tag.FLOAT))) {
            try {
                BigDecimal value = new BigDecimal(scalar.getValue());
                if (value.signum() <= 0) {
                    error(
                            node,
                            where + " must be greater than 0, got " + scalar.getValue(),
                            "a CPU quota is a positive number such as 1, 2 or 1.5");
                    return Optional.empty();
                }
                if (value.compareTo(MAX_CPUS) > 0
                        || value.compareTo(MIN_CPUS) < 0
                        || value.stripTrailingZeros().scale() > 3) {
                    error(
                            node,
                            where + " " + scalar.getValue() + " is not a CPU quota a cell can have",
                            "a quota is from 0.01 to 8192 CPUs (Docker's smallest, Linux's most), to a thousandth at most");
                    return Optional.empty();
                }
                return Optional.of(value.stripTrailingZeros());
            } catch (NumberFormatException e) {
                // falls through
            }
        }
        error(node, where + " must be a number, found " + describe(node));
        return Optional.empty();
    }

    Optional<Boolean> bool(Node node, String where) {
        if (node instanceof ScalarNode scalar && scalar.getTag().equals(Tag.BOOL)) {
            return Optional.of(Boolean.parseBoolean(scalar.getValue()));
        }
        error(node, where + " must be true or false, found " + describe(node));
        return Optional.empty();
    }

    Optional<String> oneOf(Node node, String where, List<String> allowed) {
        return string(node, where).flatMap(value -> {
            if (allowed.contains(value)) {
                return Optional.of(value);
            }
            error(
                    node,
                    where + " must be one of " + String.join(", ", allowed) + ", got '" + value + "'"
                            + didYouMeanSuffix(value, allowed));
            return Optional.empty();
        });
    }

    Optional<Map<String, String>> stringMap(Node node, String where) {
        return mapping(node, where, List.of()).map(entries -> {
            Map<String, String> map = new LinkedHashMap<>();
            entries.forEach((k, tuple) ->
                    scalarText(tuple.getValueNode(), where + "." + k).ifPresent(v -> map.put(k, v)));
            return map;
        });
    }

    Optional<List<String>> stringList(Node node, String where) {
        return sequence(node, where).map(items -> {
            List<String> list = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                string(items.get(i), where + "[" + i + "]").ifPresent(list::add);
            }
            return list;
        });
    }

    /** Any scalar as text (numbers and booleans too: env values and setup-java inputs are strings to their users). */
    Optional<String> scalarText(Node node, String where) {
        if (node instanceof ScalarNode scalar && !scalar.getTag().equals(Tag.NULL)) {
            return Optional.of(scalar.getValue());
        }
        error(node, where + " must be a single value, found " + describe(node));
        return Optional.empty();
    }

    static String describe(Node node) {
        if (node instanceof MappingNode) {
            return "a mapping";
        }
        if (node instanceof SequenceNode) {
            return "a list";
        }
        if (node instanceof ScalarNode scalar) {
            if (scalar.getTag().equals(Tag.NULL)) {
                return "nothing";
            }
            String kind = scalar.getTag().equals(Tag.INT)
                    ? "number "
                    : scalar.getTag().equals(Tag.FLOAT)
                            ? "number "
                            : scalar.getTag().equals(Tag.BOOL) ? "boolean " : "text ";
            return kind + "'" + scalar.getValue() + "'";
        }
        return "nothing";
    }

    /** " (did you mean 'x'?)" when a candidate is close to what was given, else nothing: ends a message. */
    static String didYouMeanSuffix(String given, Collection<String> candidates) {
        return didYouMean(given, candidates)
                .map(s -> " (did you mean '" + s + "'?)")
                .orElse("");
    }

    static Optional<String> didYouMean(String given, Collection<String> candidates) {
        LevenshteinDistance distance = LevenshteinDistance.getDefaultInstance();
        return candidates.stream()
                .filter(c -> c.equalsIgnoreCase(given)
                        || distance.apply(
                                        c.toLowerCase(java.util.Locale.ROOT), given.toLowerCase(java.util.Locale.ROOT))
                                <= Math.max(2, given.length() / 3))
                .min(Comparator.comparingInt(c -> distance.apply(
                        c.toLowerCase(java.util.Locale.ROOT), given.toLowerCase(java.util.Locale.ROOT))));
    }
}
