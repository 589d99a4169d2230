package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.Planner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
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

    @Test
    void pairsAreHalfAbHalfBaShuffledReproducibly() {
        List<Boolean> order = AbRun.balancedOrder("run/cell/0", 8);
        assertThat(order).hasSize(8).filteredOn(b -> b).hasSize(4);
        assertThat(AbRun.balancedOrder("run/cell/0", 8)).isEqualTo(order);
        assertThat(AbRun.balancedOrder("run/cell/0", 7).stream().filter(b -> b).count())
                .isBetween(3L, 4L);
    }
}
