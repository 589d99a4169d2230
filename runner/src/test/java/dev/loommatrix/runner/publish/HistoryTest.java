package dev.loommatrix.runner.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.core.result.RunManifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryTest {

    /** A run directory with one cell from the golden files, under a given id and start time. */
    static RunDirectory run(Path root, String runId, String startedAt) throws Exception {
        CellRecord cell = dev.loommatrix.core.result.Json.MAPPER.readValue(
                Path.of("src/test/resources/golden/cell-sleep-bound.json").toFile(), CellRecord.class);
        return runOf(root, runId, startedAt, cell, "abc");
    }

    /** Path → sha256 of every file under the site. */
    static Map<String, String> snapshot(Path site) throws Exception {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(site)) {
            for (Path p : paths.filter(Files::isRegularFile).toList()) {
                files.put(
                        site.relativize(p).toString(),
                        HexFormat.of()
                                .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p))));
            }
        }
        return files;
    }

    static List<String> runIds(Path site) throws Exception {
        return History.readIndex(site).runs().stream().map(History.Entry::runId).toList();
    }

    @Test
    void republishingChangesNoByte(@TempDir Path tmp) throws Exception {
        Path site = tmp.resolve("site");
        SitePublisher.publish(run(tmp, "r1", "2026-11-20T10:00:00Z"), site, Optional.empty());
        SitePublisher.publish(run(tmp, "r2", "2026-11-21T10:00:00Z"), site, Optional.empty());
        Map<String, String> before = snapshot(site);
        SitePublisher.publish(run(tmp, "r2", "2026-11-21T10:00:00Z"), site, Optional.empty());
        SitePublisher.publish(run(tmp, "r1", "2026-11-20T10:00:00Z"), site, Optional.empty());
        assertThat(snapshot(site)).isEqualTo(before);
        assertThat(runIds(site)).containsExactly("r1", "r2");
        assertThat(History.readIndex(site).runs().get(1).compared())
                .as("r2 is compared with r1, its baseline")
                .map(History.Compared::baseline)
                .contains("r1");
        assertThat(site.resolve("data/runs/r2/compare.json")).isRegularFile();
        assertThat(before).containsKeys("data/runs/r1/conclusions.json", "data/runs/r2/conclusions.json");
        // 3 repetitions against 3 can never reach significance: both variants are inconclusive
        assertThat(History.readIndex(site)
                        .runs()
                        .get(1)
                        .compared()
                        .orElseThrow()
                        .inconclusive())
                .isEqualTo(2);
    }

    @Test
    void eachPublishedRunCarriesWhatItConcludes(@TempDir Path tmp) throws Exception {
        Path site = tmp.resolve("site");
        SitePublisher.publish(run(tmp, "r1", "2026-11-20T10:00:00Z"), site, Optional.empty());
        var published = dev.loommatrix.core.result.Json.MAPPER.readTree(
                site.resolve("data/runs/r1/conclusions.json").toFile());
        assertThat(dev.loommatrix.runner.contract.ResultsSchemaTest.schema().validate(published))
                .isEmpty();
        assertThat(published.path("runId").asText()).isEqualTo("r1");
        assertThat(published.path("thresholdPercent").asDouble()).isEqualTo(10.0);
        // the golden sleep-bound cell: virtual threads pay off over the best pool it measured
        assertThat(published.at("/conclusions/0/workload").asText()).isEqualTo("sleep-bound");
        assertThat(published.at("/conclusions/0/findings/0/conclusion").asText())
                .isEqualTo("pays-off");
    }

    /** A run directory of one cell at a given commit. */
    static RunDirectory runOf(Path root, String runId, String startedAt, CellRecord cell, String commit)
            throws Exception {
        RunDirectory run = new RunDirectory(root.resolve(runId));
        run.writeManifest(new RunManifest(
                1,
                runId,
                startedAt,
                Optional.of(startedAt),
                dev.loommatrix.core.result.RunStatus.FINISHED,
                "schedule",
                new RunManifest.Git(commit, "main", false),
                RunManifest.Host.of("Linux", "6", "cpu", 2, 1L << 30),
                new RunManifest.MatrixInfo("matrix.yaml", Optional.of("quick"), "0", Optional.empty()),
                List.of(cell.cellId())));
        run.writeCell(cell);
        return run;
    }

    @Test
    void aConclusionThatChangedSinceTheRunBeforeSaysWhatElseChangedWithIt(@TempDir Path tmp) throws Exception {
        // the nightly before: pinning on JDK 25, synchronized no longer pins (no difference); the next nightly
        // measured the same cell on a JDK build that pins again (the JDK 21 cell's numbers under the 25 cell's id)
        Path golden = Path.of("src/test/resources/golden");
        CellRecord before = dev.loommatrix.core.result.Json.MAPPER.readValue(
                golden.resolve("cell-pinning-25.json").toFile(), CellRecord.class);
        var pinsAgain =
                (com.fasterxml.jackson.databind.node.ObjectNode) dev.loommatrix.core.result.Json.MAPPER.readTree(
                        golden.resolve("cell-pinning-21.json").toFile());
        pinsAgain.put("cellId", before.cellId());
        pinsAgain.set("coordinates", dev.loommatrix.core.result.Json.MAPPER.valueToTree(before.coordinates()));
        CellRecord after = dev.loommatrix.core.result.Json.MAPPER.treeToValue(pinsAgain, CellRecord.class);
        Path site = tmp.resolve("site");
        SitePublisher.publish(
                runOf(tmp, "r1", "2026-11-20T02:00:00Z", before, "1111111111111111"), site, Optional.empty());
        SitePublisher.publish(
                runOf(tmp, "r2", "2026-11-21T02:00:00Z", after, "2222222222222222"), site, Optional.empty());
        var published = dev.loommatrix.core.result.Json.MAPPER.readTree(
                site.resolve("data/runs/r2/conclusions.json").toFile());
        assertThat(dev.loommatrix.runner.contract.ResultsSchemaTest.schema().validate(published))
                .isEmpty();
        var since = published.path("since");
        assertThat(since.path("runId").asText()).isEqualTo("r1");
        assertThat(since.path("commits").asText()).isEqualTo("111111111111..222222222222");
        assertThat(since.path("alike").asInt()).isZero();
        var changed = since.path("changed").get(0);
        assertThat(changed.at("/change/from").asText()).isEqualTo("no-difference");
        assertThat(changed.at("/change/to").asText()).isEqualTo("hurts");
        String build25 = before.environment().orElseThrow().vm().get("version");
        String build21 = after.environment().orElseThrow().vm().get("version");
        assertThat(changed.path("alongside").get(0).asText()).isEqualTo("the JDK build " + build25 + " → " + build21);
        // the first run has no run before it: nothing to say since
        assertThat(dev.loommatrix.core.result.Json.MAPPER
                        .readTree(site.resolve("data/runs/r1/conclusions.json").toFile())
                        .has("since"))
                .isFalse();
    }

    @Test
    void aCorruptIndexIsRebuiltWholeFromTheRunDirectories(@TempDir Path tmp) throws Exception {
        Path site = tmp.resolve("site");
        SitePublisher.publish(run(tmp, "r1", "2026-11-19T10:00:00Z"), site, Optional.empty());
        SitePublisher.publish(run(tmp, "r2", "2026-11-20T10:00:00Z"), site, Optional.empty());
        Files.writeString(History.indexFile(site), "{\"schemaVersion\": 1, \"runs\": [");
        var published = SitePublisher.publish(run(tmp, "r3", "2026-11-21T10:00:00Z"), site, Optional.empty());
        assertThat(published.history().note()).hasValueSatisfying(n -> assertThat(n)
                .contains("rebuilt it from 3 run directories")); // r1, r2 and the new r3
        assertThat(runIds(site)).containsExactly("r1", "r2", "r3");
    }

    @Test
    void ifTheRunDirectoriesAreBrokenTooPublishRefusesAndTouchesNothing(@TempDir Path tmp) throws Exception {
        Path site = tmp.resolve("site");
        SitePublisher.publish(run(tmp, "r1", "2026-11-19T10:00:00Z"), site, Optional.empty());
        SitePublisher.publish(run(tmp, "r2", "2026-11-20T10:00:00Z"), site, Optional.empty());
        Files.writeString(History.indexFile(site), "garbage");
        Files.writeString(History.runDir(site, "r1").resolve("cells.json"), "[{");
        assertThatThrownBy(() -> SitePublisher.publish(run(tmp, "r3", "2026-11-21T10:00:00Z"), site, Optional.empty()))
                .isInstanceOf(History.Refused.class)
                .hasMessageContaining("run directory r1")
                .hasMessageContaining("refusing to write an index that would drop history");
        assertThat(Files.readString(History.indexFile(site))).isEqualTo("garbage");
    }

    @Test
    void eachRunIsComparedWithTheNewestEarlierRunOfItsProfileThatNoPullRequestTriggered(@TempDir Path tmp)
            throws Exception {
        Path site = tmp.resolve("site");
        SitePublisher.publish(run(tmp, "r2", "2026-11-12T10:00:00Z"), site);
        SitePublisher.publish(withTrigger(run(tmp, "r3", "2026-11-13T10:00:00Z"), "pull_request"), site);
        SitePublisher.publish(run(tmp, "r4", "2026-11-14T10:00:00Z"), site);
        assertThat(baselines(site)).containsExactly("r2=none", "r3=r2", "r4=r2");
        // an older run published late becomes the baseline of the run after it
        SitePublisher.publish(run(tmp, "r1", "2026-11-11T10:00:00Z"), site);
        assertThat(baselines(site)).containsExactly("r1=none", "r2=r1", "r3=r2", "r4=r2");
        assertThat(site.resolve("data/runs/r1/compare.json")).doesNotExist();
        var report = dev.loommatrix.core.result.Json.MAPPER.readTree(
                site.resolve("data/runs/r2/compare.json").toFile());
        assertThat(report.get("baseline").asText()).isEqualTo("r1");
        assertThat(report.get("candidate").asText()).isEqualTo("r2");
    }

    /**
     * Issue #19: a published run was compared with an unrelated one — another matrix, sharing no cell — and
     * reported "0 regressions". A baseline is now of the same matrix identity (an explicit id survives edits
     * of the file; without one the file's hash) and shares cells; the next eligible runs are alternatives.
     */
    @Test
    void aBaselineIsAnEarlierRunOfTheSameMatrixSharingCells(@TempDir Path tmp) throws Exception {
        Path site = tmp.resolve("site");
        SitePublisher.publish(withMatrix(run(tmp, "a1", "2026-11-10T10:00:00Z"), "aaaa", null, null), site);
        SitePublisher.publish(withMatrix(run(tmp, "a2", "2026-11-11T10:00:00Z"), "aaaa", null, null), site);
        SitePublisher.publish(withMatrix(run(tmp, "b1", "2026-11-12T10:00:00Z"), "bbbb", null, null), site);
        // same matrix hash as a1 and a2, but its one cell is another
        SitePublisher.publish(
                withMatrix(run(tmp, "a3", "2026-11-13T10:00:00Z"), "aaaa", null, "debian-25.linux.other"), site);
        SitePublisher.publish(withMatrix(run(tmp, "a4", "2026-11-14T10:00:00Z"), "aaaa", null, null), site);
        assertThat(baselines(site)).containsExactly("a1=none", "a2=a1", "b1=none", "a3=none", "a4=a2");
        var a4 = History.readIndex(site).runs().get(4);
        assertThat(a4.matrix()).contains("sha256:aaaa");
        assertThat(a4.alternatives()).containsExactly("a1");
        assertThat(site.resolve("data/runs/a4/" + Baselines.alternativeFile("a1", false)))
                .isRegularFile();
        assertThat(site.resolve("data/runs/a4/" + Baselines.alternativeFile("a1", true)))
                .isRegularFile();

        // an explicit id pairs runs whose files differ (a JDK was added), and nothing with another id
        SitePublisher.publish(withMatrix(run(tmp, "n1", "2026-11-15T10:00:00Z"), "1111", "nightly", null), site);
        SitePublisher.publish(withMatrix(run(tmp, "n2", "2026-11-16T10:00:00Z"), "2222", "nightly", null), site);
        SitePublisher.publish(withMatrix(run(tmp, "o1", "2026-11-17T10:00:00Z"), "2222", "other", null), site);
        assertThat(baselines(site)).endsWith("n1=none", "n2=n1", "o1=none");

        // retention drops a4's alternative: its comparison with it goes too
        SitePublisher.publish(
                withMatrix(run(tmp, "a5", "2026-11-18T10:00:00Z"), "aaaa", null, null), site, Optional.of(8));
        assertThat(runIds(site)).doesNotContain("a1");
        assertThat(History.readIndex(site).runs().get(0).alternatives()).isEmpty();
        assertThat(site.resolve("data/runs/a4/" + Baselines.alternativeFile("a1", false)))
                .doesNotExist();
        assertThat(baselines(site)).contains("a4=a2", "a5=a4");
    }

    /** The run with another matrix hash, declared id, and (when given) a single other cell id. */
    static RunDirectory withMatrix(RunDirectory run, String sha256, String id, String cellId) throws Exception {
        RunManifest m = run.readManifest();
        List<String> cells = m.cells();
        if (cellId != null) {
            CellRecord cell = run.readCells().get(0);
            var moved = dev.loommatrix.core.result.Json.MAPPER.readTree(
                    dev.loommatrix.core.result.Json.MAPPER.writeValueAsString(cell));
            ((com.fasterxml.jackson.databind.node.ObjectNode) moved).put("cellId", cellId);
            java.nio.file.Files.delete(run.root().resolve("cells").resolve(cell.cellId() + ".json"));
            run.writeCell(dev.loommatrix.core.result.Json.MAPPER.treeToValue(moved, CellRecord.class));
            cells = List.of(cellId);
        }
        run.writeManifest(new RunManifest(
                m.schemaVersion(),
                m.runId(),
                m.startedAt(),
                m.finishedAt(),
                m.status(),
                m.trigger(),
                m.git(),
                m.host(),
                new RunManifest.MatrixInfo(
                        m.matrix().file(),
                        m.matrix().profile(),
                        sha256,
                        m.matrix().shard(),
                        Optional.ofNullable(id)),
                cells));
        return run;
    }

    /**
     * Issue #20: publish copies each cell's profiling recordings into the site for the cell view to offer, and
     * keeps them for the newest runs only; the index says which runs have them.
     */
    @Test
    void profilingRecordingsAreKeptForTheNewestRunsOnly(@TempDir Path tmp) throws Exception {
        Path site = tmp.resolve("site");
        CellRecord profiled = dev.loommatrix.core.result.Json.MAPPER.readValue(
                Path.of("src/test/resources/golden/cell-pinning-21-profiled.json")
                        .toFile(),
                CellRecord.class);
        for (int i = 1; i <= 3; i++) {
            RunDirectory run = run(tmp, "p" + i, "2026-11-1" + i + "T10:00:00Z");
            run.writeCell(profiled);
            Path raw = run.rawDir(profiled.cellId());
            Files.createDirectories(raw);
            for (var p : profiled.profiles()) {
                Files.write(raw.resolve(p.file().orElseThrow()), ("recording of run " + i).getBytes());
            }
            SitePublisher.publish(run, site, Optional.empty(), 2, true);
        }
        Path kept = History.profilesDir(site, "p3").resolve(profiled.cellId()).resolve("synchronized.profile.jfr");
        assertThat(Files.readString(kept)).isEqualTo("recording of run 3");
        assertThat(History.profilesDir(site, "p2")).isDirectory();
        assertThat(History.profilesDir(site, "p1")).doesNotExist();
        assertThat(History.readIndex(site).runs())
                .extracting(History.Entry::profiles)
                .containsExactly(false, true, true);
        // republishing the newest changes no byte
        Map<String, String> before = snapshot(site);
        RunDirectory again = new RunDirectory(tmp.resolve("p3"));
        SitePublisher.publish(again, site, Optional.empty(), 2, true);
        assertThat(snapshot(site)).isEqualTo(before);
        // without --publish-recordings the JFR files stay with the run's raw output
        SitePublisher.publish(run(tmp, "p4", "2026-11-14T10:00:00Z"), site, Optional.empty(), 2, false);
        assertThat(History.readIndex(site).runs().get(3).recordings()).isFalse();
        // later runs without profiles do not count (issue #31: three of them took a profiled run's flame graphs)
        SitePublisher.publish(run(tmp, "p5", "2026-11-15T10:00:00Z"), site, Optional.empty(), 2, false);
        SitePublisher.publish(run(tmp, "p6", "2026-11-16T10:00:00Z"), site, Optional.empty(), 2, false);
        assertThat(Files.readString(kept)).isEqualTo("recording of run 3");
        assertThat(History.profilesDir(site, "p2")).isDirectory();
        assertThat(History.readIndex(site).runs())
                .extracting(History.Entry::profiles)
                .containsExactly(false, true, true, false, false, false);
    }

    static List<String> baselines(Path site) throws Exception {
        return History.readIndex(site).runs().stream()
                .map(e -> e.runId() + "="
                        + e.compared().map(History.Compared::baseline).orElse("none"))
                .toList();
    }

    static RunDirectory withTrigger(RunDirectory run, String trigger) throws Exception {
        RunManifest m = run.readManifest();
        run.writeManifest(new RunManifest(
                m.schemaVersion(),
                m.runId(),
                m.startedAt(),
                m.finishedAt(),
                m.status(),
                trigger,
                m.git(),
                m.host(),
                m.matrix(),
                m.cells()));
        return run;
    }

    @Test
    void concurrentPublishersBothLand(@TempDir Path tmp) throws Exception {
        Path site = tmp.resolve("site");
        int publishers = 8;
        List<RunDirectory> runs = new java.util.ArrayList<>();
        for (int i = 0; i < publishers; i++) {
            runs.add(run(tmp, "r" + i, "2026-11-21T10:00:0" + i + "Z"));
        }
        List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(publishers)) {
            var barrier = new java.util.concurrent.CyclicBarrier(publishers);
            for (RunDirectory r : runs) {
                done.add(pool.submit(() -> {
                    barrier.await();
                    return SitePublisher.publish(r, site, Optional.empty());
                }));
            }
        }
        for (var f : done) {
            f.get(); // every publisher succeeded
        }
        assertThat(runIds(site)).hasSize(publishers);
    }

    @Test
    void publishersInSeparateProcessesAllLand(@TempDir Path tmp) throws Exception {
        Path site = tmp.resolve("site");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Process> processes = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            RunDirectory run = run(tmp, "p" + i, "2026-11-21T10:00:0" + i + "Z");
            processes.add(new ProcessBuilder(
                            java,
                            "-cp",
                            System.getProperty("java.class.path"),
                            "dev.loommatrix.runner.cli.LoomMatrix",
                            "publish",
                            "--run",
                            run.root().toString(),
                            "--site",
                            site.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(tmp.resolve("p" + i + ".log").toFile())
                    .start());
        }
        for (int i = 0; i < processes.size(); i++) {
            Process p = processes.get(i);
            // output in a file: a publisher that hangs fails the test instead of hanging it
            boolean ended = p.waitFor(2, TimeUnit.MINUTES);
            String output = Files.readString(tmp.resolve("p" + i + ".log"));
            if (!ended) {
                p.destroyForcibly();
            }
            assertThat(ended).as("publisher %d ended: %s", i, output).isTrue();
            assertThat(p.exitValue()).as(output).isZero();
        }
        assertThat(runIds(site)).containsExactly("p0", "p1", "p2", "p3");
    }

    @Test
    void retentionKeepsTheNewestRuns(@TempDir Path tmp) throws Exception {
        Path site = tmp.resolve("site");
        for (int i = 1; i <= 4; i++) {
            SitePublisher.publish(run(tmp, "r" + i, "2026-11-1" + i + "T10:00:00Z"), site, Optional.of(2));
        }
        assertThat(runIds(site)).containsExactly("r3", "r4");
        assertThat(History.runDir(site, "r1")).doesNotExist();
        assertThat(History.runDir(site, "r2")).doesNotExist();
    }

    @Test
    void trendsCarryEachSeriesItsChangePointsAndAnnotations(@TempDir Path tmp) throws Exception {
        Path site = tmp.resolve("site");
        // 10 runs: a level needs 5 runs on each side before the rank test can confirm it (p ≥ 2/252)
        for (int i = 1; i <= 10; i++) {
            RunDirectory run = run(tmp, "r" + i, String.format("2026-11-%02dT10:00:00Z", 10 + i));
            CellRecord cell = run.readCells().get(0);
            // the virtual variant's samples jump by 50 % from run 6 on, with a new JDK build at run 6
            double scale = i >= 6 ? 1.5 : 1.0 + i * 0.001;
            var measurements = cell.measurements().stream()
                    .map(m -> m.variant().equals("virtual") ? scaled(m, scale) : m)
                    .toList();
            var env = cell.environment().orElseThrow();
            var vm = new java.util.LinkedHashMap<>(env.vm());
            if (i >= 6) {
                vm.put("version", "21.0.13+1");
            }
            var newEnv = new dev.loommatrix.core.result.EnvironmentRecord(
                    env.availableProcessors(),
                    env.scheduler(),
                    vm,
                    env.javaVersion(),
                    env.gc(),
                    env.javaToolOptions(),
                    env.inputArguments(),
                    env.image(),
                    env.imageDigest(),
                    env.javaVersionOutput(),
                    env.limits(),
                    env.attested(),
                    env.attestation());
            run.writeCell(CellRecord.of(
                    cell.cellId(),
                    cell.coordinates(),
                    cell.status(),
                    cell.reason(),
                    cell.logTail(),
                    Optional.of(newEnv),
                    measurements,
                    cell.execution()));
            SitePublisher.publish(run, site, Optional.empty());
        }
        String jdk = "debian-21"; // the golden cell's JDK, which the trends are split by
        var index = dev.loommatrix.core.result.Json.MAPPER.readTree(
                site.resolve("data/trends/sleep-bound/index.json").toFile());
        assertThat(index.get("jdks").toString()).isEqualTo("{\"" + jdk + "\":1}");
        var trends = dev.loommatrix.core.result.Json.MAPPER.readTree(
                site.resolve("data/trends/sleep-bound/" + jdk + ".json").toFile());
        assertThat(trends.get("method").asText()).startsWith("PELT");
        var virtual = java.util.stream.StreamSupport.stream(trends.get("series").spliterator(), false)
                .filter(s -> s.get("variant").asText().equals("virtual"))
                .findFirst()
                .orElseThrow();
        assertThat(virtual.get("points")).hasSize(10);
        assertThat(virtual.get("changePoints").toString()).isEqualTo("[\"r6\"]");
        var pool = java.util.stream.StreamSupport.stream(trends.get("series").spliterator(), false)
                .filter(s -> !s.get("variant").asText().equals("virtual"))
                .findFirst()
                .orElseThrow();
        assertThat(pool.get("changePoints")).isEmpty();
        assertThat(trends.get("annotations").toString())
                .contains("\"runId\":\"r6\"")
                .contains("jdk build")
                .contains("21.0.13+1");
    }

    static dev.loommatrix.core.result.Measurement scaled(dev.loommatrix.core.result.Measurement m, double k) {
        var samples = m.samples().stream()
                .map(s -> s.with("wallMs", s.metric("wallMs").orElseThrow() * k))
                .toList();
        double[] walls = samples.stream()
                .mapToDouble(s -> s.metric("wallMs").orElseThrow())
                .toArray();
        return new dev.loommatrix.core.result.Measurement(
                m.variant(),
                m.params(),
                m.metric(),
                samples,
                Optional.of(dev.loommatrix.core.stats.Summary.of(walls)),
                m.processSummary(),
                m.lowerBoundMs(),
                m.efficiency(),
                m.ceiling(),
                m.error());
    }
}
