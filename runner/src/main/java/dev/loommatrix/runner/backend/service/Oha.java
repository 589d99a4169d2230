package dev.loommatrix.runner.backend.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.matrix.ServiceLoad;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.runner.backend.Shell;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The load generator: oha (MIT, from the Rust crate registry), chosen for its open model with latency
 * correction ({@code -q RATE --latency-correction}: each request's latency runs from when it was due, so a
 * stalled server is not let off by a generator that waited for it — coordinated omission), its closed model
 * ({@code -c N}, no rate: N connections each sending as soon as answered), and its JSON report. The runner
 * never sends a load request itself; this class only writes oha's command line and reads its report.
 *
 * <p>Where it comes from: {@code containers/loadgen/build-oha.sh} builds this exact version with cargo
 * ({@code --locked}) into {@link #home()}; the container backend layers that binary onto the cell's base image
 * as the generator image, the local backend runs it as it is.
 */
public final class Oha {

    public static final String VERSION = "1.16.0";

    /** The marker lines of {@link #script}'s output, around oha's report. */
    static final String RC = "loom-generator-rc ";

    static final String REPORT = "loom-generator-report";
    static final String STDERR = "loom-generator-stderr";

    private Oha() {}

    /** Where the build script installs oha: {@code $LOOM_OHA_HOME}, else {@code ~/.cache/loom-matrix/oha-VERSION}. */
    public static Path home() {
        String env = System.getenv("LOOM_OHA_HOME");
        return env != null && !env.isBlank()
                ? Path.of(env)
                : Path.of(System.getProperty("user.home"), ".cache", "loom-matrix", "oha-" + VERSION);
    }

    /** The oha binary of this version, if it was built here. */
    public static Optional<Path> binary() {
        Path bin = home().resolve("bin").resolve("oha");
        return Files.isExecutable(bin) ? Optional.of(bin) : Optional.empty();
    }

    /** Why service cells cannot run on this host, said so that it can be fixed. */
    public static String missing() {
        return "the load generator oha " + VERSION + " is not built on this host (looked in " + home()
                + "); build it once with containers/loadgen/build-oha.sh (cargo, about 5 minutes)";
    }

    /**
     * oha's arguments for one load run of {@code window} against {@code url} at one level of the model.
     *
     * @param urlsFile where the requests' URLs are listed, one a line, when the load has several paths or a URLs file
     * @param server the server's {@code host:port}, where a URLs file's own host is sent ({@code --connect-to})
     * @param requestsDb where oha stores every answered request (its SQLite {@code --db-url}), for the measured
     *     window's HdrHistogram
     * @param drain wait for the requests still in flight when the window closes (the warmup's), so the server is
     *     idle when the measured window opens: requests the generator abandons are still served, and a pool of 20
     *     threads busy with 100 of them for 1.5 s took 20 % off the next window's throughput when they were cut
     */
    public static List<String> arguments(
            ServiceLoad load,
            int level,
            String url,
            Optional<String> urlsFile,
            String server,
            Duration window,
            String report,
            Optional<String> requestsDb,
            boolean drain) {
        Optional<Double> rate = load.model() instanceof ServiceLoad.Open o
                ? Optional.of(o.rates().get(level))
                : Optional.empty();
        return arguments(load, rate, url, urlsFile, server, window, report, requestsDb, drain);
    }

    /**
     * oha's arguments for one load run at {@code rate} (the open model's or a capacity search's; empty in a closed
     * model), as {@link #arguments(ServiceLoad, int, String, Optional, String, Duration, String, Optional, boolean)}.
     */
    public static List<String> arguments(
            ServiceLoad load,
            Optional<Double> rate,
            String url,
            Optional<String> urlsFile,
            String server,
            Duration window,
            String report,
            Optional<String> requestsDb,
            boolean drain) {
        List<String> args = new ArrayList<>(List.of(
                "--no-tui", "--output-format", "json", "-o", report, "-z", millis(window), "-m", load.method()));
        if (drain) {
            args.add("-w");
        }
        requestsDb.ifPresent(db -> args.addAll(List.of("--db-url", db)));
        switch (load.model()) {
            case ServiceLoad.Closed c -> args.addAll(List.of("-c", String.valueOf(c.users())));
            case ServiceLoad.Open o -> args.addAll(openModel(o.connections(), rate.orElseThrow()));
            case ServiceLoad.Capacity c -> {
                double at = rate.orElseThrow();
                args.addAll(openModel(c.connectionsAt(at), at));
            }
        }
        load.headers().forEach((k, v) -> args.addAll(List.of("-H", k + ": " + v)));
        load.body().ifPresent(b -> args.addAll(List.of("-d", b)));
        load.requestTimeout().ifPresent(t -> args.addAll(List.of("-t", millis(t))));
        load.urlsFile().ifPresent(f -> args.addAll(List.of("--connect-to", f.authority() + ":" + server)));
        if (urlsFile.isPresent()) {
            args.addAll(List.of("--urls-from-file", urlsFile.get()));
        } else {
            args.add(url);
        }
        return args;
    }

    /** At most {@code connections} requests in flight, each due at the rate, its latency counted from then. */
    private static List<String> openModel(int connections, double rate) {
        return List.of("-c", String.valueOf(connections), "-q", plain(rate), "--latency-correction");
    }

    /** One quick request, for the readiness check: its report says the status the server answered. */
    static List<String> probeArguments(String url, String report) {
        return List.of("--no-tui", "--output-format", "json", "-o", report, "-n", "1", "-c", "1", "-t", "2s", url);
    }

    /**
     * A POSIX shell script that runs oha and prints its exit code, the CPU time its process used (the shell's
     * {@code times}: user and system of its children), its report and the end of its stderr — the generator's
     * own cost is measured with every run, so its limit is never reported as the service's.
     */
    static String script(String oha, List<String> args, String report) {
        StringBuilder s = new StringBuilder();
        int db = args.indexOf("--db-url");
        if (db >= 0) {
            s.append("rm -f ").append(Shell.quote(args.get(db + 1))).append('\n'); // oha adds to a database it finds
        }
        s.append(Shell.quote(oha));
        args.forEach(a -> s.append(' ').append(Shell.quote(a)));
        s.append(" >").append(report).append(".out 2>&1; rc=$?\n");
        s.append("echo \"").append(RC).append("$rc\"\n");
        s.append("times\n");
        s.append("echo ").append(REPORT).append('\n');
        s.append("cat ").append(report).append(" 2>/dev/null; echo\n");
        s.append("echo ").append(STDERR).append('\n');
        s.append("tail -c 2000 ").append(report).append(".out 2>/dev/null\n");
        s.append("rm -f ").append(report).append(' ').append(report).append(".out\n");
        return s.toString();
    }

    /** What one run of {@link #script} printed. */
    public record Output(int exitCode, double cpuSeconds, Optional<JsonNode> report, String stderr) {}

    public static Output parse(String printed) {
        List<String> lines = printed.lines().toList();
        int rc = -1;
        double cpu = 0;
        StringBuilder report = new StringBuilder();
        StringBuilder stderr = new StringBuilder();
        int section = 0; // 0 before the report, 1 report, 2 stderr
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (section == 0 && line.startsWith(RC)) {
                rc = Integer.parseInt(line.substring(RC.length()).strip());
                // times: the shell's own user/system, then its children's
                if (i + 2 < lines.size()) {
                    cpu = shellTimes(lines.get(i + 2));
                }
            } else if (line.equals(REPORT)) {
                section = 1;
            } else if (line.equals(STDERR)) {
                section = 2;
            } else if (section == 1) {
                report.append(line).append('\n');
            } else if (section == 2) {
                stderr.append(line).append('\n');
            }
        }
        Optional<JsonNode> json = Optional.empty();
        if (!report.toString().isBlank()) {
            try {
                json = Optional.of(Json.MAPPER.readTree(report.toString()));
            } catch (IOException e) {
                stderr.append("(oha's report was not JSON: ")
                        .append(e.getMessage())
                        .append(")");
            }
        }
        return new Output(rc, cpu, json, stderr.toString().strip());
    }

    /** {@code 0m1.250s 0m0.310s} (user, system) as seconds of CPU. */
    public static double shellTimes(String line) {
        double total = 0;
        for (String part : line.strip().split("\\s+")) {
            var m = java.util.regex.Pattern.compile("(?:([0-9]+)m)?([0-9.]+)s").matcher(part);
            if (m.matches()) {
                total += (m.group(1) == null ? 0 : Integer.parseInt(m.group(1)) * 60) + Double.parseDouble(m.group(2));
            }
        }
        return total;
    }

    private static String millis(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }

    private static String plain(double rate) {
        return rate == Math.rint(rate) ? String.valueOf((long) rate) : String.valueOf(rate);
    }
}
