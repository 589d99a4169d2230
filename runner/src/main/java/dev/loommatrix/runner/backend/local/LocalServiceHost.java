package dev.loommatrix.runner.backend.local;

import dev.loommatrix.runner.backend.UserCommand;
import dev.loommatrix.runner.backend.service.ServiceHost;
import dev.loommatrix.runner.backend.service.ServicePlacement;
import dev.loommatrix.runner.host.CpuAffinity;
import dev.loommatrix.runner.records.CellFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A service cell on this host: the server and oha as host processes, each pinned with {@code taskset} to its
 * own CPUs where the host has spare ones (the same {@link ServicePlacement} as in containers). Memory and pids are
 * not enforced here, as for every local cell. Linux only: the generator's scripts need bash.
 */
public final class LocalServiceHost implements ServiceHost {

    private final Path rawDir;
    private final ServicePlacement placement;
    private final Optional<Path> taskset;
    private final Path oha;
    private final int port;
    private final Path scratch;
    private final Starter starter;

    /** How the server and the generator's processes are started: the engine counts their CPU as the cell's. */
    @FunctionalInterface
    public interface Starter {
        Process start(ProcessBuilder builder) throws IOException;
    }

    public LocalServiceHost(
            Path rawDir, ServicePlacement placement, Optional<Path> taskset, Path oha, int port, Starter starter)
            throws IOException {
        this.rawDir = rawDir;
        this.placement = placement;
        this.taskset = taskset;
        this.oha = oha;
        this.port = port;
        this.starter = starter;
        this.scratch = Files.createTempDirectory("loom-generator");
    }

    @Override
    public Server start(String variant, int run, UserCommand.Launch launch) throws IOException {
        List<String> command = new ArrayList<>();
        placement.server().ifPresent(set -> command.addAll(CpuAffinity.prefix(false, taskset, set)));
        command.addAll(launch.command());
        Path log = rawDir.resolve(CellFiles.slug(variant) + ".server-" + run + ".log");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(rawDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(launch.env());
        return new LocalServer(starter.start(builder), log);
    }

    private static final class LocalServer implements Server {
        private final Process process;
        private final Path log;
        private boolean stopped;

        LocalServer(Process process, Path log) {
            this.process = process;
            this.log = log;
        }

        @Override
        public boolean alive() {
            return process.isAlive();
        }

        @Override
        public Optional<Integer> exitCode() {
            return process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
        }

        /** The JVM's own CPU time (taskset execs it, so the process is the JVM). */
        @Override
        public Optional<Double> cpuSeconds() {
            return process.info().totalCpuDuration().map(d -> d.toNanos() / 1e9);
        }

        @Override
        public String stop() throws IOException, InterruptedException {
            if (!stopped) {
                stopped = true;
                // the JVM's descendants too: nothing of the server outlives its repetition
                List<ProcessHandle> tree = process.descendants().toList();
                process.destroy(); // SIGTERM: shutdown hooks run, the agent writes its record
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
                tree.forEach(ProcessHandle::destroyForcibly);
            }
            String text = Files.isRegularFile(log) ? Files.readString(log) : "";
            Files.deleteIfExists(log);
            return text;
        }
    }

    @Override
    public Optional<String> generator(String script, Duration timeout) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        placement.generator().ifPresent(set -> command.addAll(CpuAffinity.prefix(false, taskset, set)));
        command.addAll(List.of("bash", "-c", script));
        Process process = starter.start(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD));
        // read on another thread, so a generator that hangs is ended by the timeout, not waited for forever
        var output = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        });
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            return Optional.empty();
        }
        try {
            return Optional.of(output.get(10, TimeUnit.SECONDS));
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return Optional.empty();
        }
    }

    @Override
    public String keep() {
        return scratch.toString();
    }

    @Override
    public boolean fetch(String path, Path target) throws IOException {
        Path file = Path.of(path);
        if (!Files.isRegularFile(file)) {
            return false;
        }
        Files.move(file, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return true;
    }

    @Override
    public String serverAddress() {
        return "127.0.0.1:" + port;
    }

    @Override
    public String oha() {
        return oha.toString();
    }

    @Override
    public String scratch() {
        return scratch.toString();
    }

    @Override
    public ServicePlacement placement() {
        return placement;
    }

    @Override
    public void close() {
        dev.loommatrix.core.result.FileTrees.deleteQuietly(scratch);
    }
}
