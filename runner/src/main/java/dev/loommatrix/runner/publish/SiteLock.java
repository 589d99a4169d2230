package dev.loommatrix.runner.publish;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The site's publish lock, {@code data/.publish.lock}: publishers of nightly runs and of A/B runs take it, so two
 * publishing at once (also from two processes) both land.
 */
final class SiteLock {

    private SiteLock() {}

    /** What is done under the site's publish lock. */
    interface Locked<T> {
        T run() throws IOException;
    }

    private static final ConcurrentMap<Path, ReentrantLock> LOCKS = new ConcurrentHashMap<>();

    /**
     * Runs {@code action} holding the site's publish lock: a file lock excludes other processes; threads of this
     * JVM share the process's lock (a second FileChannel.lock would throw), so they also queue on an in-process
     * lock for the same site.
     */
    static <T> T locked(Path site, Locked<T> action) throws IOException {
        Path data = History.data(site);
        Files.createDirectories(data);
        ReentrantLock local = LOCKS.computeIfAbsent(data.toAbsolutePath().normalize(), p -> new ReentrantLock());
        local.lock();
        try (FileChannel channel = FileChannel.open(
                        data.resolve(".publish.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = channel.lock()) {
            return action.run();
        } finally {
            local.unlock();
        }
    }
}
