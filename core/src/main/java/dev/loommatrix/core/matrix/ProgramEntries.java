package dev.loommatrix.core.matrix;

import dev.loommatrix.core.stats.MetricDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;

/**
 * A user workload's {@code program:} — a JVM of the user's that writes its own metrics — and what starts a program's
 * or a service's JVM: a runnable jar, or a classpath with a main class.
 */
final class ProgramEntries {

    static final List<String> PROGRAM_KEYS = List.of("jar", "classpath", "mainClass", "args", "metrics");
    static final List<String> METRIC_KEYS = List.of("unit", "direction");

    private ProgramEntries() {}

    static Optional<UserWorkload.Artifact> program(YamlReader in, Node node, String where, Path base) {
        Map<String, NodeTuple> f = in.mapping(node, where, PROGRAM_KEYS).orElse(null);
        if (f == null) {
            return Optional.empty();
        }
        Optional<Launchable> launch = launchable(in, node, f, where, base);
        List<String> args = Sections.field(f, "args")
                .flatMap(n -> in.stringList(n, where + ".args"))
                .orElse(List.of());
        Map<String, MetricDescriptor> metrics = new LinkedHashMap<>();
        Sections.field(f, "metrics")
                .flatMap(n -> in.mapping(n, where + ".metrics", List.of()))
                .ifPresent(entries -> entries.forEach((name, tuple) ->
                        metric(in, tuple, where + ".metrics." + name, name).ifPresent(m -> metrics.put(name, m))));
        if (launch.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new UserWorkload.Program(
                launch.get().jar(), launch.get().classpath(), launch.get().mainClass(), args, metrics));
    }

    /** {@code NAME: {unit: …, direction: lower|higher}}: a metric the program writes, and which way is better. */
    private static Optional<MetricDescriptor> metric(YamlReader in, NodeTuple tuple, String where, String name) {
        Node node = tuple.getValueNode();
        Map<String, NodeTuple> m = in.mapping(node, where, METRIC_KEYS).orElse(null);
        if (m == null) {
            return Optional.empty();
        }
        Optional<String> unit =
                Sections.requiredField(in, node, m, "unit", where).flatMap(u -> in.scalarText(u, where + ".unit"));
        Optional<String> direction = Sections.requiredField(in, node, m, "direction", where)
                .flatMap(d -> in.oneOf(d, where + ".direction", List.of("lower", "higher")));
        if (unit.isEmpty() || direction.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new MetricDescriptor(
                name,
                unit.get(),
                direction.get().equals("lower")
                        ? MetricDescriptor.Direction.LOWER_IS_BETTER
                        : MetricDescriptor.Direction.HIGHER_IS_BETTER));
    }

    /** What starts a JVM of the user's: a runnable jar, or a classpath with a main class. */
    record Launchable(Optional<Path> jar, List<Path> classpath, Optional<String> mainClass) {}

    /** {@code jar} or {@code classpath} + {@code mainClass} of a program or service entry; empty after a problem. */
    static Optional<Launchable> launchable(
            YamlReader in, Node node, Map<String, NodeTuple> f, String where, Path base) {
        boolean ok = true;
        Optional<Path> jar = Optional.empty();
        List<Path> classpath = new ArrayList<>();
        Optional<String> mainClass = Sections.field(f, "mainClass").flatMap(n -> in.string(n, where + ".mainClass"));
        if (f.containsKey("jar") == f.containsKey("classpath")) {
            in.error(
                    node,
                    where + " needs either 'jar' or 'classpath'",
                    "jar: build/libs/app.jar (its manifest's Main-Class runs), or classpath: [...] with mainClass");
            ok = false;
        }
        if (f.containsKey("jar")) {
            Node n = f.get("jar").getValueNode();
            jar = in.string(n, where + ".jar").map(text -> base.resolve(text).normalize());
            ok &= jar.isPresent() && runnableJar(in, n, jar.get(), mainClass.isPresent());
        }
        if (f.containsKey("classpath")) {
            ok &= classpath(in, f.get("classpath").getValueNode(), where, base, classpath);
            if (mainClass.isEmpty()) {
                in.error(node, where + " has a classpath but no mainClass", "add e.g. mainClass: com.example.Main");
                ok = false;
            }
        }
        return ok ? Optional.of(new Launchable(jar, classpath, mainClass)) : Optional.empty();
    }

    /** The classpath's entries into {@code into}; false when one of them does not exist. */
    private static boolean classpath(YamlReader in, Node n, String where, Path base, List<Path> into) {
        boolean ok = true;
        List<Node> items = in.nonEmptySequence(n, where + ".classpath").orElse(List.of());
        for (int i = 0; i < items.size(); i++) {
            Node entry = items.get(i);
            Optional<Path> path = in.string(entry, where + ".classpath[" + i + "]")
                    .map(t -> base.resolve(t).normalize());
            if (path.isPresent() && !Files.exists(path.get())) {
                in.error(entry, "classpath entry " + path.get() + " does not exist", "build it first");
                ok = false;
            }
            path.ifPresent(into::add);
        }
        return ok;
    }

    /** A jar that exists, is a zip, and says what to run (its manifest, or the entry's mainClass). */
    private static boolean runnableJar(YamlReader in, Node at, Path jar, boolean hasMainClass) {
        if (!Files.isRegularFile(jar)) {
            in.error(at, "jar " + jar + " does not exist", "build it first; paths are relative to the matrix file");
            return false;
        }
        try (java.util.jar.JarFile file = new java.util.jar.JarFile(jar.toFile())) {
            var manifest = file.getManifest();
            if (!hasMainClass
                    && (manifest == null || manifest.getMainAttributes().getValue("Main-Class") == null)) {
                in.error(at, "jar " + jar + " has no Main-Class in its manifest", "add mainClass: com.example.Main");
                return false;
            }
            return true;
        } catch (java.io.IOException e) {
            in.error(at, "file " + jar + " is not a jar (" + e.getMessage() + ")", "name a .jar file");
            return false;
        }
    }
}
