package dev.loommatrix.core.matrix;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;

/**
 * A {@code load:}'s {@code capacity:} (issue #52): the objective a rate must meet, the range of rates to search and
 * the precision, each checked with its position in the file.
 *
 * <pre>
 * capacity:
 *   objective: {p99: 500ms, p99.9: 2s, errors: 0.1%}
 *   from: 50
 *   to: 6400
 *   precision: 10%
 * </pre>
 */
final class CapacityEntries {

    static final List<String> KEYS = List.of("objective", "from", "to", "precision");
    /** The objective's percentile keys as written, and as the load reports key them. */
    static final Map<String, String> PERCENTILES =
            Map.of("p50", "50", "p90", "90", "p99", "99", "p99.9", "99.9", "max", "100");

    static final List<String> OBJECTIVE_KEYS = List.of("p50", "p90", "p99", "p99.9", "max", "errors");

    private static final Pattern LATENCY = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*(ms|s)");
    private static final String HINT =
            "capacity: {objective: {p99: 500ms, errors: 0.1%}, from: 50, to: 6400, " + "precision: 10%}";

    private CapacityEntries() {}

    static Optional<ServiceLoad.Model> capacity(YamlReader in, Node node, String where, int connections) {
        Map<String, NodeTuple> f = in.mapping(node, where, KEYS).orElse(null);
        if (f == null) {
            return Optional.empty();
        }
        Optional<ServiceLoad.Objective> objective = Sections.requiredField(in, node, f, "objective", where)
                .flatMap(n -> objective(in, n, where + ".objective"));
        Optional<Double> from =
                Sections.requiredField(in, node, f, "from", where).flatMap(n -> rate(in, n, where + ".from"));
        Optional<Double> to = Sections.requiredField(in, node, f, "to", where).flatMap(n -> rate(in, n, where + ".to"));
        Optional<Double> precision = Sections.field(f, "precision")
                .flatMap(n -> precision(in, n, where + ".precision"))
                .or(() -> f.containsKey("precision")
                        ? Optional.empty()
                        : Optional.of(ServiceLoad.Capacity.DEFAULT_PRECISION));
        if (objective.isEmpty() || from.isEmpty() || to.isEmpty() || precision.isEmpty()) {
            return Optional.empty();
        }
        if (to.get() <= from.get()) {
            in.error(
                    f.get("to").getValueNode(),
                    where + ".to must be above from (" + plain(from.get()) + " requests/s)",
                    "the range the search may look in, e.g. from: 50, to: 6400");
            return Optional.empty();
        }
        return Optional.of(
                new ServiceLoad.Capacity(objective.get(), from.get(), to.get(), precision.get(), connections));
    }

    private static Optional<ServiceLoad.Objective> objective(YamlReader in, Node node, String where) {
        Map<String, NodeTuple> f = in.mapping(node, where, OBJECTIVE_KEYS).orElse(null);
        if (f == null) {
            return Optional.empty();
        }
        Map<String, Double> latency = new LinkedHashMap<>();
        boolean ok = true;
        for (String key : OBJECTIVE_KEYS) {
            if (key.equals("errors") || !f.containsKey(key)) {
                continue;
            }
            Optional<Double> ms = latency(in, f.get(key).getValueNode(), where + "." + key);
            ms.ifPresent(v -> latency.put(PERCENTILES.get(key), v));
            ok &= ms.isPresent();
        }
        if (ok && latency.isEmpty()) {
            in.error(
                    node,
                    where + " bounds no latency",
                    "bound at least one percentile, e.g. objective: {p99: 500ms, errors: 0.1%}");
            return Optional.empty();
        }
        Optional<Double> errors = Sections.field(f, "errors")
                .flatMap(n -> errorShare(in, n, where + ".errors"))
                .or(() -> f.containsKey("errors")
                        ? Optional.empty()
                        : Optional.of(ServiceLoad.Objective.DEFAULT_ERROR_SHARE));
        if (!ok || errors.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ServiceLoad.Objective(latency, errors.get()));
    }

    private static Optional<Double> latency(YamlReader in, Node node, String where) {
        return in.scalarText(node, where).flatMap(text -> {
            Matcher m = LATENCY.matcher(text.trim());
            if (m.matches()) {
                double ms = Double.parseDouble(m.group(1)) * (m.group(2).equals("s") ? 1000 : 1);
                if (ms > 0 && ms <= 3_600_000) {
                    return Optional.of(ms);
                }
            }
            in.error(node, where + " '" + text + "' is not a latency bound", "a time with its unit: 500ms, 1.5s");
            return Optional.empty();
        });
    }

    private static Optional<Double> errorShare(YamlReader in, Node node, String where) {
        return Values.share(in, node, where, 0, "e.g. errors: 0.1% (at most one request in a thousand may fail)");
    }

    private static Optional<Double> precision(YamlReader in, Node node, String where) {
        return Values.share(in, node, where, 0.005, "e.g. precision: 10% (the capacity is known to within 10 %)")
                .filter(p -> p <= 0.5 || fail(in, node, where + " above 50 % would not bisect at all", "e.g. 10%"));
    }

    private static boolean fail(YamlReader in, Node node, String message, String hint) {
        in.error(node, message, hint);
        return false;
    }

    private static Optional<Double> rate(YamlReader in, Node node, String where) {
        return in.scalarText(node, where).flatMap(text -> {
            try {
                double rate = Double.parseDouble(text.replace("_", "").trim());
                if (rate >= 1 && rate <= 10_000_000) {
                    return Optional.of(rate);
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            in.error(node, where + " must be a rate of 1 to 10000000 requests per second, found '" + text + "'", HINT);
            return Optional.empty();
        });
    }

    private static String plain(double rate) {
        return rate == Math.rint(rate) ? String.valueOf((long) rate) : String.valueOf(rate);
    }
}
