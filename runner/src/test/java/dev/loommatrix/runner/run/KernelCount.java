package dev.loommatrix.runner.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The kernel's own count of the CPU this JVM and everything it starts use, beside the host's (an outside oracle for
 * the interference sampler, as a stress-ng hog read by the kernel is for a loud host): this JVM is moved into a
 * cgroup of its own, which every process it starts inherits, and every 50 ms the cgroup's CPU use and the host's
 * busy time (/proc/stat) are noted. Other work over a time is then the host's busy time less the cgroup's, with no
 * process table read and no reaping to get wrong. Linux, as root (CI runs the tests as root); cgroup v1's cpuacct
 * hierarchy, else cgroup v2.
 */
final class KernelCount implements AutoCloseable {

    private static final Path ROOT = Path.of("/sys/fs/cgroup");
    private static final long TICK_NANOS = dev.loommatrix.runner.host.ProcStat.TICK_NANOS;

    private record Note(long epochNanos, long busy, long group) {}

    private final Path group;
    private final Path home;
    private final boolean v1;
    private final List<Note> notes = new ArrayList<>();
    private final Thread thread;
    private volatile boolean stopping;

    private KernelCount(Path group, Path home, boolean v1) throws IOException {
        this.group = group;
        this.home = home;
        this.v1 = v1;
        Files.writeString(
                group.resolve("cgroup.procs"),
                String.valueOf(ProcessHandle.current().pid()));
        note();
        this.thread = Thread.ofPlatform().daemon().name("kernel-count").start(() -> {
            while (!stopping) {
                note();
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    /** This JVM in a new cgroup; fails (it does not skip) where there is none to make. */
    static KernelCount start() throws IOException {
        boolean v1 = Files.isDirectory(ROOT.resolve("cpuacct"));
        String controller = v1 ? "cpuacct" : "";
        String own = Files.readAllLines(Path.of("/proc/self/cgroup")).stream()
                .map(l -> l.split(":", 3))
                .filter(f -> v1 ? List.of(f[1].split(",")).contains(controller) : f[0].equals("0"))
                .map(f -> f[2])
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("this JVM's cgroup is not in /proc/self/cgroup"));
        Path base = v1 ? ROOT.resolve(controller) : ROOT;
        Path home = base.resolve(own.substring(1));
        Path group = base.resolve("loom-kernel-count-" + ProcessHandle.current().pid());
        try {
            Files.createDirectories(group);
        } catch (IOException e) {
            throw new IOException(
                    "the kernel's count of the runner's CPU needs a cgroup of its own, and " + group
                            + " cannot be made (run the tests as root, as CI does): " + e,
                    e);
        }
        return new KernelCount(group, home, v1);
    }

    private synchronized void note() {
        try {
            String[] cpu =
                    Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long busy = (Long.parseLong(cpu[1])
                            + Long.parseLong(cpu[2])
                            + Long.parseLong(cpu[3])
                            + Long.parseLong(cpu[6])
                            + Long.parseLong(cpu[7]))
                    * TICK_NANOS;
            long used = v1
                    ? Long.parseLong(
                            Files.readString(group.resolve("cpuacct.usage")).trim())
                    : Files.readAllLines(group.resolve("cpu.stat")).stream()
                                    .filter(l -> l.startsWith("usage_usec "))
                                    .mapToLong(
                                            l -> Long.parseLong(l.substring(11).trim()))
                                    .findFirst()
                                    .orElseThrow()
                            * 1000;
            Instant now = Instant.now();
            notes.add(new Note(now.getEpochSecond() * 1_000_000_000L + now.getNano(), busy, used));
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("could not read the host's or the cgroup's CPU use", e);
        }
    }

    /** CPUs used outside this JVM and what it started, on average from {@code from} to {@code to}. */
    synchronized double otherCpus(Instant from, Instant to) {
        note();
        double[] a = at(from);
        double[] b = at(to);
        double seconds = (b[0] - a[0]) / 1e9;
        return ((b[1] - a[1]) - (b[2] - a[2])) / 1e9 / seconds;
    }

    /** The counters at an instant, interpolated between the notes around it. */
    private double[] at(Instant t) {
        long nanos = t.getEpochSecond() * 1_000_000_000L + t.getNano();
        for (int i = 1; i < notes.size(); i++) {
            Note a = notes.get(i - 1);
            Note b = notes.get(i);
            if (b.epochNanos() >= nanos) {
                double w = Math.max(0, (nanos - a.epochNanos()) / (double) (b.epochNanos() - a.epochNanos()));
                return new double[] {
                    nanos, a.busy() + w * (b.busy() - a.busy()), a.group() + w * (b.group() - a.group())
                };
            }
        }
        throw new IllegalArgumentException(t + " is after the last note");
    }

    @Override
    public void close() throws IOException {
        stopping = true;
        thread.interrupt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Files.writeString(
                home.resolve("cgroup.procs"),
                String.valueOf(ProcessHandle.current().pid()));
        Files.delete(group);
    }
}
