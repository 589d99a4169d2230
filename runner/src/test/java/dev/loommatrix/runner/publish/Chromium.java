package dev.loommatrix.runner.publish;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Debian's Chromium, headless, as a test instrument: the DOM after scripts ran, and screenshots. The
 * background-networking flags keep it from dialling out on a host with no network.
 */
public final class Chromium {

    public static final Path BINARY = Path.of(System.getProperty("loom.chromium", "/usr/bin/chromium"));

    private Chromium() {}

    public static String dumpDom(String url) throws IOException, InterruptedException {
        return run(List.of("--dump-dom", url));
    }

    public static void screenshot(String url, Path png, int width, int height)
            throws IOException, InterruptedException {
        Files.createDirectories(png.getParent());
        run(List.of("--screenshot=" + png.toAbsolutePath(), "--window-size=" + width + "," + height, url));
        if (!Files.isRegularFile(png)) {
            throw new IOException("chromium wrote no screenshot to " + png);
        }
    }

    private static String run(List<String> args) throws IOException, InterruptedException {
        if (!Files.isExecutable(BINARY)) {
            throw new IllegalStateException("no Chromium at " + BINARY + " (apt-get install chromium; .ci/run does)");
        }
        Path profile = Files.createTempDirectory("chromium-profile");
        List<String> command = new ArrayList<>(List.of(
                BINARY.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + profile,
                "--virtual-time-budget=5000"));
        command.addAll(args);
        // the DOM on stdout alone; a hung Chromium fails the test after a minute (Processes)
        var ended = dev.loommatrix.runner.Processes.run(
                new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD),
                java.time.Duration.ofSeconds(60));
        if (ended.exitCode() != 0) {
            throw new IOException("chromium exited with " + ended.exitCode());
        }
        return ended.output();
    }
}
