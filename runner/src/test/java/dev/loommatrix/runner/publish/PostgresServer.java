package dev.loommatrix.runner.publish;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server (Debian's {@code postgresql} package, which .ci/run installs) in a temporary
 * directory on a free loopback port, trust authentication, for the tests. PostgreSQL refuses to run as
 * root, so as root it runs as the package's {@code postgres} user.
 */
final class PostgresServer implements AutoCloseable {

    /** PostgreSQL refuses to run as root; then its commands run as the package's postgres user. */
    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    final Path dir;
    final int port;
    private final Path bin;

    private PostgresServer(Path dir, int port, Path bin) {
        this.dir = dir;
        this.port = port;
        this.bin = bin;
    }

    static PostgresServer start() throws Exception {
        Path bin = findBin();
        Path dir = Files.createTempDirectory("loom-pg");
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        if (ROOT) {
            exec(List.of("chown", "-R", "postgres:postgres", dir.toString()));
        }
        PostgresServer server = new PostgresServer(dir, port, bin);
        server.run(List.of(
                bin.resolve("initdb").toString(),
                "-D",
                dir.resolve("data").toString(),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-locale"));
        server.run(List.of(
                bin.resolve("pg_ctl").toString(),
                "-D",
                dir.resolve("data").toString(),
                "-w",
                "-t",
                "60",
                "-l",
                dir.resolve("server.log").toString(),
                "-o",
                "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1",
                "start"));
        return server;
    }

    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    }

    private void run(List<String> command) throws Exception {
        List<String> full = new ArrayList<>();
        if (ROOT) {
            full.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        full.addAll(command);
        exec(full);
    }

    private static void exec(List<String> command) throws Exception {
        var ended = dev.loommatrix.runner.Processes.run(java.time.Duration.ofSeconds(90), command);
        if (ended.exitCode() != 0) {
            throw new IllegalStateException("failed: " + String.join(" ", command) + "\n" + ended.output());
        }
    }

    static Path findBin() throws IOException {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.naturalOrder())
                    .orElseThrow(
                            () -> new IllegalStateException(
                                    "no PostgreSQL server under /usr/lib/postgresql; apt-get install postgresql (.ci/run does)"));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalStateException(
                    "no PostgreSQL server under /usr/lib/postgresql; apt-get install postgresql (.ci/run does)", e);
        }
    }

    @Override
    public void close() throws Exception {
        try {
            run(List.of(
                    bin.resolve("pg_ctl").toString(),
                    "-D",
                    dir.resolve("data").toString(),
                    "-m",
                    "fast",
                    "-w",
                    "stop"));
        } finally {
            dev.loommatrix.core.result.FileTrees.delete(dir);
        }
    }
}
