package dev.loommatrix.runner.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.EnvironmentRecord.Check;
import dev.loommatrix.core.testing.TestMatrices;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #49: a variant whose switch nothing in its JVMs read changed nothing. Its property is a failed check of the
 * cell's attestation, and a variant whose only difference from the baseline is such a property is invalid; a
 * property a framework may have read from its listing of them all, a variant that also differs in JVM options, and
 * a record from an older agent that watched nothing are not.
 */
class VariantSwitchesTest {

    @TempDir
    Path dir;

    Cell cell(String variants) throws Exception {
        return TestMatrices.plan(
                        """
                        schema: 1
                        jdks: [{id: t25, vm: hotspot, version: 25, image: "eclipse-temurin:25-jdk"}]
                        workloads:
                          - id: load
                            program: {classpath: ["%s"], mainClass: app.Main}
                            variants: %s
                            baseline: platform
                        repetitions: 2
                        warmup: 0
                        """
                                .formatted(dir, variants))
                .get(0);
    }

    /** A variant's runs: {@code jvms} JVMs, each having seen {@code reads} of its watched properties. */
    static VariantRuns runs(String variant, int jvms, Map<String, PropertyRead> reads) {
        List<JvmRun> runs = new java.util.ArrayList<>();
        for (int i = 0; i < jvms; i++) {
            runs.add(new JvmRun(
                    new AgentRecord(
                            1,
                            "agent",
                            i,
                            variant,
                            "app.Main",
                            Map.of(),
                            Optional.empty(),
                            Optional.empty(),
                            Optional.empty(),
                            Optional.empty(),
                            Optional.empty(),
                            reads),
                    List.of()));
        }
        return new VariantRuns(variant, runs, List.of(), Optional.empty());
    }

    static PropertyRead read(boolean read) {
        return new PropertyRead(read, Optional.empty());
    }

    @Test
    void aSwitchNothingReadIsAFailedCheckAndItsVariantChangedNothing() throws Exception {
        // init's old placeholder: the code reads blocking.threads, the variants set threads
        Cell cell = cell("{virtual: {properties: {threads: virtual}}, platform: {properties: {threads: platform}}}");
        VariantSwitches.Judgement j = VariantSwitches.judge(
                cell,
                List.of(
                        runs("virtual", 3, Map.of("threads", read(false))),
                        runs("platform", 3, Map.of("threads", read(false)))));
        assertThat(j.checks()).hasSize(2).noneMatch(Check::ok);
        assertThat(j.checks().get(0).setting()).isEqualTo("variant virtual: system property threads");
        assertThat(j.checks().get(0).observed()).isEqualTo("read by nothing in its 3 JVMs");
        assertThat(j.changedNothing()).containsOnlyKeys("virtual");
        assertThat(j.changedNothing().get("virtual"))
                .startsWith("changed nothing: its only difference from the baseline platform is the system property"
                        + " threads=virtual, which nothing in its 3 JVMs read");
    }

    @Test
    void aSwitchReadInAnyOfTheVariantsJvmsTookEffect() throws Exception {
        // a JMH host never reads it, its fork does: one JVM of the variant is enough
        Cell cell = cell(
                "{virtual: {properties: {blocking.threads: virtual}}, platform: {properties: {blocking.threads: platform}}}");
        VariantSwitches.Judgement j = VariantSwitches.judge(
                cell,
                List.of(
                        runs("virtual", 1, Map.of("blocking.threads", read(false))),
                        runs("platform", 1, Map.of("blocking.threads", read(true)))));
        assertThat(j.checks())
                .filteredOn(c -> c.setting().startsWith("variant platform"))
                .allMatch(Check::ok);
        assertThat(j.checks())
                .filteredOn(c -> c.setting().startsWith("variant virtual"))
                .noneMatch(Check::ok);
        // virtual's JVM did not read it: virtual changed nothing against platform
        assertThat(j.changedNothing()).containsOnlyKeys("virtual");
    }

    @Test
    void aListingByTheCodeUnderTestIsTheBenefitOfTheDoubt() throws Exception {
        Cell cell = cell("{virtual: {jvmArgs: [\"-Dspring.threads.virtual.enabled=true\"]}, platform: {jvmArgs: []}}");
        VariantSwitches.Judgement j = VariantSwitches.judge(
                cell,
                List.of(runs(
                        "virtual",
                        2,
                        Map.of(
                                "spring.threads.virtual.enabled",
                                new PropertyRead(
                                        false,
                                        Optional.of("org.springframework.core.env.PropertiesPropertySource"))))));
        assertThat(j.checks()).singleElement().satisfies(c -> {
            assertThat(c.ok()).isTrue();
            assertThat(c.observed()).contains("org.springframework.core.env.PropertiesPropertySource listed all");
        });
        assertThat(j.changedNothing()).isEmpty();
    }

    @Test
    void aVariantThatAlsoDiffersInJvmOptionsChangedSomething() throws Exception {
        Cell cell =
                cell("{virtual: {properties: {threads: virtual}, jvmArgs: [\"-Xss256k\"]}, platform: {jvmArgs: []}}");
        VariantSwitches.Judgement j =
                VariantSwitches.judge(cell, List.of(runs("virtual", 2, Map.of("threads", read(false)))));
        assertThat(j.checks()).singleElement().satisfies(c -> assertThat(c.ok()).isFalse());
        assertThat(j.changedNothing()).isEmpty();
    }

    @Test
    void anOlderAgentThatWatchedNothingIsNoEvidence() throws Exception {
        Cell cell = cell("{virtual: {properties: {threads: virtual}}, platform: {properties: {threads: platform}}}");
        VariantSwitches.Judgement j =
                VariantSwitches.judge(cell, List.of(runs("virtual", 2, Map.of()), runs("platform", 2, Map.of())));
        assertThat(j.checks()).isEmpty();
        assertThat(j.changedNothing()).isEmpty();
    }

    @Test
    void theJvmsOwnPropertiesAreNotWatched() throws Exception {
        Cell cell = cell(
                "{virtual: {jvmArgs: [\"-Djdk.tracePinnedThreads=full\", \"-Dapp.mode=v\"]}, platform: {jvmArgs: []}}");
        assertThat(cell.workload().user().orElseThrow().settings("virtual").codeProperties())
                .containsExactly(Map.entry("app.mode", "v"));
        assertThat(cell.workload().user().orElseThrow().settings("virtual").jvmOptions())
                .containsExactly("-Djdk.tracePinnedThreads=full");
    }

    /**
     * A suite's benchmarks share a JVM: a property read while threadsByConfiguration ran switched nothing of
     * threadsByParam, which ran alike in both variants (a new user's walkthrough: "ok" with speedups 1.03 and 0.99).
     * That benchmark's check fails; a read outside any benchmark is not attributed, and nothing is claimed.
     */
    @Test
    void aPropertyReadUnderOneBenchmarkOfASuiteSwitchesNoOther() throws Exception {
        Path jar = dev.loommatrix.core.testing.JmhJars.blockingExample(dir);
        Cell cell = TestMatrices.plan(
                        """
                        schema: 1
                        jdks: [{id: t25, vm: hotspot, version: 25, image: "eclipse-temurin:25-jdk"}]
                        workloads:
                          - id: suite
                            jmh: {jar: "%s", include: ['.*']}
                            variants:
                              virtual: {properties: {blocking.threads: virtual}}
                              platform: {properties: {blocking.threads: platform}}
                            baseline: platform
                        """
                                .formatted(jar))
                .get(0);
        String configuration = "example.blocking.jmh_generated.BlockingServiceBenchmark_threadsByConfiguration_jmhTest";
        assertThat(VariantSwitches.generatedClass("example.blocking.BlockingServiceBenchmark.threadsByConfiguration"))
                .isEqualTo(configuration);
        var underOne = new PropertyRead(true, Optional.empty(), List.of(configuration), false);
        VariantSwitches.Judgement j = VariantSwitches.judge(
                cell,
                List.of(
                        runs("virtual", 1, Map.of("blocking.threads", underOne)),
                        runs("platform", 1, Map.of("blocking.threads", underOne))));
        assertThat(j.checks())
                .filteredOn(c -> !c.ok())
                .extracting(c -> c.setting() + ": " + c.observed())
                .containsExactly(
                        "variant virtual: system property blocking.threads, for"
                                + " example.blocking.BlockingServiceBenchmark.threadsByParam: read while"
                                + " example.blocking.BlockingServiceBenchmark.threadsByConfiguration ran, never while"
                                + " example.blocking.BlockingServiceBenchmark.threadsByParam ran",
                        "variant platform: system property blocking.threads, for"
                                + " example.blocking.BlockingServiceBenchmark.threadsByParam: read while"
                                + " example.blocking.BlockingServiceBenchmark.threadsByConfiguration ran, never while"
                                + " example.blocking.BlockingServiceBenchmark.threadsByParam ran");
        assertThat(j.changedNothing()).isEmpty();

        // read once more outside any benchmark (a static initializer): not attributed, nothing claimed
        var alsoElsewhere = new PropertyRead(true, Optional.empty(), List.of(configuration), true);
        assertThat(VariantSwitches.judge(cell, List.of(runs("virtual", 1, Map.of("blocking.threads", alsoElsewhere))))
                        .checks())
                .allMatch(Check::ok);
    }
}
