package dev.loommatrix.runner.run;

import java.io.PrintStream;
import java.time.Duration;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * What a run tells the person watching it: cell count, the current cell, and an ETA from the cost
 * model scaled by how long cells really took. On a terminal a progress bar; elsewhere (CI logs, pipes)
 * one plain line per event, because a redrawn bar makes a log unreadable.
 */
public interface Progress extends AutoCloseable {

    void started(int index, int total, String cellId);

    void finished(int index, int total, String line, Duration eta);

    @Override
    void close();

    static Progress forConsole(PrintStream out, int total) {
        return isTerminal() ? new Bar(total) : new Lines(out);
    }

    /** JDK 22+ always has a Console; only {@code isTerminal()} says whether a person is looking. */
    static boolean isTerminal() {
        var console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (boolean) console.getClass().getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException e) {
            return true; // JDK 21: a console exists only on a terminal
        }
    }

    /** Plain lines: "[3/8] cell …" and "[3/8] cell: ok … — ETA 1m20s". */
    record Lines(PrintStream out) implements Progress {
        @Override
        public void started(int index, int total, String cellId) {
            out.printf("[%d/%d] %s ...%n", index, total, cellId);
            out.flush();
        }

        @Override
        public void finished(int index, int total, String line, Duration eta) {
            out.printf("[%d/%d] %s — ETA %s%n", index, total, line, CellRecorder.formatDuration(eta.toMillis()));
            out.flush();
        }

        @Override
        public void close() {}
    }

    /** A progress bar on stderr; finished cells print above it. */
    final class Bar implements Progress {
        private final ProgressBar bar;

        Bar(int total) {
            bar = new ProgressBarBuilder()
                    .setTaskName("loom-matrix")
                    .setInitialMax(total)
                    .setStyle(ProgressBarStyle.ASCII)
                    .setUpdateIntervalMillis(500)
                    .continuousUpdate()
                    .build();
        }

        @Override
        public void started(int index, int total, String cellId) {
            bar.setExtraMessage(cellId);
        }

        @Override
        public void finished(int index, int total, String line, Duration eta) {
            System.err.print("\r\033[K");
            System.err.printf("[%d/%d] %s%n", index, total, line);
            bar.stepTo(index);
            bar.setExtraMessage("ETA " + CellRecorder.formatDuration(eta.toMillis()));
        }

        @Override
        public void close() {
            bar.close();
        }
    }
}
