package dev.loommatrix.runner.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.Profile;
import dev.loommatrix.core.testing.TestMatrices;
import dev.loommatrix.runner.backend.container.CellScript;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The profiling run's command and what its absence or failure says (issue #20). OpenJ9 cannot run here; its JFR
 * option is checked against its documentation (eclipse.dev/openj9/docs/xxstartflightrecording: filename, duration,
 * delay only).
 */
class ProfileRunTest {

    static Cell cell(String vm, String profiling) throws Exception {
        return TestMatrices.plan(
                        """
                schema: 1
                jdks: [{id: j, vm: %s, version: 21}]
                cpus: [2]
                workloads: [{id: pinning, variants: [synchronized, reentrant-lock]}]
                repetitions: 2
                warmup: 0
                profiling: %s
                """
                                .formatted(vm, profiling))
                .get(0);
    }

    @Test
    void theContainerScriptProfilesEachVariantAfterItsTimedRunsOnlyWhenTheyCompleted() throws Exception {
        String script = CellScript.forContainer(
                cell("hotspot", "{jfr: true, flame: true}"), List.of("synchronized", "reentrant-lock"), List.of());
        assertThat(script)
                .containsSubsequence(
                        "--export-json /out/synchronized.hyperfine.json",
                        "if [ $ok = 1 ]; then echo 'loom: profiling synchronized'",
                        "-XX:StartFlightRecording:filename=/out/synchronized.profile.jfr,settings=profile,dumponexit=true,"
                                + "jdk.VirtualThreadPinned#threshold=0ms,jdk.CPULoad#period=100ms",
                        "-agentpath:/opt/loom/libasyncProfiler.so=start,event=cpu,interval=10ms,wall=20ms,jfr,"
                                + "file=/out/synchronized.flame.jfr,log=/out/synchronized.flame.log",
                        "--out /out/synchronized.profile.records.jsonl",
                        "> /out/synchronized.profile.failed; fi",
                        "--export-json /out/reentrant-lock.hyperfine.json");
        assertThat(CellScript.forContainer(cell("hotspot", "{jfr: false}"), List.of("synchronized"), List.of()))
                .doesNotContain("profiling");
    }

    @Test
    void openJ9GetsTheOptionItDocuments() throws Exception {
        List<String> command = ProfileRun.command(
                "java", "h.jar", cell("openj9", "{jfr: true}"), "synchronized", "/out", List.of(), Optional.empty());
        assertThat(command).contains("-XX:StartFlightRecording=filename=/out/synchronized.profile.jfr");
        assertThat(String.join(" ", command)).doesNotContain("settings=profile").doesNotContain("-agentpath");
    }

    @Test
    void aMissingProfileSaysWhyNeverZeros(@TempDir Path raw) throws Exception {
        Cell hotspot = cell("hotspot", "{jfr: true, flame: true}");
        Files.writeString(raw.resolve("synchronized.profile.records.jsonl"), "{}\n");
        Files.writeString(raw.resolve("synchronized.profile.failed"), "the JVM exited with 1 (see the cell log)\n");
        List<Profile> profiles = ProfileRun.read(
                hotspot, raw, List.of("synchronized", "reentrant-lock"), Optional.of("this host runs Windows"));
        assertThat(profiles.get(0).unavailable())
                .hasValue("the profiling run failed: the JVM exited with 1 (see the cell log)");
        assertThat(profiles.get(0).jfr()).isEmpty();
        assertThat(profiles.get(0).flameUnavailable()).hasValue("this host runs Windows");
        assertThat(profiles.get(1).unavailable())
                .hasValue("no profiling run: the variant's timed runs did not complete");

        // OpenJ9's recording (for JDK Mission Control) is kept, and said to be so, when the JDK's reader refuses it
        Cell openj9 = cell("openj9", "{jfr: true}");
        Files.delete(raw.resolve("synchronized.profile.failed"));
        Files.writeString(raw.resolve("synchronized.profile.jfr"), "not a HotSpot recording");
        Profile j9 = ProfileRun.read(openj9, raw, List.of("synchronized"), Optional.empty())
                .get(0);
        assertThat(j9.file()).hasValue("synchronized.profile.jfr");
        assertThat(j9.jfr()).isEmpty();
        assertThat(j9.unavailable()).hasValueSatisfying(w -> assertThat(w).startsWith("OpenJ9's JFR is limited"));
        assertThat(ProfileRun.read(cell("hotspot", "{jfr: false}"), raw, List.of("synchronized")))
                .isEmpty();
    }

    /** Users' own code is profiled alike: a program's profiling run writes its records apart from the timed runs'. */
    @Test
    void aUsersProgramIsProfiledApartFromItsTimedRuns(@TempDir Path dir) throws Exception {
        Cell cell = TestMatrices.plan(
                        """
                        schema: 1
                        jdks: [{id: t25, vm: hotspot, version: 25, image: "eclipse-temurin:25-jdk"}]
                        workloads:
                          - id: load
                            program: {classpath: ["%s"], mainClass: app.Main}
                            variants: {virtual: {properties: {threads: virtual}}, platform: {properties: {threads: platform}}}
                            baseline: platform
                        repetitions: 1
                        warmup: 0
                        profiling: {jfr: true}
                        """
                                .formatted(dir))
                .get(0);
        String script = CellScript.forContainer(cell, List.of("virtual", "platform"), List.of());
        assertThat(script)
                .containsSubsequence(
                        "--export-json /out/virtual.hyperfine.json",
                        "loom: profiling virtual",
                        "'-XX:StartFlightRecording:filename=/out/virtual.profile.jfr,settings=profile,dumponexit=true,"
                                + "jdk.VirtualThreadPinned#threshold=0ms,jdk.CPULoad#period=100ms'",
                        "'-Dloom.collect=/out/virtual.profile.result.json'",
                        "'-javaagent:/opt/loom/agent.jar=/out/virtual.profile.records.jsonl'",
                        "'app.Main'",
                        "> /out/virtual.profile.failed; fi");
        // the timed runs' command is untouched
        assertThat(script).contains("'-javaagent:/opt/loom/agent.jar=/out/virtual.records.jsonl'");
    }
}
