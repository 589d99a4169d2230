package dev.loommatrix.runner.backend;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import org.junit.jupiter.api.Test;

/**
 * Issue #49: the agent a user's JVM loads carries the agent alone. The whole harness jar on a team's class path put
 * loom-matrix's own JMH benchmarks into the team's results (JMH reads every META-INF/BenchmarkList it can see). An
 * integration test: the runner carries the real harness jar only once it is packaged.
 */
class AgentJarIT {

    static List<String> entries(byte[] jar) throws Exception {
        List<String> names = new ArrayList<>();
        try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(jar))) {
            for (JarEntry e = in.getNextJarEntry(); e != null; e = in.getNextJarEntry()) {
                names.add(e.getName());
            }
        }
        return names;
    }

    @Test
    void theHarnessJarCarriesOurBenchmarksAndTheAgentJarNone() throws Exception {
        byte[] harness = BuiltIn.resource("harness.jar");
        // the cause, as it is in the harness jar
        assertThat(entries(harness))
                .contains("META-INF/BenchmarkList", "org/openjdk/jmh/Main.class")
                .anyMatch(n -> n.startsWith("dev/loommatrix/harness/jmh/jmh_generated/"));

        byte[] agent = AgentJar.from(harness);
        assertThat(entries(agent))
                .contains(
                        "dev/loommatrix/harness/agent/Agent.class", "dev/loommatrix/harness/agent/PropertyReads.class")
                .noneMatch(n -> n.equals("META-INF/BenchmarkList") || n.equals("META-INF/CompilerHints"))
                .noneMatch(n -> n.startsWith("org/openjdk/jmh/") || n.startsWith("joptsimple/"))
                .noneMatch(n -> n.startsWith("org/apache/commons/") || n.startsWith("META-INF/services/"))
                .noneMatch(n -> n.startsWith("dev/loommatrix/harness/jmh/"));
        try (JarInputStream in = new JarInputStream(new ByteArrayInputStream(agent))) {
            var main = in.getManifest().getMainAttributes();
            assertThat(main.getValue("Premain-Class")).isEqualTo("dev.loommatrix.harness.agent.Agent");
            assertThat(main.getValue("Main-Class")).isNull();
            assertThat(main.getValue("Multi-Release")).isEqualTo("true");
        }
        assertThat(agent.length).isLessThan(harness.length / 4);
    }

    @Test
    void theSameHarnessGivesTheSameAgentBytes() throws Exception {
        byte[] harness = BuiltIn.resource("harness.jar");
        assertThat(AgentJar.from(harness)).isEqualTo(AgentJar.from(harness));
    }

    @Test
    void aJarWithoutAnAgentIsRefusedPlainly() throws Exception {
        var bytes = new java.io.ByteArrayOutputStream();
        try (var out = new java.util.jar.JarOutputStream(bytes, new java.util.jar.Manifest())) {
            out.putNextEntry(new JarEntry("a.txt"));
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> AgentJar.from(bytes.toByteArray()))
                .hasMessageContaining("names no Premain-Class");
    }
}
