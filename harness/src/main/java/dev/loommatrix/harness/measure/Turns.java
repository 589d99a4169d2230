package dev.loommatrix.harness.measure;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Iterations in lockstep with another JVM ({@code --turns DIR}, issue #30): two forks — a baseline's and a
 * candidate's — alive together, running one iteration at a time by turns, so that the two iterations compared
 * ran a few tens of milliseconds apart instead of seconds. On a shared machine whose speed wanders (measured on
 * this project's 2-CPU runner: one fork's consecutive iterations correlate 0.8, iterations 25 apart not at all),
 * the machine's moment is what a pair's forks then share and what the paired difference takes out.
 *
 * <p>The protocol, through two named pipes in DIR that a coordinator made: before each iteration (warmup or
 * measured) the fork reads one byte from {@code DIR/go}; after it, and after its platform threads settled, it writes
 * one byte to {@code DIR/done}. After the last iteration it takes one more turn, for its own tail (a JMH micro case,
 * the record), which lasts until it exits: it writes {@code t} to {@code DIR/done} as the tail begins and waits for
 * one more byte on {@code DIR/go} before going on — the coordinator makes fresh pipes for the next fork meanwhile (a
 * next fork that opened these while this one's ends were still open would join them and hide this one's end). Both
 * ends open {@code go} before {@code done}, so neither blocks the
 * other for good. While it waits for a turn the fork is idle but for what its JVM does in the background (the JIT's
 * compiler threads, a concurrent GC), alike on both sides.
 *
 * <p>Each turn begins on one CPU, the same for both sides ({@link TurnCpu}, JDK 22+ on Linux): a single-threaded
 * iteration otherwise runs where its thread last ran, each side on its own CPU, and the CPUs of a shared runner
 * differ in speed from second to second. The fork's record says where its turns began ({@link #summary}).
 */
public final class Turns implements AutoCloseable {

    /** No one to take turns with: a fork alone, every iteration its own. */
    public static final Turns NONE = new Turns(null, null, Optional.empty());

    private final InputStream go;
    private final OutputStream done;
    private final Optional<TurnCpu> cpu;
    private int taken;
    private int beganThere;

    private Turns(InputStream go, OutputStream done, Optional<TurnCpu> cpu) {
        this.go = go;
        this.done = done;
        this.cpu = cpu;
    }

    /** Opens DIR/go for reading, then DIR/done for writing: each blocks until the coordinator opens its end. */
    public static Turns at(Path dir) throws IOException {
        InputStream go = Files.newInputStream(dir.resolve("go"));
        try {
            return new Turns(go, Files.newOutputStream(dir.resolve("done")), TurnCpu.here());
        } catch (IOException e) {
            go.close();
            throw e;
        }
    }

    /** Waits for this fork's turn, then moves to the turns' CPU. */
    public void take() throws IOException {
        if (go == null) {
            return;
        }
        if (go.read() < 0) {
            throw new IOException("the coordinator of --turns closed its pipe before this fork's turn");
        }
        taken++;
        if (cpu.isPresent() && cpu.get().move()) {
            beganThere++;
        }
    }

    /**
     * Where this fork's turns began, for its record: the CPU and how many of its turns began there (the rest
     * where the scheduler had the thread), or why they could not be placed. Empty for a fork alone.
     */
    public Optional<Map<String, Object>> summary() {
        if (go == null) {
            return Optional.empty();
        }
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("taken", taken);
        cpu.ifPresentOrElse(
                c -> {
                    summary.put("cpu", c.cpu());
                    summary.put("beganOnCpu", beganThere);
                },
                () -> summary.put("cpuNotSet", TurnCpu.whyNot()));
        return Optional.of(summary);
    }

    /**
     * Takes the last turn, the fork's tail, which lasts until the fork exits: says so, and waits until the
     * coordinator has let the next fork's pipes be (its byte, or its end of the pipe).
     */
    public void tail() throws IOException {
        take();
        if (done != null) {
            done.write('t');
            done.flush();
            go.read();
        }
    }

    /** Hands the turn back: this fork's iteration is over. */
    public void give() throws IOException {
        if (done != null) {
            done.write('.');
            done.flush();
        }
    }

    @Override
    public void close() throws IOException {
        if (go != null) {
            try (go;
                    done) {
                // both closed, the first failure thrown
            }
        }
    }
}
