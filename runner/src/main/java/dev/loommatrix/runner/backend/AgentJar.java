package dev.loommatrix.runner.backend;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * The attestation agent a user's JVM loads ({@code -javaagent}), cut from a harness jar: the agent and the classes
 * it uses, nothing else (issue #49). A {@code -javaagent} jar joins the JVM's class path, and the whole harness jar
 * there put loom-matrix's own JMH benchmarks into a team's results — JMH reads every {@code META-INF/BenchmarkList}
 * on the class path, so {@code include: ['.*']} ran 6 of ours beside the team's 3 — along with a second JMH, jopt and
 * Commons Math behind the team's own, and a Jackson service file. Cut from the harness jar rather than built
 * separately, so an A/B side's own harness brings its own agent; the same harness gives the same bytes.
 */
public final class AgentJar {

    /** What the agent uses: its own package, the JVM readers, the record writer, and the relocated Jackson. */
    static final List<String> KEPT = List.of(
            "dev/loommatrix/harness/agent/",
            "dev/loommatrix/harness/env/",
            "dev/loommatrix/harness/measure/",
            "dev/loommatrix/harness/shaded/",
            "META-INF/versions/22/dev/loommatrix/harness/measure/");

    /** The manifest attributes that make the jar an agent (and let its JDK 22+ classes load). */
    private static final List<String> AGENT_ATTRIBUTES =
            List.of("Premain-Class", "Agent-Class", "Multi-Release", "Enable-Native-Access");

    private AgentJar() {}

    /** The agent jar within {@code harnessJar}'s bytes. */
    public static byte[] from(byte[] harnessJar) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(harnessJar))) {
            Manifest harness = in.getManifest();
            if (harness == null || harness.getMainAttributes().getValue("Premain-Class") == null) {
                throw new IOException("the harness jar names no Premain-Class: it carries no attestation agent");
            }
            Manifest manifest = new Manifest();
            Attributes main = manifest.getMainAttributes();
            main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
            for (String name : AGENT_ATTRIBUTES) {
                String value = harness.getMainAttributes().getValue(name);
                if (value != null) {
                    main.putValue(name, value);
                }
            }
            List<JarEntry> entries = new ArrayList<>();
            List<byte[]> contents = new ArrayList<>();
            for (JarEntry entry = in.getNextJarEntry(); entry != null; entry = in.getNextJarEntry()) {
                if (!entry.isDirectory() && kept(entry.getName())) {
                    entries.add(entry);
                    contents.add(in.readAllBytes());
                }
            }
            // every entry keeps the harness build's fixed time, the manifest takes the first's: the same harness
            // gives the same agent bytes
            long time = entries.isEmpty() ? 0 : entries.get(0).getTime();
            try (JarOutputStream out = new JarOutputStream(bytes)) {
                JarEntry manifestEntry = new JarEntry(JarFile.MANIFEST_NAME);
                manifestEntry.setTime(time);
                out.putNextEntry(manifestEntry);
                manifest.write(out);
                out.closeEntry();
                for (int i = 0; i < entries.size(); i++) {
                    JarEntry copy = new JarEntry(entries.get(i).getName());
                    copy.setTime(entries.get(i).getTime());
                    out.putNextEntry(copy);
                    out.write(contents.get(i));
                    out.closeEntry();
                }
            }
        }
        return bytes.toByteArray();
    }

    static boolean kept(String name) {
        return KEPT.stream().anyMatch(name::startsWith);
    }
}
