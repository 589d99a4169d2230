package dev.loommatrix.runner.backend.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.BuildImageResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;
import dev.loommatrix.core.result.FileTrees;
import dev.loommatrix.runner.backend.service.Oha;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The load generator's image: the cell's image (a JDK base with bash, uid 10001) with the oha binary built on
 * this host layered on, tagged by both — built once, then reused by every service cell on that base.
 */
public final class GeneratorImage {

    static final String REPOSITORY = "loom-matrix/loadgen";
    static final String OHA_IN_IMAGE = "/opt/loom/oha";

    private static final Map<String, String> built = new ConcurrentHashMap<>();

    private GeneratorImage() {}

    public static synchronized String prepare(DockerClient docker, String cellImage, Path oha) throws IOException {
        String key = cellImage + "@" + oha + "@" + Files.getLastModifiedTime(oha);
        String known = built.get(key);
        if (known != null) {
            return known;
        }
        String tag = REPOSITORY + ":" + hash(cellImage, oha).substring(0, 16);
        try {
            docker.inspectImageCmd(tag).exec();
        } catch (NotFoundException missing) {
            build(docker, tag, cellImage, oha);
        }
        built.put(key, tag);
        return tag;
    }

    private static void build(DockerClient docker, String tag, String cellImage, Path oha) throws IOException {
        Path context = Files.createTempDirectory("loom-loadgen-image");
        try {
            Files.copy(oha, context.resolve("oha"), java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
            Path file = Files.writeString(
                    context.resolve("Dockerfile"),
                    "FROM " + cellImage + "\nUSER root\nCOPY oha " + OHA_IN_IMAGE + "\nRUN chmod 0755 " + OHA_IN_IMAGE
                            + "\nUSER 10001:10001\n");
            docker.buildImageCmd()
                    .withBaseDirectory(context.toFile())
                    .withDockerfile(file.toFile())
                    .withTags(Set.of(tag))
                    .withPull(false)
                    .withLabels(Map.of(
                            "dev.loommatrix.load-generator",
                            "oha " + Oha.VERSION,
                            // the image it is built on (labels are inherited: this one names the direct parent)
                            dev.loommatrix.runner.backend.container.CellImages.BUILT_ON_LABEL,
                            cellImage))
                    .exec(new BuildImageResultCallback())
                    .awaitImageId(10, TimeUnit.MINUTES);
        } finally {
            FileTrees.deleteQuietly(context);
        }
    }

    private static String hash(String cellImage, Path oha) throws IOException {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(cellImage.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            try (InputStream in = new DigestInputStream(Files.newInputStream(oha), digest)) {
                in.transferTo(java.io.OutputStream.nullOutputStream());
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
