package dev.loommatrix.runner.backend.service;

import dev.loommatrix.core.matrix.ServiceLoad;
import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.runner.backend.Shell;
import dev.loommatrix.runner.backend.UserCommand;
import dev.loommatrix.runner.records.LatencyHistogram;
import dev.loommatrix.runner.records.LoadLine;
import dev.loommatrix.runner.records.LoadReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * Runs a service cell on a {@link ServiceHost}, the same on every engine: for each variant and each repetition
 * a fresh server JVM, its readiness awaited, then per load level a warmup and a measured window driven by oha.
 * Each repetition's reports go to {@code <variant>.load.jsonl} (one line a repetition, written as it ends, so a
 * later failure loses nothing); the server's agent record goes to {@code <variant>.records.jsonl}; what the
 * server printed goes to the cell log under the variant's marker line.
 */
public final class ServiceCell {

    private static final Duration PROBE_EVERY = Duration.ofMillis(250);

    private ServiceCell() {}

    /**
     * Runs every variant; returns the variants that failed, with why. Never throws for the service's trouble:
     * a server that never becomes ready or dies under load fails its variant, and the others run.
     */
    public static Map<String, String> run(
            Cell cell,
            List<String> variantOrder,
            ServiceHost host,
            Path rawDir,
            UserCommand.Paths paths,
            List<String> backendArgs)
            throws IOException, InterruptedException {
        UserWorkload.Service service =
                (UserWorkload.Service) cell.workload().user().orElseThrow().artifact();
        Map<String, String> errors = new LinkedHashMap<>();
        Path log = rawDir.resolve("cell.log");
        append(log, "loom: load generator oha " + Oha.VERSION + " on " + host.generatorPlacement() + "\n");
        for (String variant : variantOrder) {
            append(log, "loom: variant " + variant + "\n");
            int runs = cell.warmup() + cell.repetitions();
            for (int run = 0; run < runs; run++) {
                Optional<String> problem = repetition(cell, service, variant, run, host, rawDir, paths, backendArgs);
                if (problem.isPresent()) {
                    errors.put(variant, problem.get());
                    append(log, "loom: variant " + variant + " failed: " + problem.get() + "\n");
                    break;
                }
            }
        }
        return errors;
    }

    private static Optional<String> repetition(
            Cell cell,
            UserWorkload.Service service,
            String variant,
            int run,
            ServiceHost host,
            Path rawDir,
            UserCommand.Paths paths,
            List<String> backendArgs)
            throws IOException, InterruptedException {
        ServiceLoad load = service.load();
        UserCommand.Launch launch = UserCommand.of(cell, variant, paths, backendArgs);
        if (load.model() instanceof ServiceLoad.Capacity capacity) {
            return new CapacityRun(service, capacity, variant, run, launch, host, rawDir, paths).repetition();
        }
        ServiceHost.Server server = host.start(variant, run, launch);
        Optional<String> problem;
        List<LoadReport> reports = new ArrayList<>();
        try {
            problem = awaitReady(service, server, host);
            if (problem.isEmpty()) {
                problem = load(cell, load, host, paths, reports);
            }
            if (problem.isEmpty() && !server.alive()) {
                // what the service printed last follows from the cell log ("the JVM said: …")
                problem = Optional.of("the service died during the load" + exit(server) + "; the generator counted "
                        + errorWords(reports));
            }
        } finally {
            append(rawDir.resolve("cell.log"), server.stop());
        }
        if (problem.isEmpty()) {
            append(
                    rawDir.resolve(LoadLine.file(variant)),
                    Json.MAPPER
                                    .writer()
                                    .without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
                                    .writeValueAsString(new LoadLine(run, reports, Optional.empty()))
                            + "\n");
        }
        return problem;
    }

    /** Waits until the readiness check passes, the server exits, or its start-up time runs out. */
    static Optional<String> awaitReady(UserWorkload.Service service, ServiceHost.Server server, ServiceHost host)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + service.startTimeout().toNanos();
        String last = "no answer yet";
        while (true) {
            if (!server.alive()) {
                return Optional.of("the service exited" + exit(server) + " before it was ready");
            }
            Optional<String> answer = probe(service, host);
            if (answer.isEmpty()) {
                return Optional.empty();
            }
            last = answer.get();
            if (System.nanoTime() > deadline) {
                return Optional.of("the service was not ready within "
                        + service.startTimeout().toSeconds() + " s (" + readiness(service) + "; last: " + last
                        + ")");
            }
            Thread.sleep(PROBE_EVERY.toMillis());
        }
    }

    /** One readiness check: empty when it passed, else what was seen. */
    private static Optional<String> probe(UserWorkload.Service service, ServiceHost host)
            throws IOException, InterruptedException {
        String address = host.serverAddress();
        switch (service.ready()) {
            case UserWorkload.Readiness.Tcp tcp -> {
                String[] hostPort = address.split(":");
                String script = "if (exec 3<>/dev/tcp/" + hostPort[0] + "/" + hostPort[1]
                        + ") 2>/dev/null; then echo loom-ready; else echo loom-refused; fi\n";
                Optional<String> out = host.generator(script, Duration.ofSeconds(10));
                return out.filter(o -> o.contains("loom-ready")).isPresent()
                        ? Optional.empty()
                        : Optional.of("connection refused");
            }
            case UserWorkload.Readiness.Http http -> {
                String report = host.scratch() + "/probe.json";
                String script =
                        Oha.script(host.oha(), Oha.probeArguments("http://" + address + http.path(), report), report);
                Optional<String> out = host.generator(script, Duration.ofSeconds(15));
                if (out.isEmpty()) {
                    return Optional.of("the readiness request did not finish");
                }
                Oha.Output o = Oha.parse(out.get());
                if (o.report().isEmpty()) {
                    return Optional.of("no report from oha: " + oneLine(o.stderr()));
                }
                Map<Integer, Long> statuses = LoadReport.statuses(o.report().get());
                if (statuses.getOrDefault(http.status(), 0L) > 0) {
                    return Optional.empty();
                }
                return Optional.of(
                        statuses.isEmpty()
                                ? "no answer ("
                                        + String.join(
                                                ", ", errorTexts(o.report().get())) + ")"
                                : "status " + statuses.keySet().iterator().next());
            }
        }
    }

    /**
     * Where the generator sends the requests: the URL of the load's one path, or a file of URLs (the team's file,
     * or the paths listed by a prelude script that runs before oha).
     */
    record Target(String url, Optional<String> urls, String prelude) {}

    static Target target(ServiceLoad load, ServiceHost host, UserCommand.Paths paths) {
        String base = "http://" + host.serverAddress();
        Optional<String> urls = Optional.empty();
        StringBuilder prelude = new StringBuilder();
        if (load.urlsFile().isPresent()) {
            // the team's file, where the generator sees it: the last of the cell's user files
            urls = Optional.of(paths.userFiles().getLast());
        } else if (load.paths().size() > 1) {
            urls = Optional.of(host.scratch() + "/urls.txt");
            prelude.append(": > ").append(urls.get()).append('\n');
            for (String p : load.paths()) {
                prelude.append("echo ")
                        .append(Shell.quote(base + p))
                        .append(" >> ")
                        .append(urls.get())
                        .append('\n');
            }
        }
        return new Target(base + load.paths().stream().findFirst().orElse("/"), urls, prelude.toString());
    }

    /** Every level of the model: a warmup window thrown away, then the measured window. */
    private static Optional<String> load(
            Cell cell, ServiceLoad load, ServiceHost host, UserCommand.Paths paths, List<LoadReport> reports)
            throws IOException, InterruptedException {
        Target target = target(load, host, paths);
        List<String> levels = load.model().levels();
        for (int level = 0; level < levels.size(); level++) {
            Optional<Double> asked = load.model() instanceof ServiceLoad.Open o
                    ? Optional.of(o.rates().get(level))
                    : Optional.empty();
            if (!load.warmup().isZero()) {
                Optional<String> warm =
                        window(load, asked, target, load.warmup(), host, false).problem();
                if (warm.isPresent()) {
                    return Optional.of("the warmup at " + levels.get(level) + " failed: " + warm.get());
                }
            }
            Window measured = window(load, asked, target, load.duration(), host, true);
            if (measured.problem().isPresent()) {
                return Optional.of("the load at " + levels.get(level) + " failed: "
                        + measured.problem().get());
            }
            reports.add(measured.report(levels.get(level), asked, host));
        }
        return Optional.empty();
    }

    /** One load window: oha's output and the measured window's histogram, or why it could not be run. */
    record Window(Optional<Oha.Output> output, Optional<Histogram> histogram, Optional<String> problem) {
        /** The measured window as the runner records it. */
        LoadReport report(String level, Optional<Double> asked, ServiceHost host) {
            Oha.Output out = output.orElseThrow();
            return LoadReport.of(level, asked, out.report().orElseThrow(), out.cpuSeconds(), host.generatorCpus())
                    .withHistogram(histogram);
        }
    }

    /**
     * Runs one window at the rate ({@code asked}; empty in a closed model); a warmup window ({@code measured}
     * false) waits for its requests in flight, so that the measured window after it opens on an idle server.
     */
    static Window window(
            ServiceLoad load,
            Optional<Double> asked,
            Target target,
            Duration length,
            ServiceHost host,
            boolean measured)
            throws IOException, InterruptedException {
        return run(
                load, asked, target, length, host, measured ? Optional.of(Duration.ZERO) : Optional.empty(), !measured);
    }

    /**
     * A capacity search's measured window (issue #52), after its warmup: its first {@code opening} (while the
     * generator opens its connections: {@link ServiceLoad.Capacity#opening}) runs at the rate but is not counted in
     * the latencies; its counts (answered, errors, sent, the generator's CPU) are the whole run's.
     */
    static Window measuredAfterOpening(ServiceLoad load, double rate, Target target, ServiceHost host, Duration opening)
            throws IOException, InterruptedException {
        return run(load, Optional.of(rate), target, opening.plus(load.duration()), host, Optional.of(opening), false);
    }

    /**
     * One generator run of {@code length}; with {@code latencyFrom}, a measured one: oha stores every request, and
     * the histogram holds those due from then on.
     */
    private static Window run(
            ServiceLoad load,
            Optional<Double> asked,
            Target target,
            Duration length,
            ServiceHost host,
            Optional<Duration> latencyFrom,
            boolean drain)
            throws IOException, InterruptedException {
        boolean measured = latencyFrom.isPresent();
        String report = host.scratch() + (measured ? "/measured.json" : "/warmup.json");
        Optional<String> db = measured ? Optional.of(host.keep() + "/measured.db") : Optional.empty();
        String script = target.prelude()
                + Oha.script(
                        host.oha(),
                        Oha.arguments(
                                load,
                                asked,
                                target.url(),
                                target.urls(),
                                host.serverAddress(),
                                length,
                                report,
                                db,
                                drain),
                        report);
        Optional<String> printed = host.generator(script, length.plusSeconds(60));
        if (printed.isEmpty()) {
            return new Window(
                    Optional.empty(),
                    Optional.empty(),
                    Optional.of("oha did not finish within " + length.plusSeconds(60)));
        }
        Oha.Output out = Oha.parse(printed.get());
        if (out.exitCode() != 0 || out.report().isEmpty()) {
            return new Window(
                    Optional.empty(),
                    Optional.empty(),
                    Optional.of("oha exited with " + out.exitCode() + ": " + oneLine(out.stderr())));
        }
        Optional<Histogram> histogram = Optional.empty();
        if (db.isPresent()) {
            Path local = Files.createTempFile("loom-oha", ".db");
            try {
                if (host.fetch(db.get(), local)) {
                    histogram = LatencyHistogram.read(local, latencyFrom.orElseThrow());
                }
            } finally {
                Files.deleteIfExists(local);
            }
        }
        return new Window(Optional.of(out), histogram, Optional.empty());
    }

    private static String readiness(UserWorkload.Service service) {
        return switch (service.ready()) {
            case UserWorkload.Readiness.Http h -> "ready when GET " + h.path() + " answers " + h.status();
            case UserWorkload.Readiness.Tcp t -> "ready when port " + service.port() + " accepts a connection";
        };
    }

    static String exit(ServiceHost.Server server) throws InterruptedException {
        return server.exitCode().map(c -> " (exit code " + c + ")").orElse("");
    }

    static String errorWords(List<LoadReport> reports) {
        Map<String, Long> all = new LinkedHashMap<>();
        reports.forEach(r -> r.errors().forEach((k, v) -> all.merge(k, v, Long::sum)));
        long total = all.values().stream().mapToLong(Long::longValue).sum();
        if (total == 0) {
            return "no errors";
        }
        List<String> parts = new ArrayList<>();
        all.forEach((k, v) -> parts.add(k + " " + v));
        return total + " errors (" + String.join(", ", parts) + ")";
    }

    private static List<String> errorTexts(com.fasterxml.jackson.databind.JsonNode report) {
        List<String> out = new ArrayList<>();
        report.path("errorDistribution").fieldNames().forEachRemaining(out::add);
        return out.isEmpty() ? List.of("no error said") : out;
    }

    /** The last few non-empty lines of a log, joined for a one-line reason. */
    static String oneLine(String text) {
        List<String> lines =
                text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        String tail = String.join(" / ", lines.subList(Math.max(0, lines.size() - 3), lines.size()));
        return tail.isEmpty() ? "(nothing)" : tail.length() > 600 ? "…" + tail.substring(tail.length() - 600) : tail;
    }

    static void append(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
