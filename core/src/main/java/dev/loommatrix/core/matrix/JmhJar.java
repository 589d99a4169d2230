package dev.loommatrix.core.matrix;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.zip.ZipException;
import org.openjdk.jmh.runner.BenchmarkListEntry;

/**
 * What a JMH uber-jar holds, read without running it: JMH's launcher ({@code org.openjdk.jmh.Main}) and
 * the benchmarks its annotation processor listed in {@code META-INF/BenchmarkList}, each with its
 * {@code @Param} names. Lets the matrix be checked before a cell starts: a jar that is not one, a jar
 * without JMH, a pattern that selects nothing, a parameter no benchmark has.
 */
public record JmhJar(List<Benchmark> benchmarks) {

    static final String BENCHMARK_LIST = "META-INF/BenchmarkList";
    static final String JMH_MAIN = "org/openjdk/jmh/Main.class";

    /**
     * One listed benchmark: {@code class.method} as JMH names it in results, its mode, its parameters' names and,
     * where the jar's list says them, each parameter's declared values ({@code @Param({"VIRTUAL", "PLATFORM"})}).
     */
    public record Benchmark(String name, String mode, Set<String> params, Map<String, List<String>> values) {
        public Benchmark {
            params = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(params));
            values = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
        }

        /** A benchmark whose parameters' values are not known. */
        public Benchmark(String name, String mode, Set<String> params) {
            this(name, mode, params, Map.of());
        }

        /** JMH's include pattern for this benchmark alone: its class's simple name and method, {@code C\\.m$}. */
        public String includePattern() {
            int method = name.lastIndexOf('.');
            int simple = name.lastIndexOf('.', method - 1);
            return name.substring(simple + 1, method) + "\\." + name.substring(method + 1) + "$";
        }
    }

    /** Why a file cannot serve as a JMH jar, said so a user knows what to do. */
    public static final class NotUsable extends Exception {
        private static final long serialVersionUID = 1L;
        private final String hint;

        NotUsable(String message, String hint) {
            super(message);
            this.hint = hint;
        }

        public String hint() {
            return hint;
        }
    }

    public static JmhJar read(Path jar) throws NotUsable {
        if (!Files.exists(jar)) {
            throw new NotUsable(
                    "jar " + jar + " does not exist",
                    "build it first (e.g. 'mvn package' makes target/benchmarks.jar); paths are relative to the matrix file");
        }
        if (!Files.isRegularFile(jar)) {
            throw new NotUsable("jar " + jar + " is not a file", "name the uber-jar, not its directory");
        }
        try (JarFile file = new JarFile(jar.toFile())) {
            if (file.getEntry(JMH_MAIN) == null) {
                throw new NotUsable(
                        "jar " + jar + " does not contain JMH (no " + JMH_MAIN + ")",
                        "use the uber-jar the JMH build makes (maven-shade-plugin or the Gradle JMH plugin's jmhJar), "
                                + "not the plain project jar");
            }
            var list = file.getEntry(BENCHMARK_LIST);
            if (list == null) {
                throw new NotUsable(
                        "jar " + jar + " lists no benchmarks (no " + BENCHMARK_LIST + ")",
                        "JMH's annotation processor (jmh-generator-annprocess) must run when the jar is built; javac 23 and"
                                + " later run processors only when asked: list it in annotationProcessorPaths or pass -proc:full");
            }
            try (InputStream in = file.getInputStream(list)) {
                return new JmhJar(parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
            }
        } catch (ZipException e) {
            throw new NotUsable("file " + jar + " is not a jar (" + e.getMessage() + ")", "name a .jar file");
        } catch (IOException e) {
            throw new NotUsable("could not read jar " + jar + ": " + e.getMessage(), "check the file's permissions");
        }
    }

    /**
     * The BenchmarkList's lines, each read by JMH's own reader ({@link BenchmarkListEntry}), which gives the
     * parameters' declared values too. A line it cannot read — a list written by another JMH version — is read by
     * its tokens: {@code JMH S <len> <class> S <len> <generated> S <len> <method> S <len> <mode> …}, with the
     * parameters as {@code M <count>} then per parameter {@code <len> <name> <values>} and that many encoded values;
     * that gives the name and the parameters' names, not their values.
     */
    static List<Benchmark> parse(String text) {
        List<Benchmark> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            try {
                BenchmarkListEntry entry = new BenchmarkListEntry(line.trim());
                Map<String, String[]> declared =
                        entry.getParams().hasValue() ? entry.getParams().get() : Map.of();
                // in the order the list has them (JMH's map has an order of its own)
                Map<String, List<String>> values = new LinkedHashMap<>();
                for (String name : paramNames(line.trim().split(" "))) {
                    if (declared.containsKey(name)) {
                        values.put(name, List.of(declared.get(name)));
                    }
                }
                declared.forEach((name, v) -> values.putIfAbsent(name, List.of(v)));
                out.add(new Benchmark(entry.getUsername(), entry.getMode().name(), values.keySet(), values));
            } catch (RuntimeException e) {
                byTokens(line).ifPresent(out::add);
            }
        }
        return out;
    }

    private static Optional<Benchmark> byTokens(String line) {
        String[] t = line.trim().split(" ");
        if (t.length < 13 || !t[0].equals("JMH") || !t[1].equals("S") || !t[7].equals("S")) {
            return Optional.empty();
        }
        return Optional.of(new Benchmark(t[3] + "." + t[9], t[12], paramNames(t)));
    }

    private static Set<String> paramNames(String[] t) {
        Set<String> names = new LinkedHashSet<>();
        for (int i = 13; i < t.length - 1; i++) {
            if (t[i].equals("M") && t[i + 1].matches("[0-9]+")) {
                int count = Integer.parseInt(t[i + 1]);
                int at = i + 2;
                try {
                    for (int p = 0; p < count; p++) {
                        names.add(t[at + 1]);
                        int values = Integer.parseInt(t[at + 2]);
                        at += 3 + 2 * values;
                    }
                    return names;
                } catch (RuntimeException e) {
                    names.clear(); // not a params block after all: keep looking
                }
            }
        }
        return names;
    }

    /** The benchmarks JMH would run for these patterns: an include matches anywhere in the name. */
    public List<Benchmark> select(List<String> include, List<String> exclude) {
        List<java.util.regex.Pattern> in =
                include.stream().map(java.util.regex.Pattern::compile).toList();
        List<java.util.regex.Pattern> out =
                exclude.stream().map(java.util.regex.Pattern::compile).toList();
        Map<String, Benchmark> selected = new LinkedHashMap<>();
        for (Benchmark b : benchmarks) {
            boolean included = in.isEmpty()
                    || in.stream().anyMatch(p -> p.matcher(b.name()).find());
            boolean excluded = out.stream().anyMatch(p -> p.matcher(b.name()).find());
            if (included && !excluded) {
                selected.putIfAbsent(b.name(), b);
            }
        }
        return List.copyOf(selected.values());
    }

    public Optional<Benchmark> benchmark(String name) {
        return benchmarks.stream().filter(b -> b.name().equals(name)).findFirst();
    }
}
