package dev.loommatrix.runner.init;

import dev.loommatrix.core.matrix.JmhJar;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The variants {@code init} writes for a team's code: what switches it between thread kinds, as far as init can tell. */
final class StarterVariants {

    private StarterVariants() {}

    /** What init cannot know and the team must write: refused by the matrix reader until it is filled in. */
    static final String PLACEHOLDER = "<property your code reads>";

    /**
     * The variants' lines of a starter entry. A @Param that looks like the thread kind, with the values the jar
     * declares for it (issue #54: init guessed VIRTUAL and PLATFORM and asked the team to check): one variant a
     * value, the virtual one first, the baseline the first of the others; without the values, the guess, said as
     * one. No such @Param: a placeholder for the system property the code reads (issue #49: a made-up name such as
     * {@code threads}, which nothing read, was measured as if it switched the code; {@code validate} refuses the
     * placeholder, and each run checks the property was read).
     */
    static String of(Optional<String> param, List<String> values) {
        StringBuilder y = new StringBuilder();
        y.append("    # What switches your code between thread kinds: a system property it reads, a @Param of the\n");
        y.append("    # benchmark (params: {threadType: VIRTUAL}), JVM options (jvmArgs: [...]) or env. Every run\n");
        y.append("    # checks inside each JVM that a variant's system properties were read.\n");
        y.append("    variants:\n");
        List<ParamVariant> known = param.isPresent() ? paramVariants(values) : List.of();
        if (!known.isEmpty()) {
            y.append("      # the values the jar declares for @Param ")
                    .append(param.get())
                    .append('\n');
            for (ParamVariant v : known) {
                y.append("      ")
                        .append(v.name())
                        .append(": {params: {")
                        .append(param.get())
                        .append(": ")
                        .append(v.value())
                        .append("}}\n");
            }
            known.stream()
                    .filter(v -> !v.name().equals("virtual"))
                    .findFirst()
                    .ifPresent(b -> y.append("    baseline: ").append(b.name()).append('\n'));
            return y.toString();
        }
        if (param.isPresent()) {
            y.append("      virtual: {params: {")
                    .append(param.get())
                    .append(": VIRTUAL}}     # check the values it takes\n");
            y.append("      platform: {params: {").append(param.get()).append(": PLATFORM}}\n");
        } else {
            y.append("      # fill in: the property's name in place of ")
                    .append(PLACEHOLDER)
                    .append('\n');
            y.append("      virtual: {properties: {\"").append(PLACEHOLDER).append("\": virtual}}\n");
            y.append("      platform: {properties: {\"").append(PLACEHOLDER).append("\": platform}}\n");
        }
        y.append("    baseline: platform\n");
        return y.toString();
    }

    /** A variant init writes for one declared value of the thread-kind @Param. */
    record ParamVariant(String name, String value) {}

    /**
     * One variant a declared value, the virtual one first and named {@code virtual}; the others by their value in
     * lower case ({@code PLATFORM} → {@code platform}). None when no value says virtual: then it is not the
     * thread kind's switch, or not one init can read.
     */
    static List<ParamVariant> paramVariants(List<String> values) {
        Optional<String> virtual = values.stream()
                .filter(v -> v.toLowerCase(Locale.ROOT).contains("virtual"))
                .findFirst();
        if (virtual.isEmpty() || values.size() < 2) {
            return List.of();
        }
        List<ParamVariant> out = new ArrayList<>();
        out.add(new ParamVariant("virtual", yamlScalar(virtual.get())));
        for (String v : values) {
            String name =
                    v.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9:-]+", "-").replaceAll("^-+|-+$", "");
            if (!v.equals(virtual.get())
                    && !name.isEmpty()
                    && out.stream().noneMatch(o -> o.name().equals(name))) {
                out.add(new ParamVariant(name, yamlScalar(v)));
            }
        }
        return out.size() < 2 ? List.of() : out;
    }

    /** A value as a YAML scalar: plain where it reads back as the same string, else quoted. */
    private static String yamlScalar(String v) {
        return v.matches("[A-Za-z_][A-Za-z0-9_.-]*") && !v.matches("(?i)true|false|yes|no|on|off|null|~")
                ? v
                : "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    /** The values the benchmarks declare for a @Param, in the order declared, each once. */
    static List<String> declaredValues(List<JmhJar.Benchmark> benchmarks, String param) {
        return benchmarks.stream()
                .flatMap(b -> b.values().getOrDefault(param, List.of()).stream())
                .distinct()
                .toList();
    }

    /** The first @Param whose name says thread: the thread kind's switch, as far as a name tells. */
    static Optional<String> threadParam(List<JmhJar.Benchmark> benchmarks) {
        return benchmarks.stream()
                .flatMap(b -> b.params().stream())
                .filter(p -> p.toLowerCase(Locale.ROOT).contains("thread"))
                .findFirst();
    }

    /** Whether init wrote the project's variants from what its jar declares: then there is nothing to fill in. */
    static boolean known(Starter.Project project) {
        if (!(project instanceof Starter.Jmh jmh)) {
            return false;
        }
        // a benchmark without the @Param declares none of its values: the whole list gives the switched ones'
        return threadParam(jmh.benchmarks())
                .map(p -> !paramVariants(declaredValues(jmh.benchmarks(), p)).isEmpty())
                .orElse(false);
    }
}
