package dev.loommatrix.harness.workload;

/**
 * A class whose static initializer blocks, for the {@code class-init} pinning variant. Each task
 * defines its own copy in a fresh class loader, so N tasks run N initializers.
 */
final class SlowInitializer {

    static {
        Pinning.blockInInitializer();
    }

    private SlowInitializer() {}
}
