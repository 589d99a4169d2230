package dev.loommatrix.runner.host;

import dev.loommatrix.core.result.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;

/**
 * One measurement per machine (issue #32): {@code run} and {@code ab} hold this host's measurement lock — and,
 * measuring in containers, their Docker engine's — while they measure, so two runs never share the CPUs they
 * time (side by side, each slowed the other by 5-10 % here, and both recorded clean cells). {@code plan},
 * {@code validate}, {@code compare}, {@code publish} and {@code export} never take it.
 *
 * <p>Each lock is an OS file lock on a file in a host-wide directory ({@code $LOOM_LOCK_DIR}, default
 * {@code <tmp>/loom-matrix-locks}): the kernel releases it when its process dies, however it dies, so a SIGKILLed
 * run's lock is taken over by the next run, which says so. The file holds who holds it (run id, pid, since, what it
 * runs), for a waiting run to say whose run it waits for. Threads of one JVM queue on an in-process semaphore first (a
 * second {@link FileChannel#lock} in the same JVM would throw).
 */
public final class MeasurementLock implements AutoCloseable {

    /** Who holds a lock, as its file says. */
    public record Holder(String runId, long pid, String since, String command) {
        String words() {
            return "run " + runId + " (pid " + pid + ", " + command + ", since " + since + ")";
        }
    }

    /** Another run holds a lock and the caller would not wait ({@code --no-wait}). */
    public static final class Busy extends Exception {
        private static final long serialVersionUID = 1L;

        Busy(String message) {
            super(message);
        }
    }

    private static final ConcurrentMap<Path, Semaphore> IN_PROCESS = new ConcurrentHashMap<>();

    private final List<Held> held;

    private record Held(Path file, Semaphore local, FileChannel channel, FileLock lock) {}

    private MeasurementLock(List<Held> held) {
        this.held = held;
    }

    /** The host-wide directory of the locks. */
    public static Path directory() {
        return dev.loommatrix.runner.host.HostState.directory();
    }

    /**
     * The run measuring on this engine now, if one is (its lock held by a live process), as its lock file says; for
     * {@code prune}, which never waits for a run but leaves alone what it may use. Takes nothing: a lock found free is
     * released at once.
     */
    public static Optional<Holder> liveRun(Optional<String> engineId) throws IOException {
        return liveRun(directory(), engineId);
    }

    static Optional<Holder> liveRun(Path dir, Optional<String> engineId) throws IOException {
        List<Path> files = files(dir, engineId);
        // the engine's lock when there is an engine (a run on the local backend uses no image), else the host's
        Path file = files.get(files.size() - 1);
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        Semaphore local = IN_PROCESS.computeIfAbsent(file.toAbsolutePath().normalize(), f -> new Semaphore(1));
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (local.tryAcquire()) {
                try (FileLock free = channel.tryLock()) {
                    if (free != null) {
                        return Optional.empty();
                    }
                } finally {
                    local.release();
                }
            }
            // held: by another process, or by a run in this JVM
            return Optional.of(read(channel)
                    .orElse(new Holder("(not yet written)", -1, Instant.now().toString(), "run")));
        }
    }

    /** This host's lock, then the engine's (in that order, always: two runs never wait on each other crosswise). */
    static List<Path> files(Path dir, Optional<String> engineId) {
        List<Path> files = new ArrayList<>(List.of(dir.resolve("host.lock")));
        engineId.ifPresent(id -> files.add(dir.resolve("engine-" + id.replaceAll("[^A-Za-z0-9._-]", "_") + ".lock")));
        return files;
    }

    /**
     * Takes this host's lock (and the engine's, if any), waiting while another run holds one — saying whose, once,
     * through {@code say} — unless {@code wait} is false.
     *
     * @param command what this run does, for a run that waits on it ("run --matrix matrix.yaml")
     */
    public static MeasurementLock acquire(
            Optional<String> engineId, String runId, String command, boolean wait, Consumer<String> say)
            throws IOException, Busy, InterruptedException {
        return acquire(directory(), engineId, runId, command, wait, say, Duration.ofMillis(500));
    }

    static MeasurementLock acquire(
            Path dir,
            Optional<String> engineId,
            String runId,
            String command,
            boolean wait,
            Consumer<String> say,
            Duration poll)
            throws IOException, Busy, InterruptedException {
        Files.createDirectories(dir);
        List<Held> held = new ArrayList<>();
        try {
            for (Path file : files(dir, engineId)) {
                held.add(take(file, runId, command, wait, say, poll));
            }
        } catch (IOException | Busy | InterruptedException | RuntimeException e) {
            new MeasurementLock(held).close();
            throw e;
        }
        return new MeasurementLock(held);
    }

    private static Held take(Path file, String runId, String command, boolean wait, Consumer<String> say, Duration poll)
            throws IOException, Busy, InterruptedException {
        // not reentrant: a second acquire from the same thread waits like any other
        Semaphore local = IN_PROCESS.computeIfAbsent(file.toAbsolutePath().normalize(), f -> new Semaphore(1));
        FileChannel channel = open(file);
        boolean said = false;
        Instant began = Instant.now();
        try {
            while (true) {
                if (local.tryAcquire()) {
                    FileLock lock;
                    try {
                        lock = channel.tryLock();
                    } catch (IOException | RuntimeException e) {
                        local.release();
                        throw e;
                    }
                    if (lock != null) {
                        // a holder written down but not there any more: killed before it could clear the file
                        read(channel)
                                .ifPresent(gone -> say.accept("note: took over the measurement lock " + file + " from "
                                        + gone.words() + ", which ended without releasing it"));
                        write(
                                channel,
                                new Holder(
                                        runId,
                                        ProcessHandle.current().pid(),
                                        Instant.now().toString(),
                                        command));
                        return new Held(file, local, channel, lock);
                    }
                    local.release();
                }
                Optional<Holder> holder = read(channel);
                String whose = holder.map(Holder::words).orElse("another run");
                if (!wait
                        && holder.isEmpty()
                        && Duration.between(began, Instant.now()).toMillis() < 1000) {
                    Thread.sleep(poll.toMillis()); // its holder is about to write who it is
                    continue;
                }
                if (!wait) {
                    throw new Busy("this host measures one run at a time, and " + whose + " holds " + file
                            + "; wait for it (without --no-wait), or run elsewhere");
                }
                // the holder writes who it is just after it takes the lock: give it a moment before saying "another"
                boolean known = holder.isPresent()
                        || Duration.between(began, Instant.now()).toSeconds() >= 2;
                if (!said && known) {
                    say.accept("waiting: this host measures one run at a time, and " + whose + " holds " + file
                            + " (plan, validate, compare, publish and export never wait)");
                    said = true;
                }
                Thread.sleep(poll.toMillis());
            }
        } catch (IOException | Busy | InterruptedException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    /** The lock file, readable and writable by every user of the host (another user's run must be able to wait). */
    private static FileChannel open(Path file) throws IOException {
        boolean created = false;
        if (!Files.exists(file)) {
            try {
                Files.createFile(file);
                created = true;
            } catch (java.nio.file.FileAlreadyExistsException raced) {
                // another run created it first
            }
        }
        if (created) {
            try {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
            } catch (UnsupportedOperationException | IOException notPosix) {
                // Windows: its ACLs already let the host's users share a temporary directory's file
            }
        }
        return FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    private static Optional<Holder> read(FileChannel channel) {
        try {
            long size = channel.size();
            if (size == 0 || size > 64 * 1024) {
                return Optional.empty();
            }
            ByteBuffer buffer = ByteBuffer.allocate((int) size);
            channel.read(buffer, 0);
            return Optional.of(Json.MAPPER.readValue(buffer.array(), Holder.class));
        } catch (IOException | RuntimeException unreadable) {
            return Optional.empty();
        }
    }

    private static void write(FileChannel channel, Holder holder) throws IOException {
        byte[] bytes = Json.MAPPER.writeValueAsString(holder).getBytes(StandardCharsets.UTF_8);
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(bytes), 0);
        channel.force(false);
    }

    /** Releases the locks, clearing who held them (a file left with a holder in it means a run that was killed). */
    @Override
    public void close() throws IOException {
        IOException first = null;
        for (int i = held.size() - 1; i >= 0; i--) {
            Held h = held.get(i);
            try {
                h.channel().truncate(0);
                h.lock().release();
                h.channel().close();
            } catch (IOException e) {
                first = first == null ? e : first;
            } finally {
                h.local().release();
            }
        }
        held.clear();
        if (first != null) {
            throw first;
        }
    }
}
