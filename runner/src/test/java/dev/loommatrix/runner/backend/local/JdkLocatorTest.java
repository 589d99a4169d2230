package dev.loommatrix.runner.backend.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.matrix.JdkEntry;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class JdkLocatorTest {

    static final Path THIS_JDK = Path.of(System.getProperty("java.home"));
    static final int THIS_VERSION = Runtime.version().feature();

    static JdkEntry entry(JdkEntry.Vm vm, int version, Optional<String> javaHome) {
        return new JdkEntry(
                "x",
                vm,
                version,
                Optional.empty(),
                Map.of(),
                List.of(),
                Map.of(),
                javaHome,
                Optional.empty(),
                Map.of());
    }

    @Test
    void parsesShowSettingsOutput() {
        String output =
                """
                Property settings:
                    file.encoding = UTF-8
                    java.class.path =\s
                    java.library.path = /usr/java/packages/lib
                        /usr/lib64
                        /lib64
                    java.specification.version = 21
                    java.vm.name = Eclipse OpenJ9 VM
                    java.vendor = IBM Corporation

                openjdk version "21.0.5" 2024-10-15 LTS
                """;
        Map<String, String> props = JdkLocator.parseProperties(output);
        assertThat(props)
                .containsEntry("java.specification.version", "21")
                .containsEntry("java.vm.name", "Eclipse OpenJ9 VM");
        assertThat(props).doesNotContainKey("/usr/lib64");
    }

    @Test
    void findsAJdkByRunningIt() {
        JdkLocator locator = new JdkLocator(Map.of(), List.of(THIS_JDK));
        JdkLocator.Result found = locator.find(entry(JdkEntry.Vm.HOTSPOT, THIS_VERSION, Optional.empty()));
        assertThat(found.jdk()).get().satisfies(jdk -> {
            assertThat(jdk.featureVersion()).isEqualTo(THIS_VERSION);
            assertThat(jdk.isOpenJ9()).isFalse();
        });
    }

    @Test
    void setupJavaVariablesComeBeforeTheScan() {
        JdkLocator locator =
                new JdkLocator(Map.of("JAVA_HOME_" + THIS_VERSION + "_X64", THIS_JDK.toString()), List.of());
        assertThat(locator.find(entry(JdkEntry.Vm.HOTSPOT, THIS_VERSION, Optional.empty()))
                        .jdk())
                .get()
                .extracting(JdkLocator.FoundJdk::source)
                .isEqualTo("JAVA_HOME_" + THIS_VERSION + "_X64");
    }

    @Test
    void aMissingJdkIsAReasonNotACrash() {
        JdkLocator locator = new JdkLocator(Map.of(), List.of(THIS_JDK));
        JdkLocator.Result openj9 = locator.find(entry(JdkEntry.Vm.OPENJ9, THIS_VERSION, Optional.empty()));
        assertThat(openj9.jdk()).isEmpty();
        assertThat(openj9.reason())
                .startsWith("no openj9 JDK " + THIS_VERSION + " on this host (found: hotspot " + THIS_VERSION + ")");
        JdkLocator.Result wrongHome =
                locator.find(entry(JdkEntry.Vm.HOTSPOT, THIS_VERSION, Optional.of("/nonexistent")));
        assertThat(wrongHome.reason()).contains("/nonexistent").contains("no runnable bin/java");
    }
}
