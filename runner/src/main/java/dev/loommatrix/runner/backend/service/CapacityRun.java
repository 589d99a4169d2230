package dev.loommatrix.runner.backend.service;

import com.fasterxml.jackson.databind.SerializationFeature;
import dev.loommatrix.core.capacity.CapacityResult;
import dev.loommatrix.core.capacity.CapacitySearch;
import dev.loommatrix.core.matrix.ServiceLoad;
import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.runner.backend.UserCommand;
import dev.loommatrix.runner.records.CapacityLine;
import dev.loommatrix.runner.records.LoadLine;
import dev.loommatrix.runner.records.LoadReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One repetition of a capacity search on a {@link ServiceHost} (issue #52): a fresh server, the search's windows
 * against it (each a drained warmup at the window's rate, then the measured window, its connections' opening
 * uncounted), and the validation window on another fresh server, warmed as the search's was: a warmup at each rate
 * the search passed below the found one, rising, then at the rate. {@link CapacitySearch} decides which rates; this
 * class runs each window and judges it.
 *
 * <p>A repetition runs two server JVMs, the search's and the validation's; both carry the agent, so both are
 * attested, and the records file holds two lines for the repetition (the results read them as one run).
 */
final class CapacityRun {

    private final UserWorkload.Service service;
    private final ServiceLoad.Capacity capacity;
    private final String variant;
    private final int run;
    private final UserCommand.Launch launch;
    private final ServiceHost host;
    private final Path rawDir;
    private final UserCommand.Paths paths;
    private final List<LoadReport> reports = new ArrayList<>();
    private final Map<String, Double> serverCpuSeconds = new LinkedHashMap<>();
    /** The rates the search's windows passed, in the order it tried them: the validation's server is warmed by them. */
    private final List<Double> passed = new ArrayList<>();

    private ServiceHost.Server server;
    private int servers;

    CapacityRun(
            UserWorkload.Service service,
            ServiceLoad.Capacity capacity,
            String variant,
            int run,
            UserCommand.Launch launch,
            ServiceHost host,
            Path rawDir,
            UserCommand.Paths paths) {
        this.service = service;
        this.capacity = capacity;
        this.variant = variant;
        this.run = run;
        this.launch = launch;
        this.host = host;
        this.rawDir = rawDir;
        this.paths = paths;
    }

    /**
     * Runs the search; empty when it ran to an outcome (whatever the outcome: the results say it), else why the
     * repetition could not search at all (its first server never became ready).
     */
    Optional<String> repetition() throws IOException, InterruptedException {
        server = start();
        CapacityResult result;
        try {
            Optional<String> notReady = ServiceCell.awaitReady(service, server, host);
            if (notReady.isPresent()) {
                return notReady;
            }
            result = CapacitySearch.search(capacity, this::window);
        } finally {
            log(server.stop());
        }
        log("loom: capacity search, run " + run + ": " + result.outcome().words() + ": " + result.why() + "\n");
        ServiceCell.append(
                rawDir.resolve(LoadLine.file(variant)),
                Json.MAPPER
                                .writer()
                                .without(SerializationFeature.INDENT_OUTPUT)
                                .writeValueAsString(new LoadLine(
                                        run, reports, Optional.of(new CapacityLine(result, servers, serverCpuSeconds))))
                        + "\n");
        return Optional.empty();
    }

    /**
     * One window of the search at {@code rate}; the validation's on a fresh server JVM. Measured over the connections
     * its rate has in flight at half the objective's bound; measured again over enough to judge it when it failed with
     * every one of them busy (the generator's connections, not the service, would have set its latencies).
     */
    private CapacitySearch.Step window(double rate, boolean validation) throws IOException, InterruptedException {
        if (validation) {
            log(server.stop());
            server = start();
            Optional<String> notReady = ServiceCell.awaitReady(service, server, host);
            if (notReady.isPresent()) {
                return broken(rate, true, "the fresh server for the validation: " + notReady.get());
            }
        }
        ServiceLoad load = service.load();
        // the server's address is known once it has started (a fresh server may have another)
        ServiceCell.Target target = ServiceCell.target(load, host, paths);
        int open = capacity.connectionsAt(rate);
        Attempt judged = attempt(rate, validation, load, target, open, warmups(rate, validation, passed));
        int enough = capacity.connectionsToJudge(rate);
        if (judged.report().isPresent()
                && judged.step().verdict() == CapacitySearch.Verdict.GENERATOR_LIMITED
                && enough > open
                && connectionsShort(rate, judged.report().get(), capacity, open).isPresent()) {
            log(String.format(
                    Locale.ROOT,
                    "loom: capacity search, run %d: at %s every one of %d connections was busy; measured again over"
                            + " %d%n",
                    run,
                    ServiceLoad.Open.level(rate),
                    open,
                    enough));
            ServiceLoad judging = load.withModel(new ServiceLoad.Open(List.of(rate), enough));
            judged = attempt(rate, validation, judging, target, enough, List.of(rate));
        }
        // the window's record is the attempt that judged it
        judged.report().ifPresent(reports::add);
        judged.cpuSeconds().ifPresent(cpu -> serverCpuSeconds.put(CapacityLine.level(rate, validation), cpu));
        CapacitySearch.Step step = judged.step();
        if (!validation && step.verdict() == CapacitySearch.Verdict.PASS) {
            passed.add(rate);
        }
        return step;
    }

    /** A window measured once: its verdict, and its report and the server's CPU seconds in it where it ran. */
    private record Attempt(CapacitySearch.Step step, Optional<LoadReport> report, Optional<Double> cpuSeconds) {}

    /** The warmups (drained, by rate) and the measured window over {@code open} connections ({@code load}'s model opens them). */
    private Attempt attempt(
            double rate,
            boolean validation,
            ServiceLoad load,
            ServiceCell.Target target,
            int open,
            List<Double> warmRates)
            throws IOException, InterruptedException {
        if (!load.warmup().isZero()) {
            for (double warmRate : warmRates) {
                Optional<String> warm = ServiceCell.window(
                                load, Optional.of(warmRate), target, load.warmup(), host, false)
                        .problem();
                if (warm.isPresent()) {
                    return new Attempt(
                            broken(rate, validation, "the warmup failed: " + warm.get()),
                            Optional.empty(),
                            Optional.empty());
                }
            }
        }
        Optional<Double> before = server.cpuSeconds();
        ServiceCell.Window measured = ServiceCell.measuredAfterOpening(
                load, rate, target, host, ServiceLoad.Capacity.opening(rate, open, load.warmup()));
        Optional<Double> after = server.cpuSeconds();
        if (measured.problem().isPresent()) {
            return new Attempt(broken(rate, validation, measured.problem().get()), Optional.empty(), Optional.empty());
        }
        LoadReport report = measured.report(CapacityLine.level(rate, validation), Optional.of(rate), host);
        Optional<Double> cpu =
                before.isPresent() && after.isPresent() ? Optional.of(after.get() - before.get()) : Optional.empty();
        if (!server.alive()) {
            return new Attempt(
                    broken(
                            rate,
                            validation,
                            "the service died during the window" + ServiceCell.exit(server) + "; the generator counted "
                                    + ServiceCell.errorWords(List.of(report))),
                    Optional.of(report),
                    cpu);
        }
        return new Attempt(
                judge(rate, validation, report, capacity, open, load.maxShortfall()), Optional.of(report), cpu);
    }

    /**
     * The warmups before a window, each drained, by rate: its own rate; before the validation, on a fresh server, the
     * rates the search passed below it, rising, then the rate itself (a quarter and half of it when the search passed
     * nothing below). The search's server was warmed by every window before; a fresh one warmed briefly is measured
     * cold where its CPU is the limit, its compiler starved by the requests it queues: seed 002's Spring Boot on 1 CPU
     * met p99 ≤ 1 s at 5,200 requests/s on virtual threads in the search, at 0.65 of its CPU, and a fresh server
     * after 5 s at that rate used all of it and answered 2,700/s (p99 5 s); a ramp of a quarter, half and all of the
     * rate (15 s) still left the pool of 800 at p99 4 s where the search had passed.
     */
    static List<Double> warmups(double rate, boolean validation, List<Double> passed) {
        if (!validation) {
            return List.of(rate);
        }
        List<Double> below =
                passed.stream().filter(r -> r < rate).distinct().sorted().toList();
        List<Double> ramp = new ArrayList<>(below.isEmpty() ? List.of(rate / 4, rate / 2) : below);
        ramp.add(rate);
        return ramp;
    }

    /**
     * A window's verdict: the generator's limit first (its CPUs saturated: then nothing it measured is the
     * service's), then the objective, then the rate. A window that met the objective but completed fewer requests
     * than the rate asked, from a generator with CPU to spare, fails too: the service did not keep up (its
     * answers held the generator's connections, so the generator could not send). Requests still in flight when
     * the window closed were sent: they count (a slow handler's last ones are always cut). A failed window whose
     * connections were all busy, and fewer than a service meeting the objective could keep in flight at the rate,
     * measured the generator's connections: it could not offer the rate.
     */
    static CapacitySearch.Step judge(
            double rate,
            boolean validation,
            LoadReport report,
            ServiceLoad.Capacity capacity,
            int open,
            double maxShortfall) {
        CapacitySearch.Step step = judgeService(rate, validation, report, capacity.objective(), maxShortfall);
        if (step.verdict() != CapacitySearch.Verdict.FAIL) {
            return step;
        }
        return connectionsShort(rate, report, capacity, open)
                .map(why -> new CapacitySearch.Step(rate, CapacitySearch.Verdict.GENERATOR_LIMITED, why, validation))
                .orElse(step);
    }

    /**
     * Why the window's {@code open} connections, not the service, set its numbers, if they did: they were fewer than
     * what the objective lets be in flight at the rate (the rate times its highest bound, Little's
     * law), and they were all in use (requests completed a second times the median latency reach them). A service
     * that answers within the bound then fails only because the generator queues what it cannot send, and that
     * wait is in every latency corrected for coordinated omission.
     */
    static Optional<String> connectionsShort(double rate, LoadReport report, ServiceLoad.Capacity capacity, int open) {
        java.util.OptionalDouble bound = capacity.objective().latencyMs().values().stream()
                .mapToDouble(Double::doubleValue)
                .max();
        Double median = report.latencyMs().get("50");
        if (bound.isEmpty() || median == null || open >= rate * bound.getAsDouble() / 1000) {
            return Optional.empty();
        }
        double inFlight = report.achievedRate() * median / 1000;
        if (inFlight < 0.9 * open) {
            return Optional.empty();
        }
        int wanted = (int) Math.ceil(rate * bound.getAsDouble() / 1000 * 1.5);
        return Optional.of(String.format(
                Locale.ROOT,
                "its %d connection%s (the load's connections) were all busy, fewer than the %.0f requests a service "
                        + "within %s can have in flight at this rate: raise connections to at least %d",
                open,
                open == 1 ? "" : "s",
                Math.ceil(rate * bound.getAsDouble() / 1000),
                ServiceLoad.Objective.millis(bound.getAsDouble()),
                wanted));
    }

    private static CapacitySearch.Step judgeService(
            double rate, boolean validation, LoadReport report, ServiceLoad.Objective objective, double maxShortfall) {
        if (report.generatorCpuShare() >= LoadReport.SATURATED) {
            return new CapacitySearch.Step(
                    rate,
                    CapacitySearch.Verdict.GENERATOR_LIMITED,
                    String.format(
                            Locale.ROOT,
                            "its %d CPU%s were %.0f %% busy",
                            report.generatorCpus(),
                            report.generatorCpus() == 1 ? "" : "s",
                            100 * report.generatorCpuShare()),
                    validation);
        }
        Optional<String> unmet =
                objective.unmet(report.latencyMs(), report.answered() + report.errorCount(), report.errorCount());
        if (unmet.isPresent()) {
            return new CapacitySearch.Step(rate, CapacitySearch.Verdict.FAIL, unmet.get(), validation);
        }
        if (report.sentRate() < rate * (1 - maxShortfall)) {
            return new CapacitySearch.Step(
                    rate,
                    CapacitySearch.Verdict.FAIL,
                    String.format(
                            Locale.ROOT,
                            "it sent %.1f requests/s, more than %.0f %% short of the rate: the service did not "
                                    + "keep up",
                            report.sentRate(),
                            100 * maxShortfall),
                    validation);
        }
        return new CapacitySearch.Step(rate, CapacitySearch.Verdict.PASS, "met " + objective.words(), validation);
    }

    private ServiceHost.Server start() throws IOException, InterruptedException {
        servers++;
        return host.start(variant, run, launch);
    }

    private static CapacitySearch.Step broken(double rate, boolean validation, String why) {
        return new CapacitySearch.Step(rate, CapacitySearch.Verdict.BROKEN, why, validation);
    }

    private void log(String text) throws IOException {
        ServiceCell.append(rawDir.resolve("cell.log"), text);
    }
}
