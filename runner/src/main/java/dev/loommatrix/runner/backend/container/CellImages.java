package dev.loommatrix.runner.backend.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.BuildImageResultCallback;
import com.github.dockerjava.api.command.InspectImageResponse;
import com.github.dockerjava.api.command.PullImageResultCallback;
import com.github.dockerjava.api.exception.NotFoundException;
import dev.loommatrix.core.result.FileTrees;
import dev.loommatrix.runner.backend.AgentJar;
import dev.loommatrix.runner.backend.AsyncProfilerAgent;
import dev.loommatrix.runner.backend.BuiltIn;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Cell images: the harness layered on a JDK base image by {@code containers/Dockerfile}, tagged by the
 * hash of (base image id, harness jar, Dockerfile) so an image is built once and never needlessly
 * again. Base images named {@code local/…} are never sent to a registry; others are pulled once with a
 * bounded wait, so nothing hangs on a registry that cannot answer.
 */
public final class CellImages {

    static final String REPOSITORY = "loom-matrix/cell";

    /**
     * The base image a cell image was built on. Every loom-matrix image carries it (labels are inherited by the
     * images built on one): how {@code prune} knows its own.
     */
    public static final String BASE_IMAGE_LABEL = "dev.loommatrix.base-image";

    /** The loom-matrix image an image is built on directly (a user layer's cell image, a load generator's). */
    public static final String BUILT_ON_LABEL = "dev.loommatrix.cell-image";

    private static final long PULL_TIMEOUT_S = Long.getLong("loom.pullTimeoutSeconds", 120);

    /**
     * A ready image: its tag, the base image it was built on with that base's digest, and every loom-matrix image a
     * container of it needs kept (itself, and the cell image a user layer is built on): what {@link ImageUses}
     * records.
     */
    record CellImage(String tag, String baseImage, String baseDigest, List<String> uses) {
        CellImage {
            uses = List.copyOf(uses);
        }
    }

    /** The base image cannot be had; the message says what to do. */
    static final class ImageUnavailable extends Exception {
        private static final long serialVersionUID = 1L;

        ImageUnavailable(String message) {
            super(message);
        }
    }

    private final DockerClient docker;
    private final Map<String, CellImage> ready = new ConcurrentHashMap<>();
    /** Base images that could not be had, with why: asked once per run, not once per cell. */
    private final Map<String, String> unavailable = new ConcurrentHashMap<>();

    /** The harness the images carry: this runner's own unless another build is named (an A/B run's side). */
    private final java.util.Optional<Path> harness;

    CellImages(DockerClient docker, java.util.Optional<Path> harness) {
        this.docker = docker;
        this.harness = harness;
    }

    private byte[] harnessJar() throws IOException {
        return harness.isPresent() ? Files.readAllBytes(harness.get()) : BuiltIn.resource("harness.jar");
    }

    synchronized CellImage prepare(String baseImage) throws ImageUnavailable, InterruptedException {
        CellImage cached = ready.get(baseImage);
        if (cached != null) {
            return cached;
        }
        if (unavailable.containsKey(baseImage)) {
            throw new ImageUnavailable(unavailable.get(baseImage));
        }
        try {
            CellImage image = resolve(baseImage);
            ready.put(baseImage, image);
            return image;
        } catch (ImageUnavailable e) {
            unavailable.put(baseImage, e.getMessage());
            throw e;
        }
    }

    private CellImage resolve(String baseImage) throws ImageUnavailable, InterruptedException {
        InspectImageResponse base = baseImage(baseImage);
        String baseDigest =
                base.getRepoDigests() != null && !base.getRepoDigests().isEmpty()
                        ? base.getRepoDigests().get(0)
                        : base.getId();
        try {
            byte[] harness = harnessJar();
            byte[] dockerfile = BuiltIn.resource("Dockerfile");
            byte[] profiler = flameLibrary().orElse(new byte[0]);
            String tag = REPOSITORY + ":"
                    + hash(base.getId().getBytes(), harness, dockerfile, profiler)
                            .substring(0, 16);
            if (!exists(tag)) {
                build(tag, baseImage, harness, dockerfile, profiler);
            }
            return new CellImage(tag, baseImage, baseDigest, List.of(tag));
        } catch (IOException | RuntimeException e) {
            throw new ImageUnavailable("could not build the cell image on " + baseImage + ": " + e.getMessage());
        }
    }

    private InspectImageResponse baseImage(String name) throws ImageUnavailable, InterruptedException {
        try {
            return docker.inspectImageCmd(name).exec();
        } catch (NotFoundException missing) {
            if (name.startsWith("local/")) {
                throw new ImageUnavailable("image " + name + " is not on this Docker engine; build it with "
                        + "containers/offline/build-images.sh (local/ images are never pulled)");
            }
        }
        try {
            String[] repoTag = splitTag(name);
            boolean done = docker.pullImageCmd(repoTag[0])
                    .withTag(repoTag[1])
                    .exec(new PullImageResultCallback())
                    .awaitCompletion(PULL_TIMEOUT_S, TimeUnit.SECONDS);
            if (!done) {
                throw new ImageUnavailable("pulling " + name + " did not finish within " + PULL_TIMEOUT_S + " s; "
                        + "pull it by hand, or use a local/ image (containers/offline/build-images.sh)");
            }
            return docker.inspectImageCmd(name).exec();
        } catch (RuntimeException e) {
            throw new ImageUnavailable("image " + name + " is not on this Docker engine and could not be pulled ("
                    + firstLine(e.getMessage()) + "); " + withoutRegistry());
        }
    }

    /**
     * What to do on a host without a registry: use the offline images where they are already built (the
     * repository's matrix names them in its offline profiles), else build them.
     */
    private String withoutRegistry() {
        List<String> offline = new java.util.ArrayList<>();
        try {
            docker.listImagesCmd()
                    .withReferenceFilter(OFFLINE_REPOSITORY + ":*")
                    .exec()
                    .forEach(image -> {
                        if (image.getRepoTags() != null) {
                            offline.addAll(List.of(image.getRepoTags()));
                        }
                    });
        } catch (RuntimeException e) {
            // the engine did not list them: say how to build them
        }
        java.util.Collections.sort(offline);
        return offline.isEmpty()
                ? "on a host without a registry, build local JDK images with containers/offline/build-images.sh and"
                        + " name them in the JDK entries (local/ images are never pulled)"
                : "this engine has offline JDK images (" + String.join(", ", offline) + "): name them in the JDK"
                        + " entries (image: " + offline.get(0) + "), or use a profile that names them (loom-matrix's"
                        + " own matrices and the one init writes have --profile offline)";
    }

    /** The repository containers/offline/build-images.sh tags its images with. */
    static final String OFFLINE_REPOSITORY = "local/debian-openjdk";

    private boolean exists(String tag) {
        try {
            docker.inspectImageCmd(tag).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    /** The engine's architecture, asked once. */
    private String architecture;

    /**
     * async-profiler's library for the engine's architecture, which every cell image carries (an empty file where
     * there is none: the profiling run then says so).
     */
    synchronized java.util.Optional<byte[]> flameLibrary() throws IOException {
        if (flameLibrary == null) {
            architecture = docker.infoCmd().exec().getArchitecture();
            flameLibrary = AsyncProfilerAgent.library(architecture == null ? "" : architecture);
        }
        return flameLibrary;
    }

    /** The library's bytes, read from the jar once per engine. */
    private java.util.Optional<byte[]> flameLibrary;

    /** Why cells on this engine cannot make flame graphs, if they cannot. */
    java.util.Optional<String> noFlame() {
        try {
            return flameLibrary().isPresent()
                    ? java.util.Optional.empty()
                    : java.util.Optional.of("no async-profiler library for the engine's architecture, " + architecture);
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.of("async-profiler's library could not be read: " + e.getMessage());
        }
    }

    private void build(String tag, String baseImage, byte[] harness, byte[] dockerfile, byte[] profiler)
            throws IOException {
        Path context = Files.createTempDirectory("loom-cell-image");
        try {
            Files.write(context.resolve("harness.jar"), harness);
            Files.write(context.resolve("agent.jar"), AgentJar.from(harness));
            Files.write(context.resolve("libasyncProfiler.so"), profiler);
            Path file = Files.write(context.resolve("Dockerfile"), dockerfile);
            docker.buildImageCmd()
                    .withBaseDirectory(context.toFile())
                    .withDockerfile(file.toFile())
                    .withBuildArg("BASE_IMAGE", baseImage)
                    .withTags(Set.of(tag))
                    .withPull(false) // never --pull: the base is already here
                    .withLabels(Map.of(BASE_IMAGE_LABEL, baseImage))
                    .exec(new BuildImageResultCallback())
                    .awaitImageId(15, TimeUnit.MINUTES);
        } finally {
            FileTrees.deleteQuietly(context);
        }
    }

    /**
     * The cell image with a user workload's files layered on at {@link CellScript#USER_DIR}, owned by root
     * so the cell's user can only read them. Tagged by the hash of the cell image and the files' contents:
     * a rebuilt jar is a new image, the same jar is the same image.
     */
    synchronized CellImage withUserFiles(CellImage cell, List<Path> files, List<String> containerPaths)
            throws ImageUnavailable {
        try {
            List<byte[]> parts = new ArrayList<>();
            parts.add(cell.tag().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            for (int i = 0; i < files.size(); i++) {
                parts.add(containerPaths.get(i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
                parts.add(contentHash(files.get(i)).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            String tag =
                    REPOSITORY + ":user-" + hash(parts.toArray(byte[][]::new)).substring(0, 16);
            if (!exists(tag)) {
                buildUserLayer(tag, cell.tag(), files, containerPaths);
            }
            List<String> uses = new ArrayList<>(cell.uses());
            uses.add(tag);
            return new CellImage(tag, cell.baseImage(), cell.baseDigest(), uses);
        } catch (IOException | RuntimeException e) {
            throw new ImageUnavailable(
                    "could not layer the workload's files " + files + " onto " + cell.tag() + ": " + e.getMessage());
        }
    }

    /** Contents, not names or times: a file's or a directory tree's (paths and bytes) SHA-256. */
    private final Map<String, String> contentHashes = new ConcurrentHashMap<>();

    private String contentHash(Path file) throws IOException {
        String key = file.toAbsolutePath() + "@" + Files.getLastModifiedTime(file) + "@"
                + (Files.isRegularFile(file) ? Files.size(file) : -1);
        String known = contentHashes.get(key);
        if (known != null) {
            return known;
        }
        List<byte[]> parts = new ArrayList<>();
        try (var walk = Files.walk(file)) {
            for (Path p : walk.sorted().toList()) {
                parts.add(file.relativize(p).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                if (Files.isRegularFile(p)) {
                    parts.add(Files.readAllBytes(p));
                }
            }
        }
        String hash = hash(parts.toArray(byte[][]::new));
        contentHashes.put(key, hash);
        return hash;
    }

    private void buildUserLayer(String tag, String cellTag, List<Path> files, List<String> containerPaths)
            throws IOException {
        Path context = Files.createTempDirectory("loom-user-layer");
        try {
            for (int i = 0; i < files.size(); i++) {
                Path target = context.resolve("user")
                        .resolve(containerPaths.get(i).substring(CellScript.USER_DIR.length() + 1));
                Files.createDirectories(target.getParent());
                FileTrees.copy(files.get(i), target);
            }
            Path file = Files.writeString(
                    context.resolve("Dockerfile"),
                    "FROM " + cellTag + "\nCOPY --chown=0:0 user/ " + CellScript.USER_DIR + "/\n");
            docker.buildImageCmd()
                    .withBaseDirectory(context.toFile())
                    .withDockerfile(file.toFile())
                    .withTags(Set.of(tag))
                    .withPull(false)
                    .withLabels(Map.of(BUILT_ON_LABEL, cellTag))
                    .exec(new BuildImageResultCallback())
                    .awaitImageId(15, TimeUnit.MINUTES);
        } finally {
            FileTrees.deleteQuietly(context);
        }
    }

    static String hash(byte[]... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (byte[] part : parts) {
                digest.update(part);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String[] splitTag(String name) {
        int slash = name.lastIndexOf('/');
        int colon = name.lastIndexOf(':');
        return colon > slash
                ? new String[] {name.substring(0, colon), name.substring(colon + 1)}
                : new String[] {name, "latest"};
    }

    private static String firstLine(String text) {
        return text == null ? "no detail" : text.lines().findFirst().orElse(text);
    }
}
