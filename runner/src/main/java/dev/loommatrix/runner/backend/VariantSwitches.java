package dev.loommatrix.runner.backend;

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

    static Judgement judge(Cell cell, List<UserResults.VariantRuns> runs) {
        UserWorkload user = cell.workload().user().orElseThrow();
        List<Check> checks = new ArrayList<>();
        Map<String, Set<String>> unread = new LinkedHashMap<>();
        Map<String, Integer> jvmsOf = new LinkedHashMap<>();
        for (UserResults.VariantRuns variant : runs) {
            Map<String, String> properties = user.settings(variant.variant()).codeProperties();
            // the JVMs whose agent watched the properties (an older harness's agent says nothing: no claim)
            List<UserResults.AgentRecord> watched = variant.runs().stream()
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
                String observed = read
                        ? "read"
                        : listedBy.map(c -> "not asked for by name, but " + c + " listed all system properties (it"
                                        + " may read it from its copy)")
                                .orElse("read by nothing in its " + jvms(watched.size()));
                boolean ok = read || listedBy.isPresent();
                checks.add(new Check(
                        "variant " + variant.variant() + ": system property " + name,
                        property.getValue() + " (for the code under test to read)",
                        observed,
                        ok,
                        Optional.of(
                                ok
                                        ? "the agent watched the JVM's reads of the variant's own properties"
                                        : "nothing in the JVM asked for this property, so it switched nothing: the"
                                                + " code reads another name, or none (a @Param, an environment"
                                                + " variable, its own configuration file)")));
                if (!ok) {
                    unread.computeIfAbsent(variant.variant(), v -> new LinkedHashSet<>())
                            .add(name);
                }
            }
        }
        Map<String, String> changedNothing = new LinkedHashMap<>();
        String baseline = user.baseline();
        for (UserResults.VariantRuns variant : runs) {
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
        return new Judgement(List.copyOf(checks), changedNothing);
    }

    /**
     * What the variant could have changed against the baseline: the names of its own properties whose values differ,
     * and {@code "*"} when anything else differs (JVM options, environment, arguments, @Params).
     */
    static Set<String> effectiveDifferences(UserWorkload.VariantSettings variant, UserWorkload.VariantSettings base) {
        Set<String> out = new LinkedHashSet<>();
        if (!variant.jvmOptions().equals(base.jvmOptions())
                || !variant.env().equals(base.env())
                || !variant.args().equals(base.args())
                || !variant.params().equals(base.params())) {
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
