package dev.loommatrix.core.result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one recursive delete and the one tree copy the runner and its tests use. */
class FileTreesTest {

    @TempDir
    Path dir;

    Path tree() throws Exception {
        Path root = Files.createDirectories(dir.resolve("run/raw/cell"));
        Files.writeString(root.resolve("virtual.records.jsonl"), "{}\n");
        Files.createDirectories(dir.resolve("run/empty"));
        Files.writeString(dir.resolve("run/run.json"), "{\"status\": \"finished\"}");
        return dir.resolve("run");
    }

    @Test
    void deletesATreeFilesBeforeTheirDirectoriesAndLeavesItsSiblings() throws Exception {
        Path run = tree();
        Path sibling = Files.writeString(dir.resolve("other.txt"), "kept");
        FileTrees.delete(run);
        assertThat(run).doesNotExist();
        assertThat(sibling).hasContent("kept");
        FileTrees.delete(run); // not there: nothing to do
        FileTrees.deleteQuietly(dir.resolve("nowhere"));
        assertThat(dir).isDirectory();
    }

    @Test
    void deletingASymbolicLinkDeletesTheLinkNotWhatItPointsTo() throws Exception {
        Path run = tree();
        Path link = Files.createSymbolicLink(dir.resolve("link"), run);
        FileTrees.delete(link);
        assertThat(link).doesNotExist();
        assertThat(run.resolve("run.json")).exists();
    }

    @Test
    void copiesATreeWithItsEmptyDirectoriesAndRefusesOrReplacesWhatIsThere() throws Exception {
        Path run = tree();
        Path copy = FileTrees.copy(run, dir.resolve("copy"));
        assertThat(copy.resolve("raw/cell/virtual.records.jsonl")).hasContent("{}");
        assertThat(copy.resolve("empty")).isEmptyDirectory();
        assertThat(copy.resolve("run.json")).hasSameTextualContentAs(run.resolve("run.json"));
        Files.writeString(run.resolve("run.json"), "{\"status\": \"running\"}");
        assertThatThrownBy(() -> FileTrees.copy(run, copy)).isInstanceOf(FileAlreadyExistsException.class);
        FileTrees.copy(run, copy, StandardCopyOption.REPLACE_EXISTING);
        assertThat(copy.resolve("run.json")).hasContent("{\"status\": \"running\"}");
    }
}
