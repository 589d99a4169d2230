package dev.loommatrix.core.matrix;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 * A user workload's {@code jmh:} — the user's JMH suite: the jar, which of its benchmarks run (held against the jar's
 * own list), their {@code @Param} values (held against the benchmarks' own), and JMH's settings.
 */
final class JmhEntries {

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

    /** JMH's TimeValue as its -w / -r options take it. */
    private static final Pattern JMH_TIME = Pattern.compile("[1-9][0-9]*(ns|us|ms|s|m|min|hr)");

    private JmhEntries() {}

    /** The benchmarks the patterns select: their names, and (when every pattern compiled) the benchmarks. */
    private record Selected(List<String> names, List<JmhJar.Benchmark> held) {}

    /**
     * The entry's JMH settings; {@code paramNames} receives the selected benchmarks' @Param names, {@code selection}
     * the benchmarks, {@code listed} every benchmark the jar lists (a variant's method is held to them).
     */
    static Optional<UserWorkload.Artifact> jmh(
            YamlReader in,
            Node node,
            String where,
            Path base,
            Set<String> paramNames,
            List<JmhJar.Benchmark> selection,
            List<JmhJar.Benchmark> listed) {
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
        jar.ifPresent(j -> listed.addAll(j.benchmarks()));
        int problemsBefore = in.problems().size();
        List<String> include = patterns(in, f.get("include"), where + ".include");
        List<String> exclude = patterns(in, f.get("exclude"), where + ".exclude");
        // a pattern that did not compile leaves a selection that is not the user's: its variants are not held to it
        boolean patternsHold = in.problems().size() == problemsBefore;
        List<String> selected = new ArrayList<>();
        jar.ifPresent(j -> select(in, f, j, jarPath.get(), include, exclude).forEach(b -> {
            selected.add(b.name());
            paramNames.addAll(b.params());
            if (patternsHold) {
                selection.add(b);
            }
        }));
        Map<String, List<String>> params = params(in, f, where, paramNames, jar.isPresent() && !selected.isEmpty());
        // the settings are read (and their problems said) even when the jar or its selection is not usable
        Optional<Path> usable = jarPath.filter(p -> jar.isPresent() && !selected.isEmpty());
        return settings(in, f, where, usable, include, exclude, params, selected);
    }

    /** The jar's benchmarks the patterns select; none is a problem, said with what the jar lists. */
    private static List<JmhJar.Benchmark> select(
            YamlReader in,
            Map<String, NodeTuple> f,
            JmhJar j,
            Path jarPath,
            List<String> include,
            List<String> exclude) {
        List<JmhJar.Benchmark> chosen = j.select(include, exclude);
        if (chosen.isEmpty()) {
            Node at = f.containsKey("include")
                    ? f.get("include").getValueNode()
                    : f.get("jar").getValueNode();
            in.error(
                    at,
                    "no benchmark in " + jarPath.getFileName() + " matches include " + include
                            + (exclude.isEmpty() ? "" : " without exclude " + exclude),
                    "the jar lists: "
                            + String.join(
                                    ", ",
                                    j.benchmarks().stream()
                                            .map(JmhJar.Benchmark::name)
                                            .limit(20)
                                            .toList()));
        }
        return chosen;
    }

    /** {@code params: {NAME: value or [values]}}, each a @Param of a selected benchmark ({@code check}: when known). */
    private static Map<String, List<String>> params(
            YamlReader in, Map<String, NodeTuple> f, String where, Set<String> paramNames, boolean check) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        Sections.field(f, "params")
                .flatMap(n -> in.mapping(n, where + ".params", List.of()))
                .ifPresent(entries -> entries.forEach((name, tuple) -> {
                    if (UserVariants.knownParam(in, tuple.getKeyNode(), name, paramNames, check)) {
                        paramValues(in, tuple.getValueNode(), where + ".params." + name)
                                .ifPresent(v -> params.put(name, v));
                    }
                }));
        return params;
    }

    /**
     * JMH's own settings (mode, time unit, iterations, times, threads, forks, profilers) with the rest of the entry;
     * empty when the jar or its selection is not usable.
     */
    private static Optional<UserWorkload.Artifact> settings(
            YamlReader in,
            Map<String, NodeTuple> f,
            String where,
            Optional<Path> jar,
            List<String> include,
            List<String> exclude,
            Map<String, List<String>> params,
            List<String> selected) {
        Optional<String> mode =
                Sections.field(f, "mode").flatMap(n -> in.oneOf(n, where + ".mode", UserWorkload.Jmh.MODES));
        Optional<String> timeUnit = Sections.field(f, "timeUnit")
                .flatMap(n -> in.oneOf(n, where + ".timeUnit", UserWorkload.Jmh.TIME_UNITS));
        OptionalInt warmupIterations = count(in, f, "warmupIterations", where, 0);
        OptionalInt iterations = count(in, f, "iterations", where, 1);
        Optional<String> warmupTime = Sections.field(f, "warmupTime").flatMap(n -> time(in, n, where + ".warmupTime"));
        Optional<String> time = Sections.field(f, "time").flatMap(n -> time(in, n, where + ".time"));
        OptionalInt threads = count(in, f, "threads", where, 1);
        OptionalInt forks = forks(in, f, where);
        List<String> profilers = Sections.field(f, "profilers")
                .flatMap(n -> in.stringList(n, where + ".profilers"))
                .orElse(List.of());
        if (jar.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new UserWorkload.Jmh(
                jar.get(),
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

    /** {@code forks: N}, or {@code suite} for the suite's own (empty); 0 when not said. */
    private static OptionalInt forks(YamlReader in, Map<String, NodeTuple> f, String where) {
        if (!f.containsKey("forks")) {
            return OptionalInt.of(0);
        }
        Node n = f.get("forks").getValueNode();
        if (n instanceof ScalarNode s && s.getValue().equals("suite")) {
            return OptionalInt.empty();
        }
        return in.integer(n, where + ".forks", 0, 100)
                .map(v -> OptionalInt.of(v.intValue()))
                .orElse(OptionalInt.of(0));
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
