package dev.loommatrix.runner.publish;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.core.result.RunManifest;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Publishes a run into a static site: adds it to the site's {@link History} (the data the dashboard
 * reads) and installs the dashboard itself — the built {@code dashboard/} app the runner carries as
 * resources. The dashboard is the same for every run; all it knows of the runs it reads from
 * {@code data/} at view time, so one install serves the whole history.
 */
public final class SitePublisher {

    /** Where the build puts {@code dashboard/dist} on the runner's classpath. */
    static final String ASSETS = "/dashboard/";

    /** Written by the dashboard's build: every file of the app, relative to its root. */
    static final String FILE_LIST = "site-files.json";

    private SitePublisher() {}

    public static Path publish(RunDirectory run, Path site) throws IOException {
        return publish(run, site, Optional.empty()).page();
    }

    /** What publish wrote: the dashboard's page, the history after it, and anything the user should know. */
    public record Published(Path page, History.Outcome history) {}

    public static Published publish(RunDirectory run, Path site, Optional<Integer> keep) throws IOException {
        return publish(run, site, keep, History.KEEP_PROFILES, false);
    }

    /**
     * @param keepProfiles the newest runs whose profiles (flame graph pages) the site keeps
     * @param recordings also publish the JFR recordings (hundreds of kB each: a 1,000-cell run's are gigabytes)
     */
    public static Published publish(
            RunDirectory run, Path site, Optional<Integer> keep, int keepProfiles, boolean recordings)
            throws IOException {
        RunManifest manifest = run.readManifest();
        List<CellRecord> cells = run.readCells();
        if (keepProfiles > 0) {
            copyProfiles(run, site, manifest.runId(), cells, recordings);
        }
        History.Outcome history = History.add(site, manifest, cells, keep, keepProfiles);
        return new Published(installDashboard(site), history);
    }

    /**
     * The cells' profiling recordings (issue #20) into {@code data/runs/<runId>/profiles/<cellId>/}, for the cell
     * view to offer; a recording already there with the same bytes is left alone.
     */
    static void copyProfiles(RunDirectory run, Path site, String runId, List<CellRecord> cells, boolean recordings)
            throws IOException {
        for (CellRecord cell : cells) {
            for (var profile : cell.profiles()) {
                for (String file : profile.files()) {
                    if (recordings || !file.endsWith(".jfr")) {
                        copyProfile(run, site, runId, cell, file);
                    }
                }
            }
        }
    }

    /** One file of a cell's profile into the site, atomically; a name with a path in it is not one of ours. */
    private static void copyProfile(RunDirectory run, Path site, String runId, CellRecord cell, String file)
            throws IOException {
        Path from = run.rawDir(cell.cellId()).resolve(file);
        if (file.contains("/") || file.contains("\\") || !Files.isRegularFile(from)) {
            return;
        }
        Path to = History.profilesDir(site, runId).resolve(cell.cellId()).resolve(file);
        if (Files.isRegularFile(to) && Files.mismatch(from, to) == -1) {
            return;
        }
        Json.writeAtomically(to, Files.readAllBytes(from));
    }

    /**
     * Copies the dashboard into the site: hashed assets first, {@code index.html} last (each atomically),
     * so a reader never gets a page whose scripts are not there yet; then removes assets of earlier
     * dashboard versions, which no page refers to any more.
     */
    public static Path installDashboard(Path site) throws IOException {
        List<String> files;
        try (InputStream list = resource(FILE_LIST)) {
            files = Json.MAPPER.readValue(list, new TypeReference<List<String>>() {});
        }
        Set<String> current = new HashSet<>(files);
        for (String file : files.stream().filter(f -> !f.equals("index.html")).toList()) {
            copy(file, site);
        }
        copy("index.html", site);
        Path assets = site.resolve("assets");
        if (Files.isDirectory(assets)) {
            try (Stream<Path> old = Files.walk(assets)) {
                for (Path p : old.filter(Files::isRegularFile).toList()) {
                    String relative = site.relativize(p).toString().replace('\\', '/');
                    if (!current.contains(relative)) {
                        Files.delete(p);
                    }
                }
            }
        }
        return site.resolve("index.html");
    }

    private static void copy(String file, Path site) throws IOException {
        if (file.contains("..") || file.startsWith("/")) {
            throw new IOException("the dashboard's file list names " + file + ", outside the site");
        }
        Path target = site.resolve(file);
        byte[] bytes;
        try (InputStream in = resource(file)) {
            bytes = in.readAllBytes();
        }
        if (Files.isRegularFile(target) && java.util.Arrays.equals(Files.readAllBytes(target), bytes)) {
            return; // republishing changes no byte and no modification time
        }
        Json.writeAtomically(target, bytes);
    }

    private static InputStream resource(String file) throws IOException {
        InputStream in = SitePublisher.class.getResourceAsStream(ASSETS + file);
        if (in == null) {
            throw new IOException("this runner was built without the dashboard (no " + ASSETS + file
                    + " on its classpath); build it with ./mvnw package, which builds dashboard/ with npm");
        }
        return in;
    }
}
