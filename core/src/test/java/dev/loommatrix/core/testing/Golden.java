package dev.loommatrix.core.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.loommatrix.core.result.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The one golden-file check of the project. A golden file seals a format: a missing file fails, a
 * different one fails with the diff. Only the explicit switch {@code -Dgolden.update=true} writes them
 * (then review the diff and commit it); a test never writes its own expectation.
 */
public final class Golden {

    /** The switch, as a Maven user property: {@code ./mvnw verify -Dgolden.update=true}. */
    public static final String UPDATE = "golden.update";

    private Golden() {}

    public static void assertMatches(Path file, String actual) throws IOException {
        if (Boolean.getBoolean(UPDATE)) {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.writeString(file, actual);
            return;
        }
        if (!Files.isRegularFile(file)) {
            fail("golden file %s is missing; create it with -D%s=true, review it and commit it", file, UPDATE);
        }
        assertThat(actual)
                .as("%s (if the change is intended: -D%s=true, review the diff, commit)", file, UPDATE)
                .isEqualTo(Files.readString(file));
    }

    /** A value as the runner writes it (indented JSON, one trailing newline). */
    public static void assertJson(Path file, Object value) throws IOException {
        assertMatches(file, Json.MAPPER.writeValueAsString(value) + "\n");
    }
}
