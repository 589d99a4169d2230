package dev.loommatrix.core.matrix;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One JDK of the matrix: which VM and feature version, where the container backend gets it (an image)
 * and where the local backend finds it (setup-java coordinates, an explicit javaHome, or a host scan).
 *
 * <p>{@code javaToolOptions}: empty = whatever the image or host sets (Semeru images set a shared class
 * cache and {@code -XX:+IgnoreUnrecognizedVMOptions}); {@code ""} = cleared; any other text = exactly
 * that. Either way the record shows what the JVM saw.
 */
public record JdkEntry(
        String id,
        Vm vm,
        int version,
        Optional<String> image,
        Map<String, String> setupJava,
        List<String> jvmArgs,
        Map<String, String> env,
        Optional<String> javaHome,
        Optional<String> javaToolOptions,
        Map<String, String> runsOn) {

    public JdkEntry {
        runsOn = runsOn == null ? Map.of() : Map.copyOf(runsOn);
        setupJava = Map.copyOf(setupJava);
        jvmArgs = List.copyOf(jvmArgs);
        env = Map.copyOf(env);
    }

    public enum Vm {
        HOTSPOT,
        OPENJ9;

        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
