package dev.loommatrix.archfixture.engine;

import dev.loommatrix.archfixture.engine.service.ServiceHost;

/** Half of a planted package cycle (the one {@code backend} ↔ {@code backend.service} once had). */
public final class Engine {

    public static String runLabel() {
        return "planted";
    }

    public static String host() {
        return ServiceHost.name();
    }
}
