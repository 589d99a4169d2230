package dev.loommatrix.runner.host;

import java.io.IOException;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * A known CPU hog beside what a test measures: one stress-ng worker (from Debian) at a set load on one CPU, and the
 * CPU it used as the kernel counts it (/proc) — the figure the interference readings are held to.
 */
public final class CpuHog implements AutoCloseable {

    private final Process process;
    private double before;
    private long since;

    private CpuHog(Process process) {
        this.process = process;
    }

    /** Starts the hog at {@code loadPercent} of CPU {@code cpu}, its output in {@code log}; returns once it runs. */
    public static CpuHog start(int cpu, int loadPercent, Path log) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(
                        "stress-ng",
                        "--cpu",
                        "1",
                        "--cpu-load",
                        String.valueOf(loadPercent),
                        "--taskset",
                        String.valueOf(cpu),
                        "--timeout",
                        "300s")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        Thread.sleep(1000); // its worker started
        CpuHog hog = new CpuHog(process);
        hog.startCounting();
        return hog;
    }

    /** From now on: what {@link #cpusSinceCounting} averages over. */
    public void startCounting() {
        before = cpuSeconds();
        since = System.nanoTime();
    }

    /** The CPUs the hog used on average since {@link #startCounting}. */
    public double cpusSinceCounting() {
        return (cpuSeconds() - before) / ((System.nanoTime() - since) / 1e9);
    }

    /** The CPU time the hog's processes have used, from /proc (its workers are its children, still running). */
    public double cpuSeconds() {
        ProcessHandle hog = process.toHandle();
        long ticks = 0;
        for (ProcessHandle p : Stream.concat(Stream.of(hog), hog.descendants()).toList()) {
            ticks += ProcStat.ticks(Path.of("/proc", String.valueOf(p.pid())), ProcStat.UTIME, ProcStat.STIME);
        }
        return ticks / (double) ProcStat.TICKS_PER_SECOND;
    }

    @Override
    public void close() throws InterruptedException {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
    }
}
