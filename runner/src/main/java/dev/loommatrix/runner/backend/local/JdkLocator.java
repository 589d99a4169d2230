package dev.loommatrix.runner.backend.local;

import dev.loommatrix.core.matrix.JdkEntry;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Finds a JDK on this host for a matrix entry, in the contract's order: the entry's {@code javaHome};
 * else {@code JAVA_HOME_<version>_X64} / {@code _ARM64} (GitHub setup-java's convention); else an
 * installed JDK whose feature version and VM match, identified by running it (never by its path name).
 */
public final class JdkLocator {

    /** A JDK that was run and identified. */
    public record FoundJdk(Path home, Path java, int featureVersion, String vmName, String vendor, String source) {

        public boolean isOpenJ9() {
            return vmName.contains("OpenJ9") || vmName.contains("J9");
        }
    }

    private final Map<String, String> env;
    private final List<Path> searchRoots;
    private final Map<Path, Optional<FoundJdk>> identified = new LinkedHashMap<>();

    public JdkLocator(Map<String, String> env, List<Path> searchRoots) {
        this.env = Map.copyOf(env);
        this.searchRoots = List.copyOf(searchRoots);
    }

    public static JdkLocator forHost() {
        Map<String, String> env = System.getenv();
        List<Path> roots = new ArrayList<>();
        // Extra places first (LOOM_JDK_PATHS: JDK homes or folders of them), then the usual ones.
        Optional.ofNullable(env.get("LOOM_JDK_PATHS")).ifPresent(paths -> {
            for (String p : paths.split(File.pathSeparator)) {
                if (!p.isBlank()) {
                    roots.add(Path.of(p));
                }
            }
        });
        Optional.ofNullable(env.get("JAVA_HOME")).ifPresent(p -> roots.add(Path.of(p)));
        String home = System.getProperty("user.home");
        for (String p : List.of(
                "/usr/lib/jvm",
                "/usr/java",
                "/opt/java",
                "/opt/hostedtoolcache/Java_Temurin-Hotspot_jdk",
                "/opt/hostedtoolcache/Java_IBM_Semeru_jdk",
                home + "/.sdkman/candidates/java",
                home + "/.jdks",
                "/Library/Java/JavaVirtualMachines",
                "C:\\Program Files\\Java",
                "C:\\Program Files\\Eclipse Adoptium",
                "C:\\hostedtoolcache\\windows\\Java_Temurin-Hotspot_jdk",
                "C:\\hostedtoolcache\\windows\\Java_IBM_Semeru_jdk")) {
            roots.add(Path.of(p));
        }
        return new JdkLocator(env, roots);
    }

    /** The JDK for an entry, or the reason there is none (which makes the cell skipped, not failed). */
    public synchronized Result find(JdkEntry entry) {
        if (entry.javaHome().isPresent()) {
            Path home = Path.of(entry.javaHome().get());
            return identify(home, "javaHome of " + entry.id())
                    .map(jdk -> matches(entry, jdk)
                            ? Result.found(jdk)
                            : Result.missing("javaHome " + home + " is " + describe(jdk) + ", but " + entry.id()
                                    + " asks for " + entry.vm().id() + " " + entry.version()))
                    .orElse(Result.missing("javaHome " + home + " of " + entry.id() + " has no runnable bin/java"));
        }
        for (String arch : List.of("X64", "ARM64")) {
            String variable = "JAVA_HOME_" + entry.version() + "_" + arch;
            String value = env.get(variable);
            if (value != null && !value.isBlank()) {
                Optional<FoundJdk> jdk = identify(Path.of(value), variable);
                if (jdk.isPresent() && matches(entry, jdk.get())) {
                    return Result.found(jdk.get());
                }
            }
        }
        List<String> seen = new ArrayList<>();
        for (Path candidate : candidates()) {
            Optional<FoundJdk> jdk = identify(candidate, "installed at " + candidate);
            if (jdk.isPresent()) {
                if (matches(entry, jdk.get())) {
                    return Result.found(jdk.get());
                }
                seen.add(describe(jdk.get()));
            }
        }
        return Result.missing("no " + entry.vm().id() + " JDK " + entry.version() + " on this host (found: "
                + (seen.isEmpty() ? "none" : String.join(", ", new LinkedHashSet<>(seen)))
                + "); set javaHome in the matrix, JAVA_HOME_" + entry.version() + "_X64, or LOOM_JDK_PATHS");
    }

    public record Result(Optional<FoundJdk> jdk, String reason) {
        static Result found(FoundJdk jdk) {
            return new Result(Optional.of(jdk), "");
        }

        static Result missing(String reason) {
            return new Result(Optional.empty(), reason);
        }
    }

    private static boolean matches(JdkEntry entry, FoundJdk jdk) {
        return jdk.featureVersion() == entry.version() && (jdk.isOpenJ9() == (entry.vm() == JdkEntry.Vm.OPENJ9));
    }

    private static String describe(FoundJdk jdk) {
        return (jdk.isOpenJ9() ? "openj9 " : "hotspot ") + jdk.featureVersion();
    }

    /** Every directory under the search roots that looks like a Java home (bin/java inside), each once. */
    private List<Path> candidates() {
        Set<Path> homes = new LinkedHashSet<>();
        for (Path root : searchRoots) {
            if (isJavaHome(root)) {
                homes.add(root);
            }
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> children = Files.walk(root, 3)) {
                children.filter(JdkLocator::isJavaHome).forEach(homes::add);
            } catch (IOException | RuntimeException e) {
                // an unreadable folder holds no JDK we can use
            }
        }
        List<Path> real = new ArrayList<>();
        Set<Path> seenReal = new LinkedHashSet<>();
        for (Path home : homes) {
            try {
                if (seenReal.add(home.toRealPath())) {
                    real.add(home);
                }
            } catch (IOException e) {
                // vanished
            }
        }
        return real;
    }

    private static boolean isJavaHome(Path dir) {
        return Files.isRegularFile(dir.resolve("bin").resolve("java"))
                || Files.isRegularFile(dir.resolve("bin").resolve("java.exe"));
    }

    /** Runs {@code java -XshowSettings:properties -version} and reads the feature version and VM name. */
    Optional<FoundJdk> identify(Path home, String source) {
        return identified.computeIfAbsent(home.toAbsolutePath().normalize(), h -> run(h, source));
    }

    private static Optional<FoundJdk> run(Path home, String source) {
        Path java = home.resolve("bin").resolve(isWindows() ? "java.exe" : "java");
        if (!Files.isExecutable(java)) {
            return Optional.empty();
        }
        try {
            Process process = new ProcessBuilder(java.toString(), "-XshowSettings:properties", "-version")
                    .redirectErrorStream(true)
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                return Optional.empty();
            }
            Map<String, String> props = parseProperties(output);
            String spec = props.get("java.specification.version");
            if (spec == null) {
                return Optional.empty();
            }
            int feature = Integer.parseInt(spec.startsWith("1.") ? spec.substring(2) : spec);
            return Optional.of(new FoundJdk(
                    home,
                    java,
                    feature,
                    props.getOrDefault("java.vm.name", ""),
                    props.getOrDefault("java.vendor", ""),
                    source));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** The "key = value" lines of -XShowSettings:properties (continuation lines of lists are skipped). */
    static Map<String, String> parseProperties(String output) {
        Map<String, String> props = new LinkedHashMap<>();
        for (String line : output.split("\\R")) {
            int eq = line.indexOf(" = ");
            if (eq > 0 && line.startsWith("    ") && !line.startsWith("        ")) {
                props.put(line.substring(0, eq).trim(), line.substring(eq + 3).trim());
            }
        }
        return props;
    }

    static boolean isWindows() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");
    }
}
