package dev.loommatrix.runner.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.runner.backend.container.ContainerBackend;
import org.junit.jupiter.api.Test;

/**
 * Whether an engine's containers share this host's kernel, so that an A/B pair's named pipes reach them (issue
 * #30's lockstep). The engines' names and kernels are those `docker info` reports: this machine's own dockerd
 * (Name "vm", Kernel Version "6.18.44-fc-v782", what `uname -n` and `uname -r` say here), Docker Desktop (Name
 * "docker-desktop", a "-linuxkit" kernel in its VM), and a remote daemon reached by DOCKER_HOST=tcp://… (its own
 * host's name).
 */
class EngineElsewhereTest {

    @Test
    void theEngineOfThisHostSharesItsPipes() {
        assertThat(ContainerBackend.elsewhere("vm", "6.18.44-fc-v782", "vm", "6.18.44-fc-v782"))
                .isEmpty();
    }

    @Test
    void aRemoteEngineDoesNot() {
        assertThat(ContainerBackend.elsewhere("build-agent-7", "6.8.0-31-generic", "vm", "6.18.44-fc-v782"))
                .hasValue("the Docker engine runs on build-agent-7, not this host (vm)");
    }

    @Test
    void dockerDesktopsVmDoesNot() {
        assertThat(ContainerBackend.elsewhere("docker-desktop", "6.10.14-linuxkit", "docker-desktop", "24.1.0"))
                .hasValue("the Docker engine's kernel (6.10.14-linuxkit) is not this host's (24.1.0): its"
                        + " containers run in a VM");
    }

    @Test
    void aRunnerInAContainerBesideTheEngineDoesNot() {
        // the host's socket mounted into the runner's container: same kernel, the container's own host name
        assertThat(ContainerBackend.elsewhere("vm", "6.18.44-fc-v782", "3f4e2a1b9c0d", "6.18.44-fc-v782"))
                .hasValue("the Docker engine runs on vm, not this host (3f4e2a1b9c0d)");
    }
}
