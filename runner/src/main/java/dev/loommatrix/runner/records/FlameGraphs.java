package dev.loommatrix.runner.records;

import dev.loommatrix.core.result.Profile;
import java.io.IOException;
import java.nio.file.Path;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import one.convert.Arguments;
import one.convert.JfrToFlame;

/**
 * async-profiler's recording of a profiling run made into its flame graphs (issue #20) by async-profiler's own
 * converter ({@code tools.profiler:jfr-converter}): interactive, self-contained HTML pages — no renderer of ours.
 */
public final class FlameGraphs {

    private FlameGraphs() {}

    /**
     * Writes {@code <prefix>.cpu.html} and {@code <prefix>.wall.html} beside the recording and says what they
     * rest on: the sampling engine and the samples of each kind.
     */
    public static Profile.Flame make(Path recording, String prefix, String title) throws IOException {
        Path dir = recording.getParent();
        String cpu = prefix + ".cpu.html";
        String wall = prefix + ".wall.html";
        // icicle graphs (the root on top): a framed page shows the widest frames first, not the deepest
        JfrToFlame.convert(
                recording.toString(),
                dir.resolve(cpu).toString(),
                new Arguments("--cpu", "--inverted", "--title", title + " — CPU"));
        JfrToFlame.convert(
                recording.toString(),
                dir.resolve(wall).toString(),
                new Arguments("--wall", "--inverted", "--title", title + " — wall clock"));
        String engine = "unknown";
        long wallSamples = 0;
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                String type = e.getEventType().getName();
                if (type.equals("profiler.WallClockSample")) {
                    wallSamples++;
                } else if (type.equals("jdk.ActiveSetting")
                        && "engine".equals(e.getString("name"))
                        && engine.equals("unknown")) {
                    engine = e.getString("value");
                }
            }
        }
        Profile.Jfr samples = JfrSummary.read(recording);
        return new Profile.Flame(engine, samples.cpuSamples(), wallSamples, cpu, wall, samples.cpuFrames());
    }
}
