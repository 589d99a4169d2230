package dev.loommatrix.core.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.matrix.Matrix;
import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.testing.TestMatrices;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PlannerTest {

    static List<Cell> plan(String yaml) throws Exception {
        return TestMatrices.plan(yaml);
    }

    static final String HEAD =
            """
            schema: 1
            jdks:
              - {id: a21, vm: hotspot, version: 21}
              - {id: b25, vm: openj9, version: 25}
            cpus: [1, 2]
            workloads:
              - {id: sleep-bound, variants: [virtual]}
              - {id: mass-start, variants: [virtual]}
            """;

    @Test
    void crossProductInAxisOrderWithStableIds() throws Exception {
        List<Cell> cells = plan(HEAD + "scheduler: {parallelism: [auto, 1]}\n");
        assertThat(cells).hasSize(2 * 2 * 2 * 2);
        assertThat(cells.get(0).id()).isEqualTo("a21.linux.cpus-1.par-auto.max-auto.minr-auto.sleep-bound");
        assertThat(cells.get(1).id()).isEqualTo("a21.linux.cpus-1.par-auto.max-auto.minr-auto.mass-start");
        assertThat(cells.get(2).id()).isEqualTo("a21.linux.cpus-1.par-1.max-auto.minr-auto.sleep-bound");
        assertThat(cells.get(cells.size() - 1).id()).isEqualTo("b25.linux.cpus-2.par-1.max-auto.minr-auto.mass-start");
        assertThat(cells.get(cells.size() - 1).coordinates().vm()).isEqualTo("openj9");
        assertThat(cells).extracting(Cell::id).doesNotHaveDuplicates();
    }

    @Test
    void fractionalQuotasKeepTheirDigits() throws Exception {
        assertThat(plan(HEAD.replace("cpus: [1, 2]", "cpus: [1.5, 2.0]")))
                .extracting(c -> c.coordinates().cpus().toPlainString())
                .contains("1.5", "2");
    }

    @Test
    void excludeDropsEveryCombinationMatchingAllItsKeys() throws Exception {
        List<Cell> cells = plan(HEAD + "exclude:\n  - {jdk: b25, cpus: 1}\n  - {workload: mass-start, cpus: 2}\n");
        assertThat(cells)
                .extracting(Cell::id)
                .containsExactly(
                        "a21.linux.cpus-1.par-auto.max-auto.minr-auto.sleep-bound",
                        "a21.linux.cpus-1.par-auto.max-auto.minr-auto.mass-start",
                        "a21.linux.cpus-2.par-auto.max-auto.minr-auto.sleep-bound",
                        "b25.linux.cpus-2.par-auto.max-auto.minr-auto.sleep-bound");
    }

    @Test
    void includeExtendsMatchingCombinationsWithoutOverwritingThem() throws Exception {
        List<Cell> cells = plan(HEAD + "include:\n  - {jdk: a21, jvmArgs: [\"-XX:+UseZGC\"], env: {K: v}}\n");
        assertThat(cells).hasSize(8);
        assertThat(cells).filteredOn(c -> c.coordinates().jdk().equals("a21")).allSatisfy(c -> {
            assertThat(c.jvmArgs()).containsExactly("-XX:+UseZGC");
            assertThat(c.env()).containsEntry("K", "v");
        });
        assertThat(cells).filteredOn(c -> c.coordinates().jdk().equals("b25")).allSatisfy(c -> assertThat(c.jvmArgs())
                .isEmpty());
    }

    @Test
    void includeThatMatchesNothingAddsOneCombinationWithFirstListedValues() throws Exception {
        List<Cell> cells = plan(HEAD + "include:\n  - {jdk: b25, cpus: 8}\n");
        assertThat(cells).hasSize(9);
        assertThat(cells.get(8).id()).isEqualTo("b25.linux.cpus-8.par-auto.max-auto.minr-auto.sleep-bound");
    }

    @Test
    void includeRunsAfterExcludeSoItCanAddBackAnExcludedCombination() throws Exception {
        List<Cell> cells =
                plan(HEAD + "exclude:\n  - {jdk: b25}\ninclude:\n  - {jdk: b25, cpus: 2, workload: mass-start}\n");
        assertThat(cells)
                .extracting(Cell::id)
                .contains("b25.linux.cpus-2.par-auto.max-auto.minr-auto.mass-start")
                .filteredOn(id -> id.startsWith("b25"))
                .hasSize(1);
    }

    @Test
    void includeNeverExtendsACombinationAddedByAnEarlierInclude() throws Exception {
        // The second entry matches only the first entry's new combination; like GitHub Actions it is
        // added as its own combination (here the same coordinates, so one cell carrying its jvmArgs).
        List<Cell> cells =
                plan(HEAD + "include:\n  - {jdk: a21, cpus: 4}\n  - {jdk: a21, cpus: 4, jvmArgs: [\"-Xint\"]}\n");
        assertThat(cells).hasSize(9);
        Cell added = cells.get(8);
        assertThat(added.id()).isEqualTo("a21.linux.cpus-4.par-auto.max-auto.minr-auto.sleep-bound");
        assertThat(added.jvmArgs()).containsExactly("-Xint");
    }

    @Test
    void theProjectsQuickProfilePlansEveryWorkloadForEachJdkAtTwoCpus() throws Exception {
        Matrix quick = MatrixParser.parse(Path.of("../matrix.yaml"), Optional.of("quick"));
        assertThat(Planner.plan(quick))
                .hasSize(4 * 11)
                .allSatisfy(c -> assertThat(c.coordinates().cpus().intValue()).isEqualTo(2));
    }

    @Test
    void shardsPartitionThePlanAndBalanceEstimatedTime() throws Exception {
        Matrix full = MatrixParser.parse(Path.of("../matrix.yaml"), Optional.empty());
        List<Cell> plan = Planner.plan(full);
        for (int n = 1; n <= 5; n++) {
            Set<String> union = new HashSet<>();
            double max = 0;
            double min = Double.MAX_VALUE;
            for (int i = 1; i <= n; i++) {
                List<Cell> shard = Shards.select(plan, new Shards.Shard(i, n));
                for (Cell c : shard) {
                    assertThat(union.add(c.id()))
                            .as("cell %s in two shards", c.id())
                            .isTrue();
                }
                double load = shard.stream().mapToDouble(CostModel::estimateMs).sum();
                max = Math.max(max, load);
                min = Math.min(min, load);
            }
            assertThat(union).hasSize(plan.size());
            double largestCell =
                    plan.stream().mapToDouble(CostModel::estimateMs).max().orElseThrow();
            assertThat(max - min).as("imbalance with %d shards", n).isLessThanOrEqualTo(largestCell);
        }
    }
}
