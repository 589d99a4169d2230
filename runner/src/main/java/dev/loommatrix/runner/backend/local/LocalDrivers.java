package dev.loommatrix.runner.backend.local;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.runner.backend.Shell;
import dev.loommatrix.runner.backend.local.LocalProcesses.ProcessEnd;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What drives a variant's JVM runs on this host — warmups first, a fresh JVM each: hyperfine when it is on the PATH,
 * else the runner itself, timed around the process. Both leave hyperfine's export, so one reader serves both.
 */
final class LocalDrivers {

    /** How one variant's JVM runs ended. */
    sealed interface VariantEnd {
        record Completed() implements VariantEnd {}

        record Failed(String reason) implements VariantEnd {}

        record DeadlinePassed() implements VariantEnd {}
    }

    private final Optional<Path> hyperfine;
    private final LocalProcesses processes;

    LocalDrivers(Optional<Path> hyperfine, LocalProcesses processes) {
        this.hyperfine = hyperfine;
        this.processes = processes;
    }

    /** The driver, as the cell's record names it. */
    String words() {
        return hyperfine.map(p -> "hyperfine (host)").orElse("loom-matrix process timer (hyperfine not on PATH)");
    }

    /** The variant's warmups and repetitions of {@code command}, timed into {@code export}. */
    VariantEnd run(Cell cell, List<String> command, Map<String, String> env, Path export, Path log, long deadline)
            throws IOException, InterruptedException {
        return hyperfine.isPresent()
                ? runHyperfine(hyperfine.get(), cell, command, env, export, log, deadline)
                : runTimed(cell, command, env, export, log, deadline);
    }

    private VariantEnd runHyperfine(
            Path hyperfine,
            Cell cell,
            List<String> command,
            Map<String, String> env,
            Path export,
            Path log,
            long deadline)
            throws IOException, InterruptedException {
        List<String> hf = List.of(
                hyperfine.toString(),
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
        return switch (processes.exec(hf, env, log, deadline)) {
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
            ProcessEnd end = processes.exec(command, env, log, deadline);
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
}
