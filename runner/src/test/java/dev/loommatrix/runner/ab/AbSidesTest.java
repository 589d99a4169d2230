package dev.loommatrix.runner.ab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.Planner;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which cells an A/B run measures, which it refuses to compare, and what it says the sides differ in. */
class AbSidesTest {

    private static List<Cell> plan(Path dir, String name, String jdkImage, String sleepBound) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(
                file,
                """
                schema: 1
                jdks:
                  - {id: t25, vm: hotspot, version: 25, image: "%s"}
                cpus: [2]
                workloads:
                  - %s
                  - {id: thread-local, variants: [virtual, "pool:cpus"], params: {tasks: 1000}}
                repetitions: 3
                warmup: 0
                timeout: 2m
                memory: 512m
                """
                        .formatted(jdkImage, sleepBound));
        return Planner.plan(MatrixParser.parse(file, Optional.empty()));
    }

    /** A JDK update: the same entry id with another image; every cell is measured, and the report says so. */
    @Test
    void aJdkUpdateIsADifferenceNotAnUnlikeness(@TempDir Path dir) throws Exception {
        String sleep = "{id: sleep-bound, variants: [virtual, \"pool:100\"], params: {tasks: 1000, sleepMs: 50}}";
        AbSides.Matched matched = AbSides.match(
                plan(dir, "a.yaml", "eclipse-temurin:25.0.1_8-jdk", sleep),
                plan(dir, "b.yaml", "eclipse-temurin:25.0.2_10-jdk", sleep),
                Optional.empty(),
                Optional.empty());
        assertThat(matched.pairs()).hasSize(2);
        assertThat(matched.notComparable()).isEmpty();
        assertThat(matched.differences())
                .containsExactly("jdk t25: image eclipse-temurin:25.0.1_8-jdk → eclipse-temurin:25.0.2_10-jdk");
    }

    /**
     * A pull request that changes a workload's parameters or variants: those cells are listed with why and
     * not measured; the others are; a cell on one side only is named.
     */
    @Test
    void cellsDefinedDifferentlyAreNotComparableAndSaySo(@TempDir Path dir) throws Exception {
        List<Cell> before = plan(
                dir,
                "a.yaml",
                "img:1",
                "{id: sleep-bound, variants: [virtual, \"pool:100\"], params: {tasks: 1000, sleepMs: 50}}");
        List<Cell> after = plan(
                dir,
                "b.yaml",
                "img:1",
                "{id: sleep-bound, variants: [virtual, \"pool:100\"], params: {tasks: 2000, sleepMs: 50}}");
        AbSides.Matched matched = AbSides.match(before, after, Optional.empty(), Optional.empty());
        assertThat(matched.pairs())
                .extracting(p -> p.candidate().workload().id())
                .containsExactly("thread-local");
        assertThat(matched.notComparable()).singleElement().satisfies(n -> {
            assertThat(n.cellId()).endsWith("sleep-bound");
            assertThat(n.reason()).isEqualTo("parameters differ: {sleepMs=50, tasks=1000} → {sleepMs=50, tasks=2000}");
        });
        assertThat(matched.differences()).isEmpty();

        List<Cell> morePools = plan(
                dir,
                "c.yaml",
                "img:1",
                "{id: sleep-bound, variants: [virtual, \"pool:200\"], params: {tasks: 1000, sleepMs: 50}}");
        assertThat(AbSides.match(before, morePools, Optional.empty(), Optional.empty())
                        .notComparable())
                .singleElement()
                .satisfies(n -> assertThat(n.reason()).startsWith("variants differ"));

        List<Cell> fewer = before.subList(0, 1);
        AbSides.Matched oneSided = AbSides.match(before, fewer, Optional.empty(), Optional.empty());
        assertThat(oneSided.onlyBaseline()).singleElement().satisfies(id -> assertThat(id)
                .endsWith("thread-local"));
    }

    /** Two harness builds are what differs; the same jar on both sides is an A/A run. */
    @Test
    void harnessBuildsAreNamedByTheirContent(@TempDir Path dir) throws Exception {
        String sleep = "{id: sleep-bound, variants: [virtual, \"pool:100\"], params: {tasks: 1000, sleepMs: 50}}";
        List<Cell> cells = plan(dir, "a.yaml", "img:1", sleep);
        Path one = Files.writeString(dir.resolve("one.jar"), "one");
        Path two = Files.writeString(dir.resolve("two.jar"), "two");
        Path same = Files.writeString(dir.resolve("same.jar"), "one");
        assertThat(AbSides.match(cells, cells, Optional.of(one), Optional.of(two))
                        .differences())
                .singleElement()
                .satisfies(d -> assertThat(d).matches("harness [0-9a-f]{12} → [0-9a-f]{12}"));
        assertThat(AbSides.match(cells, cells, Optional.of(one), Optional.of(same))
                        .differences())
                .isEmpty();
    }

    /** A jar's entries, by name: what a JVM loads from it. */
    private static final Map<String, String> ENTRIES = entries(
            "META-INF/MANIFEST.MF", "Manifest-Version: 1.0\r\nMain-Class: org.openjdk.jmh.Main\r\n\r\n",
            "META-INF/BenchmarkList", "example.blocking.BlockingServiceBenchmark\n",
            "example/blocking/BlockingServiceBenchmark.class", "\u00ca\u00fe\u00ba\u00be one build",
            "example/blocking/LoadTest.class", "\u00ca\u00fe\u00ba\u00be the load test",
            "META-INF/maven/example/jmh-blocking/pom.properties",
                    "#Generated by Maven\n#Thu Aug 03 14:12:03 CEST 2023\ngroupId=example\nartifactId=jmh-blocking\n"
                            + "version=1.0\n");

    private static Map<String, String> entries(String... nameThenContent) {
        Map<String, String> entries = new LinkedHashMap<>();
        for (int i = 0; i < nameThenContent.length; i += 2) {
            entries.put(nameThenContent[i], nameThenContent[i + 1]);
        }
        return entries;
    }

    /** A jar of these entries, in this order, each stamped {@code time}, stored or deflated. */
    private static Path jar(Path file, Map<String, String> entries, Instant time, boolean stored) throws IOException {
        Files.write(file, jarBytes(entries, time, stored));
        return file;
    }

    private static byte[] jarBytes(Map<String, String> entries, Instant time, boolean stored) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(bytes)) {
            for (Map.Entry<String, String> e : entries.entrySet()) {
                byte[] content = e.getValue().getBytes(StandardCharsets.ISO_8859_1);
                JarEntry entry = new JarEntry(e.getKey());
                entry.setTime(time.toEpochMilli());
                if (stored) {
                    CRC32 crc = new CRC32();
                    crc.update(content);
                    entry.setMethod(ZipEntry.STORED);
                    entry.setSize(content.length);
                    entry.setCrc(crc.getValue());
                }
                jar.putNextEntry(entry);
                jar.write(content);
                jar.closeEntry();
            }
        }
        return bytes.toByteArray();
    }

    private static Map<String, String> with(Map<String, String> entries, String name, String content) {
        Map<String, String> changed = new LinkedHashMap<>(entries);
        changed.put(name, content);
        return changed;
    }

    private static Map<String, String> reversed(Map<String, String> entries) {
        Map<String, String> out = new LinkedHashMap<>();
        new java.util.ArrayList<>(entries.keySet()).reversed().forEach(k -> out.put(k, entries.get(k)));
        return out;
    }

    /**
     * A jar is the same artifact when a JVM loads the same from it — its entries' names and contents — whatever
     * their times, order and compression: an A/A run of the JMH example built twice said "The sides differ in:
     * artifact of blocking-by-param 2a1fe0dd8f11 → 9931e58c2a3c", its two jars differing in entry times only.
     */
    @Test
    void aJarIsTheSameArtifactWhateverItsEntriesTimesOrderAndCompression(@TempDir Path dir) throws Exception {
        Instant monday = Instant.parse("2026-11-23T09:00:00Z");
        Instant friday = Instant.parse("2026-11-27T17:31:02Z");
        Path built = jar(dir.resolve("a.jar"), ENTRIES, monday, false);
        // built again: other times, another order, stored, and an old Maven's pom.properties with this build's date
        // and its keys in another order
        Path rebuilt = jar(
                dir.resolve("b.jar"),
                with(
                        reversed(ENTRIES),
                        "META-INF/maven/example/jmh-blocking/pom.properties",
                        "#Generated by Maven\n#Fri Nov 27 18:31:02 CET 2026\nversion=1.0\ngroupId=example\n"
                                + "artifactId=jmh-blocking\n"),
                friday,
                true);
        assertThat(Files.readAllBytes(rebuilt)).isNotEqualTo(Files.readAllBytes(built));
        assertThat(AbSides.sha(rebuilt)).isEqualTo(AbSides.sha(built));

        // what a JVM would load differently is a difference: a class, a resource, a property, an entry's name
        String benchmark = "example/blocking/BlockingServiceBenchmark.class";
        for (Map<String, String> changed : List.of(
                with(ENTRIES, benchmark, "\u00ca\u00fe\u00ba\u00be another build"),
                with(ENTRIES, "META-INF/BenchmarkList", "example.blocking.Other\n"),
                with(ENTRIES, "META-INF/maven/example/jmh-blocking/pom.properties", "version=1.1\n"),
                with(ENTRIES, "META-INF/MANIFEST.MF", "Manifest-Version: 1.0\r\nMain-Class: example.Main\r\n\r\n"),
                with(ENTRIES, "example/blocking/Extra.class", "\u00ca\u00fe\u00ba\u00be"))) {
            assertThat(AbSides.sha(jar(dir.resolve("changed.jar"), changed, monday, false)))
                    .as(changed.toString())
                    .isNotEqualTo(AbSides.sha(built));
        }
        Map<String, String> renamed = new LinkedHashMap<>(ENTRIES);
        renamed.put("example/blocking/LoadTest2.class", renamed.remove("example/blocking/LoadTest.class"));
        assertThat(AbSides.sha(jar(dir.resolve("renamed.jar"), renamed, monday, false)))
                .isNotEqualTo(AbSides.sha(built));

        // a jar inside a jar (Spring Boot's BOOT-INF/lib) is taken by its entries too
        Path boot = jar(
                dir.resolve("boot.jar"),
                entries(
                        "BOOT-INF/lib/app.jar",
                        new String(jarBytes(ENTRIES, monday, false), StandardCharsets.ISO_8859_1)),
                monday,
                true);
        Path bootAgain = jar(
                dir.resolve("boot-again.jar"),
                entries(
                        "BOOT-INF/lib/app.jar",
                        new String(jarBytes(ENTRIES, friday, true), StandardCharsets.ISO_8859_1)),
                friday,
                true);
        Path bootChanged = jar(
                dir.resolve("boot-changed.jar"),
                entries(
                        "BOOT-INF/lib/app.jar",
                        new String(
                                jarBytes(with(ENTRIES, benchmark, "\u00ca\u00fe another"), monday, false),
                                StandardCharsets.ISO_8859_1)),
                monday,
                true);
        assertThat(AbSides.sha(bootAgain)).isEqualTo(AbSides.sha(boot));
        assertThat(AbSides.sha(bootChanged)).isNotEqualTo(AbSides.sha(boot));
    }

    /** The sides' user artifacts alike by their entries: no difference, an A/A run; a changed class is one. */
    @Test
    void anArtifactBuiltAgainIsNoDifferenceAChangedOneIs(@TempDir Path dir) throws Exception {
        Path built = jar(dir.resolve("built.jar"), ENTRIES, Instant.parse("2026-11-23T09:00:00Z"), false);
        Path rebuilt = jar(dir.resolve("rebuilt.jar"), ENTRIES, Instant.parse("2026-11-27T17:31:02Z"), false);
        Path changed = jar(
                dir.resolve("changed.jar"),
                with(ENTRIES, "example/blocking/BlockingServiceBenchmark.class", "\u00ca\u00fe\u00ba\u00be slower"),
                Instant.parse("2026-11-27T17:31:02Z"),
                false);
        List<Cell> base = programCells(dir, "base.yaml", built);
        assertThat(AbSides.match(base, programCells(dir, "again.yaml", rebuilt), Optional.empty(), Optional.empty())
                        .differences())
                .isEmpty();
        assertThat(AbSides.match(base, programCells(dir, "changed.yaml", changed), Optional.empty(), Optional.empty())
                        .differences())
                .singleElement()
                .satisfies(d -> assertThat(d).matches("artifact of blocking [0-9a-f]{12} → [0-9a-f]{12}"));
    }

    private static List<Cell> programCells(Path dir, String name, Path jar) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(
                file,
                """
                schema: 1
                jdks:
                  - {id: t25, vm: hotspot, version: 25, image: "img:1"}
                cpus: [2]
                workloads:
                  - id: blocking
                    program:
                      classpath: ["%s"]
                      mainClass: example.blocking.LoadTest
                      metrics: {roundMs: {unit: ms, direction: lower}}
                    variants:
                      virtual: {properties: {blocking.threads: virtual}}
                repetitions: 3
                warmup: 0
                """
                        .formatted(jar));
        return Planner.plan(MatrixParser.parse(file, Optional.empty()));
    }

    @Test
    void pairsAreHalfAbHalfBaShuffledReproducibly() {
        List<Boolean> order = CellPairs.balancedOrder("run/cell/0", 8);
        assertThat(order).hasSize(8).filteredOn(b -> b).hasSize(4);
        assertThat(CellPairs.balancedOrder("run/cell/0", 8)).isEqualTo(order);
        assertThat(CellPairs.balancedOrder("run/cell/0", 7).stream()
                        .filter(b -> b)
                        .count())
                .isBetween(3L, 4L);
    }
}
