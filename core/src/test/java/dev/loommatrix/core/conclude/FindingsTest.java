package dev.loommatrix.core.conclude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.ResultsFormat;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Cells whose truth is known, concluded: the runner's golden cell records (built-in workloads measured on JDK 21 and
 * 25, a user's JMH suite, a service) and a disturbed one.
 */
class FindingsTest {

    static final Path RECORDS = Path.of("../runner/src/test/resources");

    static CellRecord cell(String file) throws Exception {
        Path path = RECORDS.resolve(file);
        return ResultsFormat.readCell(path, Json.MAPPER.readTree(path.toFile()));
    }

    static Finding only(String file) throws Exception {
        List<Finding> findings = Findings.of(cell(file), 0.10);
        assertThat(findings).hasSize(1);
        return findings.get(0);
    }

    @Test
    void sleepBoundPaysOffOverTheFastestPool() throws Exception {
        Finding f = only("golden/cell-sleep-bound.json");
        assertThat(f.conclusion()).isEqualTo(Conclusion.PAYS_OFF);
        assertThat(f.headline().orElseThrow().subject()).isEqualTo("virtual");
        assertThat(f.headline().orElseThrow().reference()).isEqualTo("pool:100");
        assertThat(f.headline().orElseThrow().low()).isGreaterThan(1.1);
        assertThat(f.overBest()).isEmpty(); // the headline's reference is the fastest other
    }

    @Test
    void pinningHurtsOnJdk21AndMakesNoDifferenceOn25() throws Exception {
        Finding on21 = only("golden/cell-pinning-21.json");
        Finding on25 = only("golden/cell-pinning-25.json");
        assertThat(on21.coordinates().version()).isEqualTo(21);
        assertThat(on21.conclusion()).isEqualTo(Conclusion.HURTS);
        assertThat(on21.headline().orElseThrow().ratio()).isBetween(0.12, 0.13);
        assertThat(on25.coordinates().version()).isEqualTo(25);
        assertThat(on25.conclusion()).isEqualTo(Conclusion.NO_DIFFERENCE);
    }

    @Test
    void fibFanoutDoesNotPayOff() throws Exception {
        Finding f = only("golden/cell-fib-fanout.json");
        assertThat(f.conclusion()).isEqualTo(Conclusion.HURTS);
        // the best alternative to sequential is caller-virtual itself; naive-virtual is worse still
        assertThat(f.headline().orElseThrow().subject()).isEqualTo("caller-virtual");
    }

    @Test
    void aSkippedCellConcludesNothing() throws Exception {
        // a cell this host could not run (no such JDK) is neither evidence nor a fault
        CellRecord skipped = FindingsTest.cell("golden/cell-sleep-bound.json");
        skipped = new CellRecord(
                skipped.schemaVersion(),
                skipped.cellId(),
                skipped.coordinates(),
                dev.loommatrix.core.result.CellStatus.SKIPPED,
                java.util.Optional.of("no openj9 JDK 25 on this host"),
                java.util.Optional.empty(),
                java.util.Optional.empty(),
                List.of(),
                skipped.execution(),
                List.of(),
                java.util.Optional.empty(),
                java.util.Optional.empty(),
                List.of());
        assertThat(Findings.of(skipped, 0.10)).isEmpty();
    }

    @Test
    void aDisturbedCellIsNotEvidence() throws Exception {
        Finding f = only("fixtures/records/sleep-bound-disturbed.json");
        assertThat(f.conclusion()).isEqualTo(Conclusion.NOT_VALID);
        assertThat(f.why().orElseThrow()).startsWith("disturbed: measured beside 0.71 CPUs");
        assertThat(f.headline()).isEmpty();
    }

    @Test
    void aUsersBenchmarkIsConcludedPerBenchmark() throws Exception {
        List<Finding> findings = Findings.of(cell("golden/cell-jmh-blocking.json"), 0.10);
        assertThat(findings).isNotEmpty();
        assertThat(findings).allSatisfy(f -> assertThat(f.benchmark()).isPresent());
        assertThat(findings.get(0).headline().orElseThrow().subject()).isEqualTo("virtual");
    }

    @Test
    void aServiceAtTwoThirdsCoverageStillPaysOffWhenItsIntervalSaysSo() throws Exception {
        Finding f = only("golden/cell-spring-service.json");
        assertThat(f.conclusion()).isEqualTo(Conclusion.PAYS_OFF);
        assertThat(f.headline().orElseThrow().level())
                .hasValueSatisfying(l -> assertThat(l).isLessThan(0.9));
    }

    @Test
    void aServiceIsJudgedOnItsTailLatencyAsWellAsItsThroughput() throws Exception {
        // the Spring cell: virtual's p99 384.8 ms-ish against tomcat-20's queueing pool, lower is better
        Finding f = only("golden/cell-spring-service.json");
        Finding.Contrasted tail = f.tail().orElseThrow();
        assertThat(tail.metric()).isEqualTo("latencyP99Ms");
        assertThat(tail.subject()).isEqualTo("virtual");
        assertThat(tail.reference()).isEqualTo("tomcat-20");
        double virtualP99 = FindingsTest.cell("golden/cell-spring-service.json").measurements().stream()
                .filter(m -> m.variant().equals("virtual"))
                .findFirst()
                .orElseThrow()
                .medianOf("latencyP99Ms")
                .orElseThrow();
        double poolP99 = FindingsTest.cell("golden/cell-spring-service.json").measurements().stream()
                .filter(m -> m.variant().equals("tomcat-20"))
                .findFirst()
                .orElseThrow()
                .medianOf("latencyP99Ms")
                .orElseThrow();
        assertThat(tail.ratio()).isCloseTo(poolP99 / virtualP99, org.assertj.core.data.Offset.offset(1e-9));
        // a built-in workload judged on its time has no tail, even where it records latencies of its own
        assertThat(only("golden/cell-sleep-bound.json").tail()).isEmpty();
        assertThat(only("golden/cell-fib-fanout.json").tail()).isEmpty();
    }

    @Test
    void anEfficiencyHeadlineIsStillConcludedAgainstTheBestOther() throws Exception {
        // http-server's headline is virtual's efficiency against its bound; the conclusion is virtual against the
        // best other variant it measured: pool:50, 3.1× [3.0, 3.5]
        Finding f = only("golden/cell-http-server.json");
        assertThat(f.conclusion()).isEqualTo(Conclusion.PAYS_OFF);
        Finding.Contrasted deciding = f.overBest().or(f::headline).orElseThrow();
        assertThat(deciding.subject()).isEqualTo("virtual");
        assertThat(deciding.reference()).isEqualTo("pool:50");
    }

    @Test
    void aFootprintWhoseResidentMemoryFellCannotTellAndSaysWhatItMeasured() throws Exception {
        // a real footprint cell (2,000 threads, JDK 25, local backend): virtual's resident memory fell in all three
        // repetitions; platform threads added 35 KiB resident each
        Finding f = only("fixtures/records/footprint-rss-fell.json");
        assertThat(f.conclusion()).isEqualTo(Conclusion.CANNOT_TELL);
        assertThat(f.headline()).isEmpty();
        assertThat(f.why().orElseThrow())
                .startsWith("resident memory fell while the threads were started in virtual (3 of 3 repetitions)")
                .contains("virtual 2.3 KiB of heap a thread")
                .contains("platform 35.3 KiB resident a thread")
                .endsWith("more threads — the built-in default is 100,000 — would tell");
    }

    @Test
    void aVariantFarFromTheSubjectIsSaidWhereTheSubjectDoesNotPayOff() throws Exception {
        // JDK 25: synchronized no longer pins (no difference against reentrant-lock), but class initialisation still
        // does — class-init took 404 ms where synchronized took 51; object-wait (51 ms) is within the band, unsaid
        CellRecord cell = cell("golden/cell-pinning-25.json");
        Finding f = only("golden/cell-pinning-25.json");
        assertThat(f.conclusion()).isEqualTo(Conclusion.NO_DIFFERENCE);
        assertThat(f.others()).singleElement().satisfies(o -> {
            assertThat(o.subject()).isEqualTo("class-init");
            assertThat(o.reference()).isEqualTo("synchronized");
            assertThat(o.conclusion()).isEqualTo(Conclusion.HURTS);
            double classInit = cell.measurement("class-init", "")
                    .orElseThrow()
                    .medianOf("wallMs")
                    .orElseThrow();
            double sync = cell.measurement("synchronized", "")
                    .orElseThrow()
                    .medianOf("wallMs")
                    .orElseThrow();
            assertThat(o.ratio()).isCloseTo(sync / classInit, org.assertj.core.data.Offset.offset(1e-9));
            assertThat(o.ratio()).isBetween(0.12, 0.13);
        });
        // where the subject pays off over the best other, the rest are worse by construction: nothing to add
        assertThat(only("golden/cell-sleep-bound.json").others()).isEmpty();
        // fib-fanout's naive-virtual stops at 10 of its 50 calls (a budget, by design): its time is of a fifth of the
        // work, and no ratio with it is said although it is far from caller-virtual
        Finding fib = only("golden/cell-fib-fanout.json");
        assertThat(fib.conclusion()).isEqualTo(Conclusion.HURTS);
        assertThat(fib.others()).extracting(Finding.Contrasted::subject).doesNotContain("naive-virtual");
    }
}
