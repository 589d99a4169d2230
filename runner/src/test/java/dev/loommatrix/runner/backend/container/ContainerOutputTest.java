package dev.loommatrix.runner.backend.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one copy of a container's output into the raw directory, on an archive laid out as the engine sends a
 * {@code docker cp} of {@code /out/.}: a one-container cell's files replace, a service's servers' append.
 */
class ContainerOutputTest {

    @TempDir
    Path dir;

    /** An archive of {@code ./}, {@code ./virtual.records.jsonl}, a nested file and one named to climb out. */
    static byte[] archive(String records) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(bytes)) {
            tar.putArchiveEntry(new TarArchiveEntry("./"));
            tar.closeArchiveEntry();
            file(tar, "./virtual.records.jsonl", records);
            file(tar, "./recordings/virtual.jfr", "JFR");
            file(tar, "../../escape.txt", "outside");
        }
        return bytes.toByteArray();
    }

    static void file(TarArchiveOutputStream tar, String name, String text) throws Exception {
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        TarArchiveEntry entry = new TarArchiveEntry(name);
        entry.setSize(content.length);
        tar.putArchiveEntry(entry);
        tar.write(content);
        tar.closeArchiveEntry();
    }

    @Test
    void aCellsFilesLandFlatInTheRawDirectoryReplacingWhatWasThere() throws Exception {
        Path raw = Files.createDirectories(dir.resolve("raw"));
        Files.writeString(raw.resolve("virtual.records.jsonl"), "an earlier attempt's\n");
        ContainerOutput.unpack(
                new ByteArrayInputStream(archive("{\"run\": 1}\n")), raw, ContainerOutput.Into.REPLACING);
        assertThat(raw.resolve("virtual.records.jsonl")).hasContent("{\"run\": 1}");
        assertThat(raw.resolve("virtual.jfr"))
                .as("by its own name, the volume is flat")
                .hasContent("JFR");
        assertThat(raw.resolve("recordings")).doesNotExist();
        assertThat(raw.resolve("escape.txt"))
                .as("a name is only ever a file name in the raw directory")
                .hasContent("outside");
        assertThat(dir.resolve("escape.txt")).doesNotExist();
    }

    @Test
    void aServicesServersEachAddTheirLines() throws Exception {
        Path raw = Files.createDirectories(dir.resolve("raw"));
        ContainerOutput.unpack(
                new ByteArrayInputStream(archive("{\"run\": 1}\n")), raw, ContainerOutput.Into.APPENDING);
        ContainerOutput.unpack(
                new ByteArrayInputStream(archive("{\"run\": 2}\n")), raw, ContainerOutput.Into.APPENDING);
        assertThat(Files.readAllLines(raw.resolve("virtual.records.jsonl")))
                .containsExactly("{\"run\": 1}", "{\"run\": 2}");
    }
}
