package dev.loommatrix.runner.backend.container;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether the Docker engine's containers run on this host's kernel (issue #30: an A/B pair in lockstep bind-mounts
 * its turns directory, and the pipes in it work only there).
 */
final class EngineLocation {

    private EngineLocation() {}

    /**
     * The engine is on this host when {@code docker info} gives this host's name (the daemon reports its own host's:
     * a remote server's, "docker-desktop" in Docker Desktop's VM, the host's where this runner runs in a container)
     * and this host's kernel (a VM that took this host's name still has its own kernel).
     */
    static Optional<String> elsewhere(String engineName, String engineKernel, String hostName, String hostKernel) {
        if (!engineName.equalsIgnoreCase(hostName)) {
            return Optional.of("the Docker engine runs on " + engineName + ", not this host (" + hostName + ")");
        }
        if (!engineKernel.equals(hostKernel)) {
            return Optional.of("the Docker engine's kernel (" + engineKernel + ") is not this host's (" + hostKernel
                    + "): its containers run in a VM");
        }
        return Optional.empty();
    }

    /** This host's name as the kernel holds it (what dockerd reports as its own), else as Java resolves it. */
    static String thisHostName() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).trim();
        } catch (IOException | RuntimeException e) {
            try {
                return java.net.InetAddress.getLocalHost().getHostName();
            } catch (IOException unknown) {
                return "this host";
            }
        }
    }
}
