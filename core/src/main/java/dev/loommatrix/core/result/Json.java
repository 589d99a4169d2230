package dev.loommatrix.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** The one JSON configuration for everything the runner reads and writes, and atomic file writes. */
public final class Json {

    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .addModule(new Jdk8Module())
            .serializationInclusion(JsonInclude.Include.NON_ABSENT)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private Json() {}

    /**
     * A document that carries its {@code schemaVersion}, as {@code type}: an IOException that names it ({@code name},
     * as its reader knows it) when it is not JSON or not of {@code schemaVersion} — the published site's indexes,
     * which a reader rebuilds from their run directories rather than misread.
     */
    public static <T> T readVersioned(Path file, String name, int schemaVersion, Class<T> type) throws IOException {
        com.fasterxml.jackson.databind.JsonNode tree;
        try {
            tree = MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new IOException(name + " is not valid JSON: " + e.getMessage(), e);
        }
        var version = tree == null ? null : tree.get("schemaVersion");
        if (version == null || version.asInt(-1) != schemaVersion) {
            throw new IOException(name + " is not of schema " + schemaVersion + " (its schemaVersion: "
                    + (version == null ? "none" : version.toString()) + ")");
        }
        return MAPPER.treeToValue(tree, type);
    }

    /**
     * Writes to a temporary file beside the target, then renames it over the target: a reader (or a
     * crash) sees the old file or the new one, never half of one.
     */
    public static void writeAtomically(Path target, Object value) throws IOException {
        writeAtomically(target, MAPPER.writeValueAsString(value) + "\n");
    }

    /**
     * Without indentation: for the published site's data, which browsers read (the run directory
     * stays indented for people). A year of nightly runs is hundreds of megabytes, indentation a
     * third of them, and GitHub Pages serves at most 1 GB.
     */
    public static void writeCompactAtomically(Path target, Object value) throws IOException {
        writeAtomically(
                target,
                MAPPER.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(value) + "\n");
    }

    public static void writeAtomically(Path target, String text) throws IOException {
        writeAtomically(target, text.getBytes(StandardCharsets.UTF_8));
    }

    public static void writeAtomically(Path target, byte[] bytes) throws IOException {
        Files.createDirectories(target.toAbsolutePath().getParent());
        Path tmp = Files.createTempFile(target.toAbsolutePath().getParent(), "." + target.getFileName(), ".tmp");
        try {
            Files.write(tmp, bytes);
            // createTempFile makes the file owner-only; results are published to static hosts and
            // shared between CI jobs, so they get the usual rw-r--r--.
            if (Files.getFileStore(tmp).supportsFileAttributeView("posix")) {
                Files.setPosixFilePermissions(
                        tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
