package dev.loommatrix.runner.host;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Where a host has no process groups to use (Windows, macOS), what a cell's process starts is followed while it runs
 * and ended with it (issue #32). Checked on Linux, where a child outlives its parent's exit the same way: adopted by
 * init, out of reach of {@link ProcessHandle#descendants} once its parent is gone.
 */
class ProcessGroupsTest {

    @Test
    void aChildThatOutlivesItsParentIsEndedAndSaid() throws Exception {
        // the parent starts a long sleep in the background, lives a second, exits 0: the sleep is orphaned
        Process parent = new ProcessBuilder("sh", "-c", "sleep 300 & echo $!; sleep 1").start();
        ProcessGroups.Watch watch = new ProcessGroups.Descendants(parent, Duration.ofMillis(100));
        assertThat(parent.waitFor(30, TimeUnit.SECONDS)).isTrue();
        // one line, not to the end: the orphan holds the pipe open, so reading to its end could wait out the sleep
        long pid = Long.parseLong(new java.io.BufferedReader(new java.io.InputStreamReader(parent.getInputStream()))
                .readLine()
                .strip());
        Optional<ProcessHandle> orphan = ProcessHandle.of(pid);
        assertThat(orphan).as("the parent left its child running").isPresent();
        assertThat(parent.descendants())
                .as("and descendants() no longer finds it")
                .isEmpty();

        List<String> killed = watch.end();

        assertThat(killed).singleElement().asString().startsWith(pid + " ").endsWith("sleep 300");
        assertThat(orphan.get().onExit().get(10, TimeUnit.SECONDS).isAlive()).isFalse();
    }

    @Test
    void aProcessWhoseChildrenEndedLeavesNothingToEnd() throws Exception {
        Process parent = new ProcessBuilder("sh", "-c", "sleep 0.3; true").start();
        ProcessGroups.Watch watch = new ProcessGroups.Descendants(parent, Duration.ofMillis(50));
        assertThat(parent.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(watch.end()).isEmpty();
    }
}
