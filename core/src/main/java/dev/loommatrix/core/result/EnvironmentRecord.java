package dev.loommatrix.core.result;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What took effect inside the JVM under test, and whether that is what the cell asked for.
 *
 * @param imageDigest the base image's registry digest, or its image id where it has none (local images)
 * @param javaVersionOutput what {@code java -version} printed in the cell's environment
 * @param attested true only when every check in {@code attestation} passed
 */
public record EnvironmentRecord(
        int availableProcessors,
        Map<String, Object> scheduler,
        Map<String, String> vm,
        String javaVersion,
        List<String> gc,
        String javaToolOptions,
        List<String> inputArguments,
        Optional<String> image,
        Optional<String> imageDigest,
        Optional<String> javaVersionOutput,
        Map<String, Object> limits,
        boolean attested,
        List<Check> attestation) {

    public EnvironmentRecord {
        attestation = List.copyOf(attestation);
    }

    /** One comparison of a requested setting with what the JVM reported. */
    public record Check(String setting, String requested, String observed, boolean ok, Optional<String> note) {}
}
