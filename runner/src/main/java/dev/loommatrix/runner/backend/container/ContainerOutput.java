package dev.loommatrix.runner.backend.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * What a cell's container leaves: the lines it printed, and the files of its {@link CellScript#OUT} volume copied out
 * through the engine's archive API ({@code docker cp}, which also works on a stopped container) into the cell's raw
 * directory — for a one-container cell and for each of a service cell's servers alike.
 */
final class ContainerOutput {

    /** How a copied file meets a file of its name already in the raw directory. */
    enum Into {
        /** The container's file is the cell's (one container wrote it all). */
        REPLACING,
        /** Added to the end: a service cell's servers, one a repetition, each add their lines. */
        APPENDING
    }

    private ContainerOutput() {}

    /** The last {@code tail} lines a container printed, stdout and stderr as they came. */
    static String logs(DockerClient docker, String id, int tail) throws InterruptedException {
        StringBuilder text = new StringBuilder();
        docker.logContainerCmd(id)
                .withStdOut(true)
                .withStdErr(true)
                .withTail(tail)
                .exec(new ResultCallback.Adapter<Frame>() {
                    @Override
                    public void onNext(Frame frame) {
                        text.append(new String(frame.getPayload(), StandardCharsets.UTF_8));
                    }
                })
                .awaitCompletion(30, TimeUnit.SECONDS);
        return text.toString();
    }

    /** Copies the container's {@link CellScript#OUT} volume into the cell's raw directory. */
    static void copyOut(DockerClient docker, String id, Path rawDir, Into into) throws IOException {
        try (InputStream archive =
                docker.copyArchiveFromContainerCmd(id, CellScript.OUT + "/.").exec()) {
            unpack(archive, rawDir, into);
        }
    }

    /**
     * The archive's files, each by its own name straight into {@code rawDir} (the volume is flat); directories and
     * anything whose name would land outside {@code rawDir} are left out.
     */
    static void unpack(InputStream archive, Path rawDir, Into into) throws IOException {
        TarArchiveInputStream tar = new TarArchiveInputStream(archive);
        TarArchiveEntry entry;
        while ((entry = tar.getNextTarEntry()) != null) {
            if (!entry.isFile()) {
                continue;
            }
            Path target = rawDir.resolve(Path.of(entry.getName()).getFileName().toString())
                    .normalize();
            if (!target.startsWith(rawDir)) {
                continue;
            }
            switch (into) {
                case REPLACING -> Files.copy(tar, target, StandardCopyOption.REPLACE_EXISTING);
                case APPENDING ->
                    Files.write(target, tar.readAllBytes(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
        }
    }
}
