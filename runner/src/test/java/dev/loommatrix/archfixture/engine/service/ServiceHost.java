package dev.loommatrix.archfixture.engine.service;

import dev.loommatrix.archfixture.engine.Engine;

/** The other half of the planted cycle: a nested package reaching back into its parent. */
public final class ServiceHost {

    private ServiceHost() {}

    public static String name() {
        return "host-" + Engine.runLabel();
    }
}
