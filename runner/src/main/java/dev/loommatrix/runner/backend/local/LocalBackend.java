package dev.loommatrix.runner.backend.local;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.Execution;
import dev.loommatrix.runner.backend.service.SeedServices;
import dev.loommatrix.runner.backend.service.ServiceCells;
import dev.loommatrix.runner.host.CellCpu;
import dev.loommatrix.runner.host.Programs;
import dev.loommatrix.runner.records.CellOutcome;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Runs a cell's JVMs on this host with a JDK the {@link JdkLocator} found: how Windows runners work, and
 * the fallback when no Docker engine answers. The CPU limit is an affinity mask ({@code taskset} on
 * Linux) plus {@code -XX:ActiveProcessorCount}; memory and pids are not enforced here, and the cell
 * record says so by carrying no cgroup checks. Repetitions are driven by hyperfine when it is on the
 * PATH, else by the runner itself (a fresh JVM each, timed around the process). A cell runs as a
 * {@link LocalJvmCell} or a {@link LocalServiceCell}, under {@link LocalCpuLimits}, through {@link LocalProcesses}.
 */
public final class LocalBackend implements Backend {

    private final JdkLocator locator;
    private final LocalProcesses processes = new LocalProcesses();
    private final HostTools tools;

    public LocalBackend(JdkLocator locator) {
        this(locator, Optional.empty());
    }

    /** @param harness another build of the harness (an A/B run's side), else this runner's own */
    public LocalBackend(JdkLocator locator, Optional<Path> harness) {
        this.locator = locator;
        this.tools = new HostTools(
                name(),
                processes,
                new LocalDrivers(Programs.onPath("hyperfine"), processes),
                new BuiltInJars(harness),
                new FlameLibrary(),
                JdkLocator.isWindows() ? Optional.empty() : Programs.onPath("taskset"),
                Runtime.getRuntime().availableProcessors());
    }

    @Override
    public String name() {
        return "local";
    }

    /**
     * The cell's processes, read from /proc (Linux): the live members of every process group it started (its driver
     * and JVMs; a service's server and its load generator) and the processes this runner already reaped.
     */
    @Override
    public CellCpu cellCpu(String cellId) {
        return processes.cellCpu();
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

    @Override
    public Execution run(Cell cell, Assignment assignment) throws InterruptedException {
        processes.beginCell();
        Execution execution = runCell(cell, assignment);
        List<String> leftBehind = processes.leftBehind();
        return leftBehind.isEmpty() ? execution : execution.withLeftBehind(leftBehind);
    }

    /** A cell this host can run goes to its kind's runner; one it cannot is skipped or failed, with why. */
    private Execution runCell(Cell cell, Assignment assignment) throws InterruptedException {
        if (cell.coordinates().os().equals("windows") != JdkLocator.isWindows()) {
            return notRun(new CellOutcome.Skipped(otherOs(cell)), assignment);
        }
        JdkLocator.Result located = locate(cell);
        if (located.jdk().isEmpty()) {
            return notRun(new CellOutcome.Skipped(located.reason()), assignment);
        }
        JdkLocator.FoundJdk jdk = located.jdk().get();
        Optional<Cell> runnable = SeedServices.asRun(cell);
        if (runnable.isEmpty()) {
            return notRun(new CellOutcome.Skipped(SeedServices.missing()), assignment);
        }
        cell = runnable.get();
        if (ServiceCells.isService(cell)) {
            return new LocalServiceCell(tools).run(cell, assignment, jdk);
        }
        Optional<String> unknownCpus = LocalCpuLimits.unknownCpus(cell, tools.hostCpus());
        if (unknownCpus.isPresent()) {
            return notRun(new CellOutcome.Failed(unknownCpus.get(), "", List.of(), Optional.empty()), assignment);
        }
        return new LocalJvmCell(tools, cell, assignment, jdk).run();
    }

    private Execution notRun(CellOutcome outcome, Assignment assignment) {
        return new Execution(outcome, name(), tools.drivers().words(), assignment.variantOrder(), Optional.empty());
    }

    @Override
    public void cancel() {
        processes.cancel();
    }

    /**
     * A runner killed without warning leaves its driver (hyperfine or a JVM) running: the pid file names
     * it, and the process's start time makes sure a reused pid is never taken for it.
     */
    @Override
    public void stopLeftovers(String runId, Path rawDir) {
        LocalProcesses.stopLeftovers(rawDir);
    }
}
