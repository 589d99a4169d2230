package dev.loommatrix.runner.records;

import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.EnvironmentRecord.Check;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Whether each variant's own switch took effect inside its JVMs (issue #49), as the cell's limits and scheduler
 * settings are attested: a system property a variant sets and nothing in its JVMs read is a failed check (the cell
 * is not attested), and a variant whose only difference from the baseline is such a property changed nothing — its
 * numbers are the baseline's code measured again under another name, so the cell is invalid rather than a result.
 * A property some class of the code under test may have read from its own copy of all properties (Spring copies
 * them into its configuration) is given the benefit of the doubt, and said. Environment variables cannot be watched
 * and are taken as set.
 */
final class VariantSwitches {

    /** The checks for the cell's attestation, and the variants that changed nothing, each with why. */
    record Judgement(List<Check> checks, Map<String, String> changedNothing) {}

    private VariantSwitches() {}

    static Judgement judge(Cell cell, List<VariantRuns> runs) {
        UserWorkload user = cell.workload().user().orElseThrow();
        List<Check> checks = new ArrayList<>();
        Map<String, Set<String>> unread = new LinkedHashMap<>();
        Map<String, Integer> jvmsOf = new LinkedHashMap<>();
        for (VariantRuns variant : runs) {
            Map<String, String> properties = user.settings(variant.variant()).codeProperties();
            // the JVMs whose agent watched the properties (an older harness's agent says nothing: no claim)
            List<AgentRecord> watched = variant.runs().stream()
                    .flatMap(r -> r.all().stream())
                    .filter(r -> !r.propertyReads().isEmpty())
                    .toList();
            if (properties.isEmpty() || watched.isEmpty()) {
                continue;
            }
            jvmsOf.put(variant.variant(), watched.size());
            for (var property : properties.entrySet()) {
                String name = property.getKey();
                boolean read = watched.stream()
                        .anyMatch(r -> r.propertyReads().containsKey(name)
                                && r.propertyReads().get(name).read());
                Optional<String> listedBy = watched.stream()
                        .map(r -> r.propertyReads().get(name))
                        .filter(p -> p != null && p.listedBy().isPresent())
                        .map(p -> p.listedBy().get())
                        .findFirst();
                boolean ok = read || listedBy.isPresent();
                checks.add(propertyCheck(variant.variant(), property, read, listedBy, watched.size()));
                if (!ok) {
                    unread.computeIfAbsent(variant.variant(), v -> new LinkedHashSet<>())
                            .add(name);
                } else if (listedBy.isEmpty()) {
                    checks.addAll(perBenchmark(cell, variant.variant(), name, property.getValue(), watched));
                }
            }
        }
        return new Judgement(List.copyOf(checks), changedNothing(user, runs, unread, jvmsOf));
    }

    /** A variant's own system property, as its JVMs' agents saw it: read, maybe read from a copy, or read by nothing. */
    private static Check propertyCheck(
            String variant, Map.Entry<String, String> property, boolean read, Optional<String> listedBy, int jvms) {
        String observed = read
                ? "read"
                : listedBy.map(c -> "not asked for by name, but " + c + " listed all system properties (it"
                                + " may read it from its copy)")
                        .orElse("read by nothing in its " + jvms(jvms));
        boolean ok = read || listedBy.isPresent();
        return new Check(
                "variant " + variant + ": system property " + property.getKey(),
                property.getValue() + " (for the code under test to read)",
                observed,
                ok,
                Optional.of(
                        ok
                                ? "the agent watched the JVM's reads of the variant's own properties"
                                : "nothing in the JVM asked for this property, so it switched nothing: the"
                                        + " code reads another name, or none (a @Param, an environment"
                                        + " variable, its own configuration file)"));
    }

    /**
     * The variants whose every difference from the baseline is a property nothing read, each with why: their numbers
     * are the baseline's code measured again.
     */
    private static Map<String, String> changedNothing(
            UserWorkload user, List<VariantRuns> runs, Map<String, Set<String>> unread, Map<String, Integer> jvmsOf) {
        Map<String, String> changedNothing = new LinkedHashMap<>();
        String baseline = user.baseline();
        for (VariantRuns variant : runs) {
            String name = variant.variant();
            if (name.equals(baseline)
                    || !unread.containsKey(name)
                    || !user.variants().containsKey(baseline)) {
                continue;
            }
            Set<String> differences = effectiveDifferences(user.settings(name), user.settings(baseline));
            if (!differences.isEmpty() && unread.get(name).containsAll(differences)) {
                changedNothing.put(
                        name,
                        "changed nothing: its only difference from the baseline " + baseline + " is "
                                + describe(user.settings(name), unread.get(name)) + ", which nothing in its "
                                + jvms(jvmsOf.get(name)) + " read, so its numbers are "
                                + baseline + "'s code measured again; name the property your code reads (or use"
                                + " a @Param, jvmArgs or env)");
            }
        }
        return changedNothing;
    }

    /**
     * A JMH suite's benchmarks share a JVM (issue #49): a property read while one of them ran switches none of the
     * others, which then run alike in every variant under its name. Where every read happened under a benchmark of
     * the selection, each selected benchmark none of them happened under is a failed check. Reads outside any
     * benchmark (a static initializer, another thread) or under a benchmark the selection does not name are not
     * attributed, and nothing is claimed.
     */
    static List<Check> perBenchmark(Cell cell, String variant, String name, String value, List<AgentRecord> watched) {
        UserWorkload user = cell.workload().user().orElseThrow();
        if (!(user.artifact() instanceof UserWorkload.Jmh jmh)) {
            return List.of();
        }
        List<String> benchmarks = jmh.benchmarksOf(user.settings(variant)); // a method variant runs its own
        if (benchmarks.size() < 2) {
            return List.of();
        }
        List<PropertyRead> reads = watched.stream()
                .map(r -> r.propertyReads().get(name))
                .filter(r -> r != null && r.read())
                .toList();
        Map<String, String> byGenerated = new LinkedHashMap<>();
        benchmarks.forEach(b -> byGenerated.put(generatedClass(b), b));
        Set<String> during = new LinkedHashSet<>();
        reads.forEach(r -> during.addAll(r.readDuring()));
        if (reads.isEmpty()
                || reads.stream().anyMatch(PropertyRead::readElsewhere)
                || !byGenerated.keySet().containsAll(during)) {
            return List.of();
        }
        List<String> readUnder = during.stream().map(byGenerated::get).toList();
        List<Check> out = new ArrayList<>();
        byGenerated.forEach((generated, benchmark) -> {
            if (!during.contains(generated)) {
                out.add(new Check(
                        "variant " + variant + ": system property " + name + ", for " + benchmark,
                        value + " (for the benchmark to read)",
                        "read while " + String.join(", ", readUnder) + " ran, never while " + benchmark + " ran",
                        false,
                        Optional.of("a suite's benchmarks share the JVM: a property one of them reads switches no"
                                + " other, so this one ran alike in every variant; select only the benchmarks that"
                                + " read it (include), or switch this one with what it reads (a @Param)")));
            }
        });
        return out;
    }

    /** The class JMH generates for a benchmark {@code pkg.Class.method}: {@code pkg.jmh_generated.Class_method_jmhTest}. */
    static String generatedClass(String benchmark) {
        int method = benchmark.lastIndexOf('.');
        int cls = benchmark.lastIndexOf('.', method - 1);
        String pkg = cls < 0 ? "" : benchmark.substring(0, cls + 1);
        return pkg + "jmh_generated." + benchmark.substring(cls + 1, method) + "_" + benchmark.substring(method + 1)
                + "_jmhTest";
    }

    /**
     * What the variant could have changed against the baseline: the names of its own properties whose values differ,
     * and {@code "*"} when anything else differs (JVM options, environment, arguments, @Params, the method).
     */
    static Set<String> effectiveDifferences(UserWorkload.VariantSettings variant, UserWorkload.VariantSettings base) {
        Set<String> out = new LinkedHashSet<>();
        if (!variant.jvmOptions().equals(base.jvmOptions())
                || !variant.env().equals(base.env())
                || !variant.args().equals(base.args())
                || !variant.params().equals(base.params())
                || !variant.method().equals(base.method())) {
            out.add("*");
        }
        Map<String, String> mine = variant.codeProperties();
        Map<String, String> theirs = base.codeProperties();
        Set<String> names = new LinkedHashSet<>(mine.keySet());
        names.addAll(theirs.keySet());
        for (String name : names) {
            if (!java.util.Objects.equals(mine.get(name), theirs.get(name))) {
                out.add(name);
            }
        }
        return out;
    }

    private static String describe(UserWorkload.VariantSettings settings, Set<String> names) {
        List<String> parts = new ArrayList<>();
        names.forEach(n -> parts.add(n + "=" + settings.codeProperties().get(n)));
        return (parts.size() == 1 ? "the system property " : "the system properties ") + String.join(", ", parts);
    }

    private static String jvms(int n) {
        return n == 1 ? "JVM" : n + " JVMs";
    }
}
