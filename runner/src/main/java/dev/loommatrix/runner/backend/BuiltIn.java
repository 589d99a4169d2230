package dev.loommatrix.runner.backend;

import java.io.IOException;
import java.io.InputStream;

/**
 * What the runner carries inside its own jar for the engines: the harness jar and the cell images' build files
 * (the runner's pom puts them beside this class).
 */
public final class BuiltIn {

    private BuiltIn() {}

    public static byte[] resource(String name) throws IOException {
        try (InputStream in = BuiltIn.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("the runner was built without its " + name + " (rebuild with ./mvnw package)");
            }
            return in.readAllBytes();
        }
    }
}
