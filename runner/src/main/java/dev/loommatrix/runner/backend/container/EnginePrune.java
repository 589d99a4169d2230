package dev.loommatrix.runner.backend.container;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Image;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What {@code prune} removes from a Docker engine (issue #32): loom-matrix images that none of the newest N runs used
 * (by {@link ImageUses}), stopped containers and idle networks that runs left (by their run label). It never touches
 * what a live run may use: while a run measures on the engine (its measurement lock held), every image stays and
 * that run's containers and networks too; a running container is never touched. Images are removed by tag and
 * without force, so the engine itself refuses one that a container still uses.
 */
public final class EnginePrune {

    /** A live run on the engine, as its lock file says (run id; how to name it in words). */
    public record LiveRun(String runId, String words) {}

    /** One thing removed or left, with its size in bytes where it has one of its own. */
    public record Item(String name, long bytes, String why) {}

    /** What was removed and what was left, and why. */
    public record Report(
            List<Item> removedImages,
            List<Item> keptImages,
            List<Item> removedContainers,
            List<Item> leftContainers,
            List<Item> removedNetworks,
            Optional<String> imagesLeftAlone) {

        public long freedBytes() {
            return removedImages.stream().mapToLong(Item::bytes).sum();
        }
    }

    private final DockerClient docker;
    private final ImageUses uses;

    public EnginePrune(DockerClient docker, ImageUses uses) {
        this.docker = docker;
        this.uses = uses;
    }

    /**
     * @param keepRuns the images of the newest this many runs on the engine are kept
     * @param live the run measuring on the engine now, if any
     * @param dryRun say what would go, remove nothing
     */
    public Report prune(int keepRuns, Optional<LiveRun> live, boolean dryRun) {
        Set<String> liveRunIds = new HashSet<>();
        live.ifPresent(l -> liveRunIds.add(l.runId()));
        Containers containers = pruneContainers(liveRunIds, dryRun);
        List<Item> removedNetworks = pruneNetworks(liveRunIds, dryRun);
        Images images = pruneImages(keepRuns, live, dryRun);
        return new Report(
                images.removed(),
                images.kept(),
                containers.removed(),
                containers.left(),
                removedNetworks,
                images.leftAlone());
    }

    private record Containers(List<Item> removed, List<Item> left) {}

    /**
     * The stopped containers of runs no longer alive. A run found alive here (a container of it running or started
     * since it was listed) joins {@code liveRunIds}, so its network stays too.
     */
    private Containers pruneContainers(Set<String> liveRunIds, boolean dryRun) {
        List<Item> removedContainers = new ArrayList<>();
        List<Item> leftContainers = new ArrayList<>();
        for (Container c : docker.listContainersCmd()
                .withShowAll(true)
                .withLabelFilter(List.of(ContainerBackend.RUN_LABEL))
                .exec()) {
            String run = c.getLabels().getOrDefault(ContainerBackend.RUN_LABEL, "");
            String name = containerName(c) + " (run " + run + ", " + c.getImage() + ")";
            if ("running".equals(c.getState()) || "restarting".equals(c.getState())) {
                liveRunIds.add(run); // its run is alive, whatever its lock says: leave its network too
                leftContainers.add(new Item(name, 0, "running"));
            } else if (liveRunIds.contains(run)) {
                leftContainers.add(new Item(name, 0, "of the run measuring now"));
            } else if (dryRun || removeUnlessStarted(c.getId())) {
                removedContainers.add(new Item(name, 0, c.getStatus()));
            } else {
                liveRunIds.add(run); // it started after it was listed: its run is alive
                leftContainers.add(new Item(name, 0, "started since it was listed"));
            }
        }
        return new Containers(removedContainers, leftContainers);
    }

    /** The networks of runs no longer alive that no container is on. */
    private List<Item> pruneNetworks(Set<String> liveRunIds, boolean dryRun) {
        List<Item> removedNetworks = new ArrayList<>();
        for (var network : docker.listNetworksCmd()
                .withFilter("label", List.of(ContainerBackend.RUN_LABEL))
                .exec()) {
            String run = network.getLabels().getOrDefault(ContainerBackend.RUN_LABEL, "");
            var attached = docker.inspectNetworkCmd()
                    .withNetworkId(network.getId())
                    .exec()
                    .getContainers();
            if (liveRunIds.contains(run) || (attached != null && !attached.isEmpty())) {
                continue;
            }
            try {
                if (!dryRun) {
                    docker.removeNetworkCmd(network.getId()).exec();
                }
                removedNetworks.add(new Item(network.getName() + " (run " + run + ")", 0, "no container on it"));
            } catch (RuntimeException inUse) {
                // a container joined it since: it stays
            }
        }
        return removedNetworks;
    }

    private record Images(List<Item> removed, List<Item> kept, Optional<String> leftAlone) {}

    /** The loom-matrix images no recent run used, nothing uses and nothing kept is built on; all of them kept while a run may still use any. */
    private Images pruneImages(int keepRuns, Optional<LiveRun> live, boolean dryRun) {
        List<Item> removedImages = new ArrayList<>();
        List<Item> keptImages = new ArrayList<>();
        List<Image> all = docker.listImagesCmd().withShowAll(false).exec();
        List<Image> ours = all.stream()
                .filter(i -> i.getLabels() != null && i.getLabels().containsKey(CellImages.BASE_IMAGE_LABEL))
                .toList();
        RecordedUses record = recordedUses(live);
        Optional<String> leftAlone = record.leaveAlone();
        if (leftAlone.isPresent()) {
            ours.forEach(i -> keptImages.add(new Item(name(i), ownBytes(i, all), leftAlone.get())));
            return new Images(removedImages, keptImages, leftAlone);
        }
        Map<String, Image> byTag = new HashMap<>();
        ours.forEach(i -> tags(i).forEach(t -> byTag.put(t, i)));
        Map<String, String> keep = imagesToKeep(keepRuns, record.recorded(), byTag);
        // the images built on others first: a parent goes after its children
        List<Image> order = new ArrayList<>(ours);
        order.sort(Comparator.comparingInt((Image i) -> depth(i, byTag)).reversed());
        for (Image image : order) {
            Optional<String> why =
                    tags(image).stream().map(keep::get).filter(w -> w != null).findFirst();
            if (why.isPresent()) {
                keptImages.add(new Item(name(image), ownBytes(image, all), why.get()));
                continue;
            }
            try {
                if (!dryRun) {
                    removeImage(image);
                }
                removedImages.add(new Item(name(image), ownBytes(image, all), "no recent run used it"));
            } catch (RuntimeException refused) {
                keptImages.add(
                        new Item(name(image), ownBytes(image, all), "the engine refused: " + firstLine(refused)));
            }
        }
        return new Images(removedImages, keptImages, leftAlone);
    }

    /** The images to keep (tag → why): the newest runs' images, those a container uses, and what those are built on. */
    private Map<String, String> imagesToKeep(int keepRuns, List<ImageUses.Use> recorded, Map<String, Image> byTag) {
        Map<String, String> keep = new HashMap<>(); // tag → why
        for (int i = Math.max(0, recorded.size() - keepRuns); i < recorded.size(); i++) {
            ImageUses.Use use = recorded.get(i);
            use.images().forEach(tag -> keep.putIfAbsent(tag, "used by run " + use.runId() + " (" + use.at() + ")"));
        }
        for (Container c : docker.listContainersCmd().withShowAll(true).exec()) {
            keep.putIfAbsent(c.getImage(), "a container uses it (" + containerName(c) + ")");
        }
        // an image kept keeps what it is built on (the engine would refuse to remove that anyway)
        for (String tag : new ArrayList<>(keep.keySet())) {
            Optional<String> parent = builtOn(byTag.get(tag));
            while (parent.isPresent() && byTag.containsKey(parent.get())) {
                keep.putIfAbsent(parent.get(), "an image kept is built on it (" + tag + ")");
                parent = builtOn(byTag.get(parent.get()));
            }
        }
        return keep;
    }

    /** By tag, without force: the engine refuses (throws) while a container uses it; an untagged one by its id. */
    private void removeImage(Image image) {
        if (tags(image).isEmpty()) {
            docker.removeImageCmd(image.getId()).exec();
        }
        for (String tag : tags(image)) {
            docker.removeImageCmd(tag).exec();
        }
    }

    /** The runs' record of the images they used, or why no image may go now (then the record is empty). */
    private record RecordedUses(List<ImageUses.Use> recorded, Optional<String> leaveAlone) {

        static RecordedUses leaveAlone(String why) {
            return new RecordedUses(List.of(), Optional.of(why));
        }
    }

    private RecordedUses recordedUses(Optional<LiveRun> live) {
        if (live.isPresent()) {
            return RecordedUses.leaveAlone(live.get().words()
                    + " is measuring on this engine and may build or use any of them; prune again after it ends");
        }
        if (!uses.exists()) {
            return RecordedUses.leaveAlone("no run on this engine has recorded its images yet (" + uses.file()
                    + "); runs record them from this version on, and prune keeps the newest runs' images");
        }
        try {
            return new RecordedUses(uses.read(), Optional.empty());
        } catch (IOException e) {
            return RecordedUses.leaveAlone(
                    "the record of which runs used them cannot be read (" + uses.file() + ": " + firstLine(e) + ")");
        }
    }

    private static int depth(Image image, Map<String, Image> byTag) {
        int depth = 0;
        Optional<String> parent = builtOn(image);
        while (parent.isPresent() && byTag.containsKey(parent.get()) && depth < 16) {
            depth++;
            parent = builtOn(byTag.get(parent.get()));
        }
        return depth;
    }

    /** The image it was built on: a loom-matrix image (user layer, load generator) or the cell image's base. */
    private static Optional<String> builtOn(Image image) {
        if (image == null || image.getLabels() == null) {
            return Optional.empty();
        }
        return Optional.ofNullable(image.getLabels().get(CellImages.BUILT_ON_LABEL))
                .or(() -> Optional.ofNullable(image.getLabels().get(CellImages.BASE_IMAGE_LABEL)));
    }

    /** Bytes of its own layers: its size less what it is built on (an image's size counts every layer under it). */
    private static long ownBytes(Image image, List<Image> all) {
        Optional<String> parent = builtOn(image);
        long size = image.getSize() == null ? 0 : image.getSize();
        if (parent.isEmpty()) {
            return size;
        }
        return all.stream()
                .filter(i -> tags(i).contains(parent.get()))
                .findFirst()
                .map(p -> Math.max(0, size - (p.getSize() == null ? 0 : p.getSize())))
                .orElse(size);
    }

    private static List<String> tags(Image image) {
        if (image == null || image.getRepoTags() == null) {
            return List.of();
        }
        return List.of(image.getRepoTags()).stream()
                .filter(t -> !t.equals("<none>:<none>"))
                .toList();
    }

    private static String name(Image image) {
        List<String> tags = tags(image);
        return tags.isEmpty() ? image.getId() : String.join(", ", new LinkedHashSet<>(tags));
    }

    private static String containerName(Container c) {
        return c.getNames() != null && c.getNames().length > 0
                ? c.getNames()[0].replaceFirst("^/", "")
                : c.getId().substring(0, 12);
    }

    private static String firstLine(Exception e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.lines().findFirst().orElse(m);
    }

    /**
     * Removes a stopped container of a finished run; false when it was started after it was listed (the engine
     * refuses to remove a running one, and prune never stops one). Gone meanwhile counts as removed.
     */
    public boolean removeUnlessStarted(String containerId) {
        try {
            docker.removeContainerCmd(containerId).withRemoveVolumes(true).exec();
            return true;
        } catch (com.github.dockerjava.api.exception.NotFoundException gone) {
            return true;
        } catch (com.github.dockerjava.api.exception.ConflictException started) {
            return false;
        }
    }
}
