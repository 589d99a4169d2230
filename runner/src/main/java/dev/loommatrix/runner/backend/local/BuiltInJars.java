package dev.loommatrix.runner.backend.local;

import dev.loommatrix.runner.backend.AgentJar;
import dev.loommatrix.runner.backend.BuiltIn;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** The harness jar the cells' JVMs run and the attestation agent users' JVMs load, each written once. */
final class BuiltInJars {

    private Path harness;
    private Path agent;

    /** @param harness another build of the harness (an A/B run's side), else this runner's own */
    BuiltInJars(Optional<Path> harness) {
        this.harness = harness.map(Path::toAbsolutePath).orElse(null);
    }

    synchronized Path harness() throws IOException {
        if (harness == null) {
            harness = Files.createTempFile("loom-harness", ".jar");
            Files.write(harness, BuiltIn.resource("harness.jar"));
            harness.toFile().deleteOnExit();
        }
        return harness;
    }

    /** The attestation agent, cut from the harness jar ({@link AgentJar}). */
    synchronized Path agent() throws IOException {
        if (agent == null) {
            agent = Files.createTempFile("loom-agent", ".jar");
            Files.write(agent, AgentJar.from(Files.readAllBytes(harness())));
            agent.toFile().deleteOnExit();
        }
        return agent;
    }
}
