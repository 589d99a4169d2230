package dev.loommatrix.runner.ab;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The coordinator of an A/B pair measured in lockstep (issue #30): both sides' blocks of a pair run at once, and
 * their forks take turns, one iteration at a time — the harness's {@code --turns DIR}
 * (dev.loommatrix.harness.measure.Turns). On a shared machine whose speed wanders within a second, the two
 * iterations compared then ran tens of milliseconds apart instead of seconds, and a pair's difference no longer
 * carries the machine's moment (measured: a pair's spread 0.12–0.20× back to back's on a noisy day,
 * benchmarks/results/2026-11-27-ab-lockstep).
 *
 * <p>Each side has a turns directory with two named pipes, {@code go} and {@code done}. A side's forks come one
 * after another (warmup forks, then the measured one, for each variant in the pair's order — the same on both
 * sides); a fork opens {@code go}, then {@code done}, and for each iteration reads a byte from {@code go} and writes
 * one to {@code done}; its last turn holds its tail, which it announces ({@code t}), waiting for one more byte, and
 * which ends when it exits (end of file on {@code done}). Before that byte the side's pipes are made afresh under the
 * same names, so the next fork (hyperfine starts it as soon as this one exits) opens new pipes, never this one's. A
 * <em>round</em> is one fork of each side: it starts when both have come (or a side has not come within {@link
 * #PARTNER_WAIT}, or its block has ended — then the other takes its turns alone) and gives turns ABBA, the first
 * side drawn per round, until every fork of the round has ended. A fork that comes while a round runs waits for the
 * next, so the two sides' start-ups overlap each other rather than a measured turn.
 *
 * <p>Nothing here decides a number: a fork that fails, hangs or is killed only ends its own turns (its pipe closes),
 * and the pair is still a pair of blocks. Lockstep takes the machine's drift out of the pair; the records and the
 * tests are the same as back to back.
 */
public final class Lockstep implements AutoCloseable {

    /** How long a round waits for the second side's fork before the first takes its turns alone. */
    static final Duration PARTNER_WAIT = Duration.ofSeconds(60);

    /** The two sides of a pair, as AbRun names their blocks. */
    public static final List<String> SIDES = List.of("a", "b");

    /**
     * What the coordinator did: rounds (fork pairs), and turns given with both sides' forks alive or to one alone
     * (a side's fork that failed, or the two sides' forks out of step).
     */
    public record Tally(int rounds, int pairedTurns, int aloneTurns) {}

    private final List<Side> sides;
    private final Random random;
    private final Duration partnerWait;
    private final Thread thread;
    private volatile boolean closing;
    private int rounds;
    private int pairedTurns;
    private int aloneTurns;

    private Lockstep(List<Side> sides, long seed, Duration partnerWait) {
        this.sides = sides;
        this.random = new Random(seed);
        this.partnerWait = partnerWait;
        sides.forEach(Side::startConnecting);
        this.thread = Thread.ofPlatform().daemon().name("loom-matrix-lockstep").start(this::coordinate);
    }

    /**
     * Makes {@code dir/a} and {@code dir/b}, each with its pipes (writable by a container's unprivileged user), and
     * starts coordinating; empty when this host cannot make named pipes (no {@code mkfifo}: Windows) — then the pair
     * runs back to back.
     */
    public static Optional<Lockstep> start(Path dir, long seed) throws IOException, InterruptedException {
        return start(dir, seed, PARTNER_WAIT);
    }

    static Optional<Lockstep> start(Path dir, long seed, Duration partnerWait)
            throws IOException, InterruptedException {
        List<Side> sides = new ArrayList<>();
        for (String name : SIDES) {
            Path turns = dir.resolve(name);
            Files.createDirectories(turns);
            for (String pipe : List.of("go", "done")) {
                if (!mkfifo(turns.resolve(pipe))) {
                    return Optional.empty();
                }
            }
            // a container's cell runs as its own unprivileged user: the directory and pipes are everyone's
            Files.setPosixFilePermissions(turns, PosixFilePermissions.fromString("rwxrwxrwx"));
            sides.add(new Side(name, turns));
        }
        return Optional.of(new Lockstep(sides, seed, partnerWait));
    }

    /** Whether this host can make named pipes, hence measure pairs in lockstep. */
    public static boolean available() {
        try {
            Path probe = Files.createTempDirectory("loom-lockstep-probe");
            try {
                return mkfifo(probe.resolve("p"));
            } finally {
                Files.deleteIfExists(probe.resolve("p"));
                Files.delete(probe);
            }
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean mkfifo(Path path) throws IOException, InterruptedException {
        try {
            Process p = new ProcessBuilder("mkfifo", "-m", "666", path.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return p.waitFor() == 0 && Files.exists(path);
        } catch (IOException e) {
            return false; // no mkfifo on this host
        }
    }

    /** The turns directory a side's forks are given ({@code --turns}). */
    public Path dir(String side) {
        return sides.get(SIDES.indexOf(side)).dir;
    }

    /** A side's block has ended: no more of its forks will come, so no round waits for one. */
    public void ended(String side) {
        sides.get(SIDES.indexOf(side)).ended = true;
    }

    /** Stops coordinating (both blocks have ended) and says what was done. */
    public Tally finish() {
        close();
        synchronized (this) {
            return new Tally(rounds, pairedTurns, aloneTurns);
        }
    }

    @Override
    public void close() {
        closing = true;
        sides.forEach(s -> s.ended = true);
        thread.interrupt();
        sides.forEach(Side::release);
        try {
            thread.join(Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void coordinate() {
        try {
            while (!closing) {
                List<Fork> round = nextRound();
                if (round.isEmpty()) {
                    continue;
                }
                play(round);
            }
        } catch (InterruptedException e) {
            // closing
        }
    }

    /** Waits for a fork of either side, then (bounded) for the other's; empty when nothing came. */
    private List<Fork> nextRound() throws InterruptedException {
        List<Fork> round = new ArrayList<>();
        long deadline = Long.MAX_VALUE;
        while (!closing) {
            for (Side side : sides) {
                if (round.stream().noneMatch(f -> f.side == side)) {
                    Fork fork = side.arrived.poll();
                    if (fork != null) {
                        round.add(fork);
                    }
                }
            }
            if (round.size() == sides.size()) {
                return round;
            }
            if (!round.isEmpty()) {
                if (deadline == Long.MAX_VALUE) {
                    deadline = System.nanoTime() + partnerWait.toNanos();
                }
                boolean partnerGone = sides.stream()
                        .filter(s -> round.stream().noneMatch(f -> f.side == s))
                        .allMatch(s -> s.ended && s.arrived.isEmpty());
                if (partnerGone || System.nanoTime() > deadline) {
                    return round;
                }
            }
            Thread.sleep(2);
        }
        round.forEach(Fork::close);
        return List.of();
    }

    /** Turns, ABBA from a drawn side, until every fork of the round has ended. */
    private void play(List<Fork> round) throws InterruptedException {
        List<Fork> order = new ArrayList<>(round);
        if (order.size() == 2 && random.nextBoolean()) {
            java.util.Collections.reverse(order);
        }
        synchronized (this) {
            rounds++;
        }
        List<Fork> live = new ArrayList<>(order);
        int step = 0;
        while (!live.isEmpty()) {
            List<Fork> now = step % 2 == 0 ? order : order.reversed();
            boolean paired = live.size() == 2;
            for (Fork fork : now) {
                if (!live.contains(fork)) {
                    continue;
                }
                boolean stillThere = fork.turn();
                synchronized (this) {
                    if (paired) {
                        pairedTurns++;
                    } else {
                        aloneTurns++;
                    }
                }
                if (!stillThere) {
                    live.remove(fork);
                    fork.close();
                }
            }
            step++;
            if (closing && Thread.interrupted()) {
                throw new InterruptedException();
            }
        }
    }

    /** One side's turns directory: a connector thread opens its pipes for each fork that comes, one at a time. */
    private static final class Side {
        final String name;
        final Path dir;
        final BlockingQueue<Fork> arrived = new LinkedBlockingQueue<>();
        volatile boolean ended;
        private volatile boolean released;
        private Thread connector;

        Side(String name, Path dir) {
            this.name = name;
            this.dir = dir;
        }

        void startConnecting() {
            connector = Thread.ofPlatform()
                    .daemon()
                    .name("loom-matrix-lockstep-" + name)
                    .start(this::connect);
        }

        /**
         * New pipes under the old names, for the next fork, while the one ending waits: it keeps its open ends of the
         * old ones. (A fork that dies without its tail cannot wait: its next could open the old pipes before the
         * coordinator saw the end — a JVM starts in tens of milliseconds, the end of file is seen in microseconds.)
         */
        void renew() throws IOException, InterruptedException {
            for (String pipe : List.of("go", "done")) {
                Path fresh = dir.resolve(pipe + ".new");
                Files.deleteIfExists(fresh);
                if (!mkfifo(fresh)) {
                    throw new IOException("could not make a named pipe at " + fresh);
                }
                Files.move(fresh, dir.resolve(pipe), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            }
        }

        /** Opens go then done, as a fork does (each blocks until the fork's end is open); again after it ended. */
        private void connect() {
            while (!released) {
                OutputStream go = null;
                try {
                    go = Files.newOutputStream(dir.resolve("go"));
                    InputStream done = Files.newInputStream(dir.resolve("done"));
                    if (released) {
                        go.close();
                        done.close();
                        return;
                    }
                    Fork fork = new Fork(this, go, done);
                    arrived.put(fork);
                    fork.awaitEnd();
                } catch (IOException e) {
                    closeQuietly(go);
                    if (released) {
                        return;
                    }
                    // a fork that died between its two opens: wait for the next
                } catch (InterruptedException e) {
                    closeQuietly(go);
                    return;
                }
            }
        }

        /** Frees the connector from an open that no fork will ever answer: opens the other ends itself. */
        void release() {
            released = true;
            connector.interrupt();
            for (int attempt = 0; attempt < 200 && connector.isAlive(); attempt++) {
                for (String pipe : List.of("go", "done")) {
                    // read-write opens of a pipe never block, and satisfy an open waiting for its other end
                    try (RandomAccessFile other =
                            new RandomAccessFile(dir.resolve(pipe).toFile(), "rw")) {
                        other.getFD();
                    } catch (IOException e) {
                        // the pipe is gone: nothing waits on it
                    }
                }
                try {
                    connector.join(Duration.ofMillis(20));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            Fork fork;
            while ((fork = arrived.poll()) != null) {
                fork.close();
            }
        }
    }

    /** One fork of a side, from its opening the pipes until it exits. */
    private static final class Fork {
        final Side side;
        private final OutputStream go;
        private final InputStream done;
        private final java.util.concurrent.CountDownLatch ended = new java.util.concurrent.CountDownLatch(1);

        Fork(Side side, OutputStream go, InputStream done) {
            this.side = side;
            this.go = go;
            this.done = done;
        }

        /**
         * Gives the fork one turn and waits for it to end: true after an iteration, false when the fork has ended
         * (its tail, until it exited; or it died, or closed its pipes).
         */
        boolean turn() {
            try {
                go.write('.');
                go.flush();
                int said = done.read();
                if (said == 't') {
                    side.renew();
                    go.write('.'); // the fork may go on to exit: the next one will find fresh pipes
                    go.flush();
                    while (done.read() >= 0) {
                        // the tail says nothing more; its end is the fork's exit
                    }
                    return false;
                }
                return said >= 0;
            } catch (IOException e) {
                return false; // the fork has gone (a broken pipe)
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        void awaitEnd() throws InterruptedException {
            ended.await(Long.MAX_VALUE, TimeUnit.DAYS);
        }

        void close() {
            closeQuietly(go);
            closeQuietly(done);
            ended.countDown();
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception e) {
                // closing a pipe whose other end has gone
            }
        }
    }
}
