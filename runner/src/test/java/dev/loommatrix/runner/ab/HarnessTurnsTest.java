package dev.loommatrix.runner.ab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A side's own harness takes turns in lockstep only when it speaks this runner's turns protocol (issue #30): a
 * harness built before it would refuse {@code --turns} or end its forks without the tail's word, failing the cell,
 * so its pairs stay back to back, saying why.
 */
class HarnessTurnsTest {

    private static Path jar(Path dir, String name, String... entries) throws Exception {
        Path jar = dir.resolve(name);
        try (var zip = new ZipOutputStream(Files.newOutputStream(jar))) {
            for (String entry : entries) {
                zip.putNextEntry(new ZipEntry(entry));
                zip.write(new byte[] {(byte) 0xCA, (byte) 0xFE});
                zip.closeEntry();
            }
        }
        return jar;
    }

    @Test
    void thisRunnersOwnHarnessTakesTurns() {
        assertThat(Pairings.harnessWithoutTurns(Optional.empty(), "baseline")).isEmpty();
    }

    @Test
    void aHarnessOfThisProtocolTakesTurns(@TempDir Path dir) throws Exception {
        Path now = jar(
                dir,
                "now.jar",
                "dev/loommatrix/harness/Main.class",
                "dev/loommatrix/harness/measure/Turns.class",
                "dev/loommatrix/harness/measure/TurnCpu.class");
        assertThat(Pairings.harnessWithoutTurns(Optional.of(now), "baseline")).isEmpty();
    }

    @Test
    void anEarlierHarnessStaysBackToBack(@TempDir Path dir) throws Exception {
        Path earlier = jar(dir, "earlier.jar", "dev/loommatrix/harness/Main.class");
        assertThat(Pairings.harnessWithoutTurns(Optional.of(earlier), "baseline"))
                .hasValue("the baseline's harness was built before this runner's turns");
    }

    @Test
    void anUnreadableJarSaysSo(@TempDir Path dir) throws Exception {
        Path broken = Files.writeString(dir.resolve("broken.jar"), "not a zip");
        assertThat(Pairings.harnessWithoutTurns(Optional.of(broken), "candidate"))
                .hasValueSatisfying(why -> assertThat(why).startsWith("the candidate's harness jar cannot be read: "));
    }
}
