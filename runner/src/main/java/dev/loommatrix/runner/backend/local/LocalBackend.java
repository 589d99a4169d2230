package dev.loommatrix.runner.backend.local;

import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.CpuSet;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.runner.backend.AgentJar;
import dev.loommatrix.runner.backend.AsyncProfilerAgent;
import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.BuiltIn;
import dev.loommatrix.runner.backend.Execution;
import dev.loommatrix.runner.backend.HarnessCommand;
import dev.loommatrix.runner.backend.ProfileRun;
import dev.loommatrix.runner.backend.Shell;
import dev.loommatrix.runner.backend.UserCommand;
import dev.loommatrix.runner.backend.service.Oha;
import dev.loommatrix.runner.backend.service.SeedServices;
import dev.loommatrix.runner.backend.service.ServiceCell;
import dev.loommatrix.runner.backend.service.ServiceCells;
import dev.loommatrix.runner.backend.service.ServicePlacement;
import dev.loommatrix.runner.host.CellCpu;
import dev.loommatrix.runner.host.CpuAffinity;
import dev.loommatrix.runner.host.ProcStat;
import dev.loommatrix.runner.host.ProcessGroups;
import dev.loommatrix.runner.host.Programs;
import dev.loommatrix.runner.records.Attestation;
import dev.loommatrix.runner.records.CellAssembler;
import dev.loommatrix.runner.records.CellFiles;
import dev.loommatrix.runner.records.CellOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs a cell's JVMs on this host with a JDK the {@link JdkLocator} found: how Windows runners work, and
 * the fallback when no Docker engine answers. The CPU limit is an affinity mask ({@code taskset} on
 * Linux) plus {@code -XX:ActiveProcessorCount}; memory and pids are not enforced here, and the cell
 * record says so by carrying no cgroup checks. Repetitions are driven by hyperfine when it is on the
 * PATH, else by the runner itself (a fresh JVM each, timed around the process).
 */
public final class LocalBackend implements Backend {

    private final JdkLocator locator;
    private final int hostCpus = Runtime.getRuntime().availableProcessors();
    private final Optional<Path> hyperfine;
    private final Optional<Path> taskset;
    private Path harnessJar;
    private Path agentJar;
    private volatile Process running;
    /** What the running process leaves behind is ended through this (its group, or its descendants followed). */
    private volatile ProcessGroups.Watch runningWatch;

    private volatile boolean cancelled;
    /** The process groups the current cell started (their leaders' pids): its own CPU (issue #32). */
    private final java.util.Set<Long> cellGroups = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** What the current cell's processes left running, killed when each ended (issue #32). */
    private final List<String> leftBehind = new java.util.concurrent.CopyOnWriteArrayList<>();

    public LocalBackend(JdkLocator locator) {
        this(locator, Optional.empty());
    }

    /** @param harness another build of the harness (an A/B run's side), else this runner's own */
    public LocalBackend(JdkLocator locator, Optional<Path> harness) {
        this.locator = locator;
        this.harnessJar = harness.map(Path::toAbsolutePath).orElse(null);
        this.hyperfine = Programs.onPath("hyperfine");
        this.taskset = JdkLocator.isWindows() ? Optional.empty() : Programs.onPath("taskset");
    }

    @Override
    public String name() {
        return "local";
    }

    /**
     * The cell's processes, read from /proc (Linux): the live members of every process group it started (its driver
     * and JVMs; a service's server and its load generator) and the processes this runner already reaped (its own
     * children's CPU, which only cells add to: the local backend runs one cell at a time).
     */
    @Override
    public CellCpu cellCpu(String cellId) {
        return new CellCpu() {
            @Override
            public java.util.OptionalLong nanos() {
                if (!ProcessGroups.available()) {
                    return java.util.OptionalLong.empty();
                }
                long live = ProcessGroups.cpuTicks(java.util.Set.copyOf(cellGroups));
                // after the groups: a process reaped meanwhile counts twice for one reading, never not at all
                long reaped = ProcStat.ticks(Path.of("/proc/self"), ProcStat.CUTIME, ProcStat.CSTIME);
                return java.util.OptionalLong.of((live + reaped) * ProcStat.TICK_NANOS);
            }

            /** The live groups only: the reaped processes are every cell's this runner ran, a lockstep sibling's too. */
            @Override
            public java.util.OptionalLong unsharedNanos() {
                if (!ProcessGroups.available()) {
                    return java.util.OptionalLong.empty();
                }
                return java.util.OptionalLong.of(
                        ProcessGroups.cpuTicks(java.util.Set.copyOf(cellGroups)) * ProcStat.TICK_NANOS);
            }

            @Override
            public String source() {
                return "the cell's process groups and the processes this runner reaped (/proc)";
            }
        };
    }

    /** Whether this host can run the cell: its OS, and a JDK of its feature version and VM. */
    public boolean canRun(Cell cell) {
        return whyNotRun(cell).isEmpty();
    }

    /** Why this host cannot run the cell, if it cannot: what the cell's record says when it is skipped here. */
    @Override
    public Optional<String> whyNotRun(Cell cell) {
        if (cell.coordinates().os().equals("windows") != JdkLocator.isWindows()) {
            return Optional.of(otherOs(cell));
        }
        JdkLocator.Result located = locate(cell);
        return located.jdk().isPresent() ? Optional.empty() : Optional.of(located.reason());
    }

    private static String otherOs(Cell cell) {
        return "this is a " + (JdkLocator.isWindows() ? "windows" : "linux") + " host; "
                + cell.coordinates().os() + " cells run on "
                + cell.coordinates().os() + " runners";
    }

    public JdkLocator.Result locate(Cell cell) {
        return locator.find(cell.jdk());
    }

    /** Beside a cell's raw output while its driver runs: the driver's pid, for {@link #stopLeftovers}. */
    static final String DRIVER_PID_FILE = "driver.pid";

    @Override
    public Execution run(Cell cell, Assignment assignment) throws InterruptedException {
        leftBehind.clear();
        cellGroups.clear();
        Execution execution = runCell(cell, assignment);
        return leftBehind.isEmpty() ? execution : execution.withLeftBehind(List.copyOf(leftBehind));
    }

    private Execution runCell(Cell cell, Assignment assignment) throws InterruptedException {
        Path rawDir = assignment.rawDir();
        List<String> variantOrder = assignment.variantOrder();
        String driver =
                hyperfine.map(p -> "hyperfine (host)").orElse("loom-matrix process timer (hyperfine not on PATH)");
        if (cell.coordinates().os().equals("windows") != JdkLocator.isWindows()) {
            return new Execution(
                    new CellOutcome.Skipped(otherOs(cell)), name(), driver, variantOrder, Optional.empty());
        }
        JdkLocator.Result located = locator.find(cell.jdk());
        if (located.jdk().isEmpty()) {
            return new Execution(
                    new CellOutcome.Skipped(located.reason()), name(), driver, variantOrder, Optional.empty());
        }
        JdkLocator.FoundJdk jdk = located.jdk().get();
        Optional<Cell> runnable = SeedServices.asRun(cell);
        if (runnable.isEmpty()) {
            return new Execution(
                    new CellOutcome.Skipped(SeedServices.missing()), name(), driver, variantOrder, Optional.empty());
        }
        cell = runnable.get();
        if (ServiceCells.isService(cell)) {
            return runService(cell, assignment, jdk, driver);
        }
        // A quota becomes an affinity to that many CPUs (rounded up, as HotSpot rounds a quota); a cpuset
        // axis value pins to exactly those CPUs. The JVM is told the count either way.
        int fromQuota = cell.coordinates()
                .cpus()
                .setScale(0, java.math.RoundingMode.CEILING)
                .intValueExact();
        Optional<CpuSet> cpuset = cell.coordinates().cpuSet();
        int processors = cpuset.map(set -> Math.min(fromQuota, set.size())).orElse(fromQuota);
        if (cpuset.isPresent() && cpuset.get().highest() >= hostCpus) {
            return new Execution(
                    new CellOutcome.Failed(
                            "cpuset " + cpuset.get() + " names CPUs this host does not have (it has " + hostCpus + ")",
                            "",
                            List.of(),
                            Optional.empty()),
                    name(),
                    driver,
                    variantOrder,
                    Optional.empty());
        }
        CpuSet pinned = cpuset.orElse(CpuSet.first(Math.min(processors, hostCpus)));
        List<String> prefix = cpuset.isPresent()
                ? CpuAffinity.prefix(JdkLocator.isWindows(), taskset, pinned)
                : CpuAffinity.prefix(JdkLocator.isWindows(), taskset, processors, hostCpus);
        List<String> backendArgs = List.of("-XX:ActiveProcessorCount=" + processors);
        Attestation.Expectation expected = new Attestation.Expectation(
                processors,
                "-XX:ActiveProcessorCount=" + processors
                        + (prefix.isEmpty() ? "" : ", affinity to CPUs " + pinned)
                        + (processors > hostCpus ? "; the host has only " + hostCpus + " CPUs" : ""),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                // taskset's effect is visible from inside (Linux); Windows' start /affinity is not read back
                prefix.isEmpty() || JdkLocator.isWindows() ? Optional.empty() : Optional.of(pinned.toString()));

        Map<String, String> variantErrors = new LinkedHashMap<>();
        CellAssembler.Ending ending = new CellAssembler.Ending.Completed();
        long deadline = System.nanoTime() + cell.timeout().toNanos();
        try {
            Files.createDirectories(rawDir);
            Path log = rawDir.resolve("cell.log");
            Path jar = harnessJar();
            // The JDK's own account of itself, with the cell's environment (JAVA_TOOL_OPTIONS shows).
            exec(
                    List.of(jdk.java().toString(), "-version"),
                    cell.allEnv(),
                    rawDir.resolve(CellFiles.JAVA_VERSION_FILE),
                    deadline);
            for (String variant : variantOrder) {
                if (cancelled) {
                    break;
                }
                String slug = CellFiles.slug(variant);
                List<String> command = new ArrayList<>(prefix);
                Map<String, String> env = new LinkedHashMap<>(cell.allEnv());
                if (cell.workload().user().isPresent()) {
                    UserCommand.Launch launch =
                            UserCommand.of(cell, variant, userPaths(cell, jdk, agentJar(), rawDir), backendArgs);
                    command.addAll(launch.command());
                    env.putAll(launch.env());
                } else {
                    command.addAll(HarnessCommand.command(
                            jdk.java().toString(),
                            jar.toString(),
                            cell,
                            variant,
                            rawDir.resolve(slug + ".records.jsonl").toString(),
                            backendArgs,
                            assignment.turns().map(Path::toString)));
                }
                Files.writeString(
                        log, "loom: variant " + variant + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
                VariantEnd end = hyperfine.isPresent()
                        ? runHyperfine(cell, command, env, rawDir.resolve(slug + ".hyperfine.json"), log, deadline)
                        : runTimed(cell, command, env, rawDir.resolve(slug + ".hyperfine.json"), log, deadline);
                if (end instanceof VariantEnd.DeadlinePassed) {
                    ending = new CellAssembler.Ending.TimedOut(
                            "timed out after " + cell.timeout().toSeconds() + " s; JVM killed",
                            CellAssembler.logTail(rawDir));
                    break;
                }
                if (end instanceof VariantEnd.Failed failed) {
                    variantErrors.put(variant, failed.reason());
                } else if (ProfileRun.wanted(cell)) {
                    Optional<String> library =
                            cell.profiling().flame() ? flameLibrary().map(Path::toString) : Optional.empty();
                    // one more JVM, untimed, after the timed ones: what explains the cell (issue #20)
                    Files.writeString(log, "loom: profiling " + variant + "\n", StandardOpenOption.APPEND);
                    List<String> profile = new ArrayList<>(prefix);
                    if (cell.workload().user().isPresent()) {
                        profile.addAll(ProfileRun.userLaunch(
                                        cell, variant, userPaths(cell, jdk, agentJar(), rawDir), backendArgs, library)
                                .command());
                    } else {
                        profile.addAll(ProfileRun.command(
                                jdk.java().toString(),
                                jar.toString(),
                                cell,
                                variant,
                                rawDir.toAbsolutePath().toString(),
                                backendArgs,
                                library));
                    }
                    ProcessEnd ran = exec(profile, env, log, deadline);
                    if (ran instanceof ProcessEnd.Exited exited && exited.code() != 0) {
                        Files.writeString(
                                rawDir.resolve(ProfileRun.failedFile(variant)),
                                "the JVM exited with " + exited.code() + " (see the cell log)\n");
                    } else if (ran instanceof ProcessEnd.DeadlinePassed) {
                        ending = new CellAssembler.Ending.TimedOut(
                                "timed out after " + cell.timeout().toSeconds() + " s (profiling " + variant
                                        + "); JVM killed",
                                CellAssembler.logTail(rawDir));
                        break;
                    }
                }
            }
        } catch (IOException e) {
            ending = new CellAssembler.Ending.Crashed(
                    "could not run the JVM: " + e.getMessage(), CellAssembler.logTail(rawDir));
        }
        CellOutcome outcome = CellAssembler.assemble(
                cell, rawDir, variantOrder, variantErrors, expected, Optional.empty(), Optional.empty(), ending);
        return new Execution(
                outcome,
                name(),
                driver + "; jdk " + jdk.home() + " (" + jdk.source() + ")",
                variantOrder,
                Optional.empty(),
                ProfileRun.read(cell, rawDir, variantOrder, cell.profiling().flame() ? noFlame() : Optional.empty()));
    }

    /**
     * A service cell (issue #28) on this host: the server and oha as processes pinned to disjoint CPUs where the
     * host has them; Linux only (the generator's side is bash).
     */
    private Execution runService(Cell cell, Assignment assignment, JdkLocator.FoundJdk jdk, String driver) {
        Path rawDir = assignment.rawDir();
        List<String> order = assignment.variantOrder();
        String generator = "oha " + Oha.VERSION + " (host process)";
        Optional<Path> oha = Oha.binary();
        if (JdkLocator.isWindows() || oha.isEmpty()) {
            return new Execution(
                    new CellOutcome.Skipped(
                            oha.isEmpty()
                                    ? Oha.missing()
                                    : "service cells need bash beside the load generator; on Windows they do not "
                                            + "run yet"),
                    name(),
                    generator,
                    order,
                    Optional.empty());
        }
        ServicePlacement placement = ServicePlacement.of(cell, hostCpus);
        int fromQuota = cell.coordinates()
                .cpus()
                .setScale(0, java.math.RoundingMode.CEILING)
                .intValueExact();
        int processors = cell.coordinates()
                .cpuSet()
                .map(set -> Math.min(fromQuota, set.size()))
                .orElse(fromQuota);
        List<String> backendArgs = List.of("-XX:ActiveProcessorCount=" + processors);
        Attestation.Expectation expected = new Attestation.Expectation(
                processors,
                "-XX:ActiveProcessorCount=" + processors
                        + placement.server().map(s -> ", affinity to CPUs " + s).orElse(""),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                taskset.isPresent() ? placement.server().map(Object::toString) : Optional.empty());
        Map<String, String> variantErrors = new LinkedHashMap<>();
        CellAssembler.Ending ending = new CellAssembler.Ending.Completed();
        try {
            Files.createDirectories(rawDir);
            UserWorkload.Service service =
                    (UserWorkload.Service) cell.workload().user().orElseThrow().artifact();
            try (LocalServiceHost host = new LocalServiceHost(
                    rawDir,
                    taskset.isPresent() ? placement : ServicePlacement.unpinned(hostCpus),
                    taskset,
                    oha.get(),
                    service.port(),
                    this::startOwn)) {
                variantErrors.putAll(ServiceCell.run(
                        cell, order, host, rawDir, userPaths(cell, jdk, agentJar(), rawDir), backendArgs));
            }
        } catch (IOException e) {
            ending = new CellAssembler.Ending.Crashed(
                    "could not run the service: " + e.getMessage(), CellAssembler.logTail(rawDir));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ending = new CellAssembler.Ending.Crashed("interrupted", CellAssembler.logTail(rawDir));
        }
        CellOutcome outcome = CellAssembler.assemble(
                cell, rawDir, order, variantErrors, expected, Optional.empty(), Optional.empty(), ending);
        return new Execution(
                outcome,
                name(),
                generator + " on " + placement.words() + "; jdk " + jdk.home() + " (" + jdk.source() + ")",
                order,
                Optional.empty());
    }

    /** Where a user workload's files and this host's JDK are, as its JVM sees them. */
    private static UserCommand.Paths userPaths(Cell cell, JdkLocator.FoundJdk jdk, Path agent, Path rawDir) {
        return new UserCommand.Paths(
                jdk.java().toString(),
                agent.toString(),
                cell.workload().user().get().artifact().files().stream()
                        .map(Path::toString)
                        .toList(),
                rawDir.toAbsolutePath().toString(),
                java.io.File.pathSeparator);
    }

    private Path flameLibrary;

    /** async-profiler's library for this host, written once next to the harness copy; none off Linux. */
    private synchronized Optional<Path> flameLibrary() throws IOException {
        if (flameLibrary == null) {
            Optional<byte[]> bytes = FlameHost.LIBRARY;
            if (bytes.isEmpty()) {
                return Optional.empty();
            }
            flameLibrary = Files.createTempFile("loom-asyncProfiler", ".so");
            Files.write(flameLibrary, bytes.get());
            flameLibrary.toFile().deleteOnExit();
        }
        return Optional.of(flameLibrary);
    }

    /**
     * This host's async-profiler library and, where there is none, why: read from the jar once, and only when a
     * cell asks for flame graphs (the holder class loads on first use).
     */
    private static final class FlameHost {
        static final Optional<String> WHY_NOT;
        static final Optional<byte[]> LIBRARY;

        static {
            String os = System.getProperty("os.name");
            String arch = System.getProperty("os.arch");
            Optional<byte[]> library = Optional.empty();
            Optional<String> why;
            if (!os.toLowerCase(java.util.Locale.ROOT).contains("linux")) {
                why = Optional.of("async-profiler's libraries here are for Linux; this host runs " + os);
            } else {
                try {
                    library = AsyncProfilerAgent.library(arch);
                    why = library.isPresent()
                            ? Optional.empty()
                            : Optional.of("no async-profiler library for this host's architecture, " + arch);
                } catch (IOException e) {
                    why = Optional.of("async-profiler's library could not be read: " + e.getMessage());
                }
            }
            WHY_NOT = why;
            LIBRARY = library;
        }
    }

    /** Why this host cannot make flame graphs, if it cannot. */
    static Optional<String> noFlame() {
        return FlameHost.WHY_NOT;
    }

    /** How one variant's JVM runs ended. */
    sealed interface VariantEnd {
        record Completed() implements VariantEnd {}

        record Failed(String reason) implements VariantEnd {}

        record DeadlinePassed() implements VariantEnd {}
    }

    /** How one process ended: its exit code, or killed because the cell's deadline passed. */
    sealed interface ProcessEnd {
        record Exited(int code) implements ProcessEnd {}

        record DeadlinePassed() implements ProcessEnd {}
    }

    private VariantEnd runHyperfine(
            Cell cell, List<String> command, Map<String, String> env, Path export, Path log, long deadline)
            throws IOException, InterruptedException {
        List<String> hf = List.of(
                hyperfine.get().toString(),
                "-N",
                "--style",
                "basic",
                "--output",
                "inherit",
                "--warmup",
                String.valueOf(cell.warmup()),
                "--runs",
                String.valueOf(cell.repetitions()),
                "--export-json",
                export.toString(),
                String.join(" ", command.stream().map(Shell::quote).toList()));
        return switch (exec(hf, env, log, deadline)) {
            case ProcessEnd.DeadlinePassed d -> new VariantEnd.DeadlinePassed();
            case ProcessEnd.Exited(int code) when code == 0 -> new VariantEnd.Completed();
            case ProcessEnd.Exited(int code) ->
                new VariantEnd.Failed("hyperfine exited with " + code + " (see the cell log)");
        };
    }

    /** Without hyperfine: the same protocol (warmups first, a fresh JVM each) timed around the process. */
    private VariantEnd runTimed(
            Cell cell, List<String> command, Map<String, String> env, Path export, Path log, long deadline)
            throws IOException, InterruptedException {
        List<Double> times = new ArrayList<>();
        List<Integer> exits = new ArrayList<>();
        for (int i = 0; i < cell.warmup() + cell.repetitions(); i++) {
            long start = System.nanoTime();
            ProcessEnd end = exec(command, env, log, deadline);
            double seconds = (System.nanoTime() - start) / 1e9;
            if (end instanceof ProcessEnd.DeadlinePassed) {
                return new VariantEnd.DeadlinePassed();
            }
            int exit = ((ProcessEnd.Exited) end).code();
            if (exit != 0) {
                return new VariantEnd.Failed("JVM exited with " + exit + " in run " + (i + 1) + " (see the cell log)");
            }
            if (i >= cell.warmup()) {
                times.add(seconds);
                exits.add(exit);
            }
            // Keep hyperfine's export layout so one reader serves both drivers.
            Json.writeAtomically(
                    export,
                    Map.of(
                            "results",
                            List.of(Map.of(
                                    "command", String.join(" ", command), "times", times, "exit_codes", exits))));
        }
        return new VariantEnd.Completed();
    }

    @Override
    public void cancel() {
        cancelled = true;
        // a service cell's server and generator: in groups of their own, out of reach of the terminal's Ctrl-C
        cellGroups.forEach(ProcessGroups::end);
        Process process = running;
        if (process != null) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            ProcessGroups.Watch watch = runningWatch;
            if (watch != null) {
                watch.end();
            }
        }
    }

    /**
     * Runs a process with the cell's environment (the JDK entry's env and javaToolOptions, the include's
     * env) and its output appended to the log.
     */
    private ProcessEnd exec(List<String> command, Map<String, String> env, Path log, long deadline)
            throws IOException, InterruptedException {
        // its own process group: whatever it starts and leaves running is ended with it
        ProcessBuilder builder = new ProcessBuilder(ProcessGroups.inOwnGroup(command))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(env);
        Process process = builder.start();
        cellGroups.add(process.pid());
        ProcessGroups.Watch watch = ProcessGroups.watch(process);
        running = process;
        runningWatch = watch;
        Path pidFile = log.resolveSibling(DRIVER_PID_FILE);
        Files.writeString(
                pidFile,
                process.pid() + " "
                        + process.info().startInstant().map(Object::toString).orElse("") + "\n");
        if (cancelled) {
            process.destroyForcibly();
        }
        long remaining = deadline - System.nanoTime();
        if (remaining <= 0 || !process.waitFor(remaining, TimeUnit.NANOSECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
            endGroup(watch, log);
            Files.deleteIfExists(pidFile);
            return new ProcessEnd.DeadlinePassed();
        }
        endGroup(watch, log);
        Files.deleteIfExists(pidFile);
        return new ProcessEnd.Exited(process.exitValue());
    }

    /**
     * Starts one of a service cell's processes (its server, a run of its load generator) in a process group of its
     * own, whose CPU is the cell's: the generator is the cell's own work, not other work beside it.
     */
    private Process startOwn(ProcessBuilder builder) throws IOException {
        builder.command(ProcessGroups.inOwnGroup(builder.command()));
        Process process = builder.start();
        cellGroups.add(process.pid());
        return process;
    }

    /** Kills what the process left running, and says it in the cell log and (through run) the record. */
    private void endGroup(ProcessGroups.Watch watch, Path log) throws IOException {
        List<String> killed = watch.end();
        if (!killed.isEmpty()) {
            leftBehind.addAll(killed);
            Files.writeString(
                    log,
                    "loom: killed " + killed.size() + " process(es) it left running: " + String.join("; ", killed)
                            + "\n",
                    java.nio.file.StandardOpenOption.APPEND);
        }
    }

    /**
     * A runner killed without warning leaves its driver (hyperfine or a JVM) running: the pid file names
     * it, and the process's start time makes sure a reused pid is never taken for it.
     */
    @Override
    public void stopLeftovers(String runId, Path rawDir) {
        Path pidFile = rawDir.resolve(DRIVER_PID_FILE);
        try {
            if (!Files.isRegularFile(pidFile)) {
                return;
            }
            String[] fields = Files.readString(pidFile).trim().split(" ");
            ProcessHandle.of(Long.parseLong(fields[0]))
                    .filter(p -> fields.length > 1
                            && p.info()
                                    .startInstant()
                                    .map(Object::toString)
                                    .orElse("")
                                    .equals(fields[1]))
                    .ifPresent(p -> {
                        p.descendants().forEach(ProcessHandle::destroyForcibly);
                        p.destroyForcibly();
                        p.onExit()
                                .orTimeout(10, TimeUnit.SECONDS)
                                .exceptionally(e -> p)
                                .join();
                    });
            // and what its group still holds (children a killed driver's JVMs started): the kernel never gives a new
            // process a pid that is a live group's id; a leader alive with another start time is another process
            long leader = Long.parseLong(fields[0]);
            boolean reused = ProcessHandle.of(leader)
                    .filter(p -> !p.info()
                            .startInstant()
                            .map(Object::toString)
                            .orElse("")
                            .equals(fields.length > 1 ? fields[1] : ""))
                    .isPresent();
            if (!reused) {
                ProcessGroups.end(leader);
            }
            Files.deleteIfExists(pidFile);
        } catch (IOException | RuntimeException e) {
            // nothing readable to stop
        }
    }

    private synchronized Path harnessJar() throws IOException {
        if (harnessJar == null) {
            harnessJar = Files.createTempFile("loom-harness", ".jar");
            Files.write(harnessJar, BuiltIn.resource("harness.jar"));
            harnessJar.toFile().deleteOnExit();
        }
        return harnessJar;
    }

    /** The attestation agent users' JVMs load, cut from the harness jar ({@link AgentJar}). */
    private synchronized Path agentJar() throws IOException {
        if (agentJar == null) {
            agentJar = Files.createTempFile("loom-agent", ".jar");
            Files.write(agentJar, AgentJar.from(Files.readAllBytes(harnessJar())));
            agentJar.toFile().deleteOnExit();
        }
        return agentJar;
    }
}
