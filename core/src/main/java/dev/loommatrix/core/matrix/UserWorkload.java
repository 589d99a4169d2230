package dev.loommatrix.core.matrix;

import dev.loommatrix.core.stats.MetricDescriptor;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A workload that is the user's own code: a JMH uber-jar or a program. Its variants are named JVM
 * configurations, one of them the baseline every other variant's speedup is taken against.
 *
 * @param variants each variant's settings, in the file's order
 * @param baseline the variant the others are compared with ("speedup of virtual" over it)
 * @param contrast the headline contrast: the entry's {@code headline}, else {@code virtual} (or the first other
 *     variant) over the baseline
 */
public record UserWorkload(
        Artifact artifact,
        Map<String, VariantSettings> variants,
        String baseline,
        Contrast contrast,
        Optional<ClassFiles.Needs> needs) {

    public UserWorkload {
        variants = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(variants));
        needs = needs == null ? Optional.empty() : needs;
    }

    /** A workload whose classes were not read (a built-in service's, which every JDK of the matrix runs). */
    public UserWorkload(Artifact artifact, Map<String, VariantSettings> variants, String baseline, Contrast contrast) {
        this(artifact, variants, baseline, contrast, Optional.empty());
    }

    /** The contrast of an entry that declares none: virtual threads (or the first other variant) over the baseline. */
    public static Contrast defaultContrast(java.util.Collection<String> variants, String baseline) {
        String subject = variants.contains("virtual") && !baseline.equals("virtual")
                ? "virtual"
                : variants.stream().filter(v -> !v.equals(baseline)).findFirst().orElse(baseline);
        return Contrast.over(subject, baseline, subject + " vs the baseline " + baseline);
    }

    /** What runs: the user's files and how to start them. */
    public sealed interface Artifact permits Jmh, Program, Service {
        /** The host files (jars, classpath directories) that enter the cell, absolute, in order. */
        List<Path> files();
    }

    /**
     * A JMH uber-jar (the JMH Maven archetype's shade setup, or the Gradle JMH plugin's jar). Absent
     * options leave the suite's own annotations in charge.
     *
     * @param benchmarks the benchmarks the jar lists that the include/exclude patterns select, found in its
     *     {@code META-INF/BenchmarkList} when the matrix was read; each must produce a score in every run
     * @param forks JMH forks inside each of the cell's fresh JVMs; 0 (the default) measures in the JVM the
     *     runner started, so each repetition is one fork; empty keeps the suite's own {@code @Fork}
     */
    public record Jmh(
            Path jar,
            List<String> include,
            List<String> exclude,
            Map<String, List<String>> params,
            Optional<String> mode,
            Optional<String> timeUnit,
            OptionalInt warmupIterations,
            OptionalInt iterations,
            Optional<String> warmupTime,
            Optional<String> time,
            OptionalInt threads,
            OptionalInt forks,
            List<String> profilers,
            List<String> benchmarks)
            implements Artifact {

        /** JMH's mode names as its {@code -bm} option takes them. */
        public static final List<String> MODES = List.of("thrpt", "avgt", "sample", "ss");

        /** JMH's {@code -tu} values. */
        public static final List<String> TIME_UNITS = List.of("ns", "us", "ms", "s", "m");

        public Jmh {
            include = List.copyOf(include);
            exclude = List.copyOf(exclude);
            params = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(params));
            profilers = List.copyOf(profilers);
            benchmarks = List.copyOf(benchmarks);
        }

        @Override
        public List<Path> files() {
            return List.of(jar);
        }

        /**
         * The benchmarks a variant runs, as JMH names them: the selection, or where the variant names its method,
         * that method of each selected class.
         */
        public List<String> benchmarksOf(VariantSettings variant) {
            return variant.method()
                    .map(m -> benchmarks.stream()
                            .map(Jmh::classOf)
                            .distinct()
                            .map(c -> c + "." + m)
                            .toList())
                    .orElse(benchmarks);
        }

        /** A benchmark's class: {@code com.example.Bench} of {@code com.example.Bench.run}. */
        public static String classOf(String benchmark) {
            int dot = benchmark.lastIndexOf('.');
            return dot < 0 ? benchmark : benchmark.substring(0, dot);
        }
    }

    /**
     * A program: a runnable jar, or a classpath with a main class. Always timed as a process; it may also
     * report its own numbers in Bencher Metric Format to the file named by {@link #METRICS_FILE_ENV}.
     *
     * @param metrics the numbers it reports, with unit and direction; the first is the one it is judged by,
     *     none means it is judged by its process time
     */
    public record Program(
            Optional<Path> jar,
            List<Path> classpath,
            Optional<String> mainClass,
            List<String> args,
            Map<String, MetricDescriptor> metrics)
            implements Artifact {

        /** The environment variable that names the file a program writes its metrics to. */
        public static final String METRICS_FILE_ENV = "LOOM_METRICS_FILE";

        public Program {
            classpath = List.copyOf(classpath);
            args = List.copyOf(args);
            metrics = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        }

        @Override
        public List<Path> files() {
            return jar.map(List::of).orElse(classpath);
        }

        /** The metric the program is judged by: its first declared one, else its process time. */
        public MetricDescriptor judgedBy() {
            return metrics.values().stream().findFirst().orElse(MetricDescriptor.PROCESS_MS);
        }
    }

    /**
     * A service (issue #28): a server JVM started fresh for every repetition, loaded from outside by a load
     * generator once it answers its readiness check. Its numbers are the generator's (throughput, latency
     * percentiles, errors) and the server JVM's own record through the agent.
     *
     * @param env the server's environment, under every variant's own
     * @param port the port the server listens on
     * @param ready when the server counts as started
     * @param startTimeout how long it may take to become ready before its cell fails with its log
     * @param throughputBounds where a variant's throughput bound is known (a built-in service: Little's law,
     *     min(users, threads) / handler time), that bound in requests per second; a user's service has none
     */
    public record Service(
            Optional<Path> jar,
            List<Path> classpath,
            Optional<String> mainClass,
            List<String> args,
            Map<String, String> env,
            int port,
            Readiness ready,
            java.time.Duration startTimeout,
            ServiceLoad load,
            Map<String, Double> throughputBounds)
            implements Artifact {

        public Service {
            classpath = List.copyOf(classpath);
            args = List.copyOf(args);
            env = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(env));
            throughputBounds = Map.copyOf(throughputBounds);
        }

        /** A user's service: no bound is known for its throughput. */
        public Service(
                Optional<Path> jar,
                List<Path> classpath,
                Optional<String> mainClass,
                List<String> args,
                Map<String, String> env,
                int port,
                Readiness ready,
                java.time.Duration startTimeout,
                ServiceLoad load) {
            this(jar, classpath, mainClass, args, env, port, ready, startTimeout, load, Map.of());
        }

        /** What the server JVM is started from: its jar, or its classpath. */
        public List<Path> launchFiles() {
            return jar.map(List::of).orElse(classpath);
        }

        /** The launch's files, then the load's URLs file, which the generator reads (and a side's digest covers). */
        @Override
        public List<Path> files() {
            List<Path> files = new java.util.ArrayList<>(launchFiles());
            load.urlsFile().ifPresent(u -> files.add(u.file()));
            return List.copyOf(files);
        }
    }

    /** When a service counts as started. */
    public sealed interface Readiness {
        /** An HTTP GET of {@code path} answers with {@code status}. */
        record Http(String path, int status) implements Readiness {}

        /** A TCP connection to the port is accepted. */
        record Tcp() implements Readiness {}
    }

    /**
     * One named JVM configuration. The variant's name also reaches the JVM as {@code -Dloom.variant=NAME}.
     *
     * @param params JMH {@code @Param} values (JMH only): many suites switch thread kinds with their own
     * @param method the benchmark method this variant runs in each selected class (JMH only): suites that write
     *     their alternatives as methods ({@code synchronizedBlock} beside {@code reentrantLock}) are contrasted by
     *     class, each variant measuring its own method
     */
    public record VariantSettings(
            List<String> jvmArgs,
            Map<String, String> properties,
            Map<String, String> env,
            List<String> args,
            Map<String, String> params,
            Optional<String> method) {

        public VariantSettings {
            jvmArgs = List.copyOf(jvmArgs);
            properties = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(properties));
            env = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(env));
            args = List.copyOf(args);
            params = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(params));
            method = method == null ? Optional.empty() : method;
        }

        /** A variant that runs every selected benchmark (it names no method of its own). */
        public VariantSettings(
                List<String> jvmArgs,
                Map<String, String> properties,
                Map<String, String> env,
                List<String> args,
                Map<String, String> params) {
            this(jvmArgs, properties, env, args, params, Optional.empty());
        }

        /**
         * The system properties the variant sets for the code under test to read (issue #49): its {@code
         * properties} and any {@code -Dname=value} among its {@code jvmArgs}, less the JVM's own ({@link
         * #jvmOwnProperty}). The agent says of each whether anything in the JVM read it.
         */
        public Map<String, String> codeProperties() {
            Map<String, String> out = new LinkedHashMap<>();
            for (String arg : jvmArgs) {
                if (arg.startsWith("-D") && arg.length() > 2) {
                    int eq = arg.indexOf('=');
                    out.put(eq < 0 ? arg.substring(2) : arg.substring(2, eq), eq < 0 ? "" : arg.substring(eq + 1));
                }
            }
            out.putAll(properties);
            out.keySet().removeIf(VariantSettings::jvmOwnProperty);
            return out;
        }

        /** The JVM arguments that are not such a property: options the JVM itself takes effect from. */
        public List<String> jvmOptions() {
            return jvmArgs.stream()
                    .filter(a -> !(a.startsWith("-D") && a.length() > 2 && !jvmOwnProperty(propertyName(a))))
                    .toList();
        }

        private static String propertyName(String arg) {
            int eq = arg.indexOf('=');
            return eq < 0 ? arg.substring(2) : arg.substring(2, eq);
        }

        /**
         * A property the JDK reads itself, some of them before any agent starts ({@code java.*}, {@code jdk.*} such
         * as the virtual-thread scheduler's settings, {@code sun.*}, {@code file.encoding}…): not watched; the
         * scheduler's are attested from inside the JVM instead.
         */
        public static boolean jvmOwnProperty(String name) {
            for (String prefix : JVM_OWN) {
                if (name.startsWith(prefix)) {
                    return true;
                }
            }
            return name.startsWith("loom.");
        }

        private static final List<String> JVM_OWN = List.of(
                "java.",
                "javax.",
                "jdk.",
                "sun.",
                "com.sun.",
                "com.ibm.",
                "file.",
                "user.",
                "line.",
                "os.",
                "path.",
                "native.",
                "stdout.",
                "stderr.",
                "networkaddress.",
                "http.",
                "https.",
                "ftp.",
                "socks");
    }

    /** How many JMH benchmarks each variant runs (the most any one runs; a program or service is one). */
    public int benchmarksPerVariant() {
        if (!(artifact instanceof Jmh jmh)) {
            return 1;
        }
        return variants.values().stream()
                .mapToInt(v -> jmh.benchmarksOf(v).size())
                .max()
                .orElse(jmh.benchmarks().size());
    }

    public VariantSettings settings(String variant) {
        VariantSettings settings = variants.get(variant);
        if (settings == null) {
            throw new IllegalArgumentException("no variant '" + variant + "'");
        }
        return settings;
    }
}
