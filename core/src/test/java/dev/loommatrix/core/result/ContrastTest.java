package dev.loommatrix.core.result;

import static dev.loommatrix.core.result.SpeedupsTest.m;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loommatrix.core.matrix.Contrast;
import dev.loommatrix.core.plan.Coordinates;
import dev.loommatrix.core.stats.MetricDescriptor;
import dev.loommatrix.core.testing.SyntheticRuns;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue #19: every cell record names its headline contrast — what it is against, in words — so no view has to
 * pick a comparator (an alphabetical default read 2.3× or 5.7× for the same cell).
 */
class ContrastTest {

    static CellRecord cell(String workload, Measurement... measurements) {
        Coordinates at = new Coordinates(
                "temurin-21", "hotspot", 21, "linux", BigDecimal.valueOf(2), "all", "auto", "auto", "auto", workload);
        return CellRecord.of(
                at.cellId(),
                at,
                CellStatus.OK,
                Optional.empty(),
                Optional.empty(),
                Optional.of(SyntheticRuns.ENVIRONMENT),
                List.of(measurements),
                CellRecord.Execution.of("local", "test", "t0", "t1", 0, List.of()));
    }

    @Test
    void sleepBoundContrastsVirtualWithTheFastestPoolNotTheAlphabeticallyFirst() {
        // pool:1000 sorts before pool:200 and is the faster: the one a skeptic compares with
        CellRecord record = cell(
                "sleep-bound",
                m("virtual", MetricDescriptor.WALL_MS, 101, 102, 103),
                m("pool:1000", MetricDescriptor.WALL_MS, 230, 232, 234),
                m("pool:200", MetricDescriptor.WALL_MS, 1010, 1011, 1012));
        Contrast contrast = record.contrast().orElseThrow();
        assertThat(contrast.kind()).isEqualTo(Contrast.Kind.SPEEDUP);
        assertThat(contrast.subject()).isEqualTo("virtual");
        assertThat(contrast.reference()).contains("pool:1000");
        assertThat(contrast.fastestOther()).isTrue();
        assertThat(contrast.words()).contains("fastest platform-thread variant");
        assertThat(record.baseline()).isEmpty();
        // the speedup it names is among the record's
        assertThat(record.speedups())
                .filteredOn(s -> s.over().equals("virtual") && s.variant().equals("pool:1000"))
                .singleElement()
                .satisfies(s -> assertThat(s.ratio()).isCloseTo(232.0 / 102, within(1e-9)));
    }

    @Test
    void aThroughputWorkloadsFastestIsItsHighest() {
        Contrast contrast = Speedups.resolve(
                        Contrast.overFastestOther("virtual", "w"),
                        List.of(
                                m("virtual", MetricDescriptor.THROUGHPUT, 5200, 5217, 5230),
                                m("pool:50", MetricDescriptor.THROUGHPUT, 160, 165, 166),
                                m("pool:500", MetricDescriptor.THROUGHPUT, 1600, 1650, 1660)))
                .orElseThrow();
        assertThat(contrast.reference()).contains("pool:500");
    }

    /** The seed's JDK 21 vs 24+ story: synchronized against reentrant-lock, a penalty below 1× where it pins. */
    @Test
    void pinningIsThePenaltyOfSynchronizedOverReentrantLock() {
        CellRecord record = cell(
                "pinning",
                m("synchronized", MetricDescriptor.WALL_MS, 1650, 1656, 1660),
                m("reentrant-lock", MetricDescriptor.WALL_MS, 158, 160, 163),
                m("class-init", MetricDescriptor.WALL_MS, 170, 171, 175));
        assertThat(record.baseline()).contains("reentrant-lock");
        Contrast contrast = record.contrast().orElseThrow();
        assertThat(contrast.subject()).isEqualTo("synchronized");
        assertThat(contrast.reference()).contains("reentrant-lock");
        assertThat(contrast.fastestOther()).isFalse();
        assertThat(contrast.words()).contains("pinning penalty").contains("JEP 491");
        // every variant over the baseline; synchronized is 10.35× slower, a ratio below 1
        assertThat(record.speedups()).hasSize(2).allSatisfy(s -> assertThat(s.variant())
                .isEqualTo("reentrant-lock"));
        assertThat(record.speedups())
                .filteredOn(s -> s.over().equals("synchronized"))
                .singleElement()
                .satisfies(s -> {
                    assertThat(s.ratio()).isCloseTo(160.0 / 1656, within(1e-9));
                    assertThat(s.ci95().get(1)).isLessThan(1);
                });
    }

    @Test
    void fibFanoutIsEachVariantOverSequentialWithCallerVirtualFirst() {
        CellRecord record = cell(
                "fib-fanout",
                m("sequential", MetricDescriptor.WALL_MS, 940, 945, 950),
                m("caller-virtual", MetricDescriptor.WALL_MS, 504, 506, 518),
                m("naive-virtual", MetricDescriptor.WALL_MS, 7300, 7500, 9300));
        assertThat(record.contrast().orElseThrow().subject()).isEqualTo("caller-virtual");
        assertThat(record.contrast().orElseThrow().reference()).contains("sequential");
        assertThat(record.speedups())
                .extracting(s -> s.over() + " over " + s.variant())
                .containsExactly("caller-virtual over sequential", "naive-virtual over sequential");
    }

    @Test
    void httpServerIsVirtualsThroughputAgainstItsBound() {
        CellRecord record = cell(
                "http-server",
                m("virtual", MetricDescriptor.THROUGHPUT, 9700, 9750, 9800),
                m("pool:50", MetricDescriptor.THROUGHPUT, 160, 165, 166));
        Contrast contrast = record.contrast().orElseThrow();
        assertThat(contrast.kind()).isEqualTo(Contrast.Kind.EFFICIENCY);
        assertThat(contrast.subject()).isEqualTo("virtual");
        assertThat(contrast.reference()).isEmpty();
        assertThat(contrast.words()).contains("Little's-law bound");
    }

    @Test
    void aCellWithoutTheSubjectOrAnythingToCompareItWithHasNoContrast() {
        assertThat(cell("sleep-bound", m("pool:200", MetricDescriptor.WALL_MS, 1010, 1011, 1012))
                        .contrast())
                .isEmpty();
        assertThat(cell("sleep-bound", m("virtual", MetricDescriptor.WALL_MS, 101, 102, 103))
                        .contrast())
                .isEmpty();
    }

    @Test
    void aUserWorkloadWithoutAHeadlineShowsVirtualOverItsBaseline() {
        Coordinates at = new Coordinates(
                "temurin-21", "hotspot", 21, "linux", BigDecimal.valueOf(2), "all", "auto", "auto", "auto", "my-svc");
        CellRecord record = CellRecord.of(
                at.cellId(),
                at,
                CellStatus.OK,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                List.of(
                        m("platform", MetricDescriptor.WALL_MS, 300, 310, 320),
                        m("tuned", MetricDescriptor.WALL_MS, 200, 210, 220),
                        m("virtual", MetricDescriptor.WALL_MS, 100, 110, 120)),
                CellRecord.Execution.of("local", "test", "t0", "t1", 0, List.of()),
                Optional.of("platform"),
                Optional.empty());
        assertThat(record.contrast())
                .contains(Contrast.over("virtual", "platform", "virtual vs the baseline platform"));
    }

    /** A file written before contrasts existed gets its catalogue contrast (and baseline) when it is read. */
    @Test
    void anOlderFileIsReadWithItsContrast() throws Exception {
        CellRecord written = cell(
                "pinning",
                m("synchronized", MetricDescriptor.WALL_MS, 1650, 1656, 1660),
                m("reentrant-lock", MetricDescriptor.WALL_MS, 158, 160, 163));
        ObjectNode tree = Json.MAPPER.valueToTree(written);
        tree.remove("contrast");
        tree.remove("baseline");
        tree.remove("speedups");
        CellRecord read = ResultsFormat.readCell(Path.of("old.json"), tree);
        assertThat(read.contrast()).isEqualTo(written.contrast());
        assertThat(read.baseline()).contains("reentrant-lock");
        assertThat(read.speedups()).isEqualTo(written.speedups());

        // one that has its speedups keeps them, and gains only the contrast
        ObjectNode withSpeedups = Json.MAPPER.valueToTree(cell(
                "sleep-bound",
                m("virtual", MetricDescriptor.WALL_MS, 101, 102, 103),
                m("pool:200", MetricDescriptor.WALL_MS, 1010, 1011, 1012)));
        withSpeedups.remove("contrast");
        CellRecord sleep = ResultsFormat.readCell(Path.of("old.json"), withSpeedups);
        assertThat(sleep.contrast().orElseThrow().reference()).contains("pool:200");
    }
}
