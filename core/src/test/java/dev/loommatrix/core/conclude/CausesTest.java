package dev.loommatrix.core.conclude;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The causes each known cell measured, and none it did not. */
class CausesTest {

    static List<Cause> causes(String file) throws Exception {
        List<Finding> findings = Findings.of(FindingsTest.cell(file), 0.10);
        assertThat(findings).hasSize(1);
        return findings.get(0).causes();
    }

    @Test
    void pinningOnJdk21IsNamedWithItsCountTimeAndFrame() throws Exception {
        List<Cause> causes = causes("golden/cell-pinning-21-profiled.json");
        assertThat(causes).extracting(Cause::kind).contains(Cause.Kind.PINNING);
        Cause pinning = causes.stream()
                .filter(c -> c.kind() == Cause.Kind.PINNING)
                .findFirst()
                .orElseThrow();
        // the cell's JFR summary: 64 pinned parks, 3,211.8 ms, all at Pinning.sleep:201; none under reentrant-lock
        assertThat(pinning.variant()).isEqualTo("synchronized");
        assertThat(pinning.evidence()).isEqualTo("jfr");
        assertThat(pinning.words())
                .isEqualTo("pinning: in synchronized, virtual threads parked pinned to their carrier 64 times,"
                        + " 3,212 ms in all, at `Pinning.sleep:201` (64)");
        assertThat(causes).filteredOn(c -> c.kind() == Cause.Kind.PINNING).hasSize(1);
    }

    @Test
    void jdk25DoesNotPinAndNothingIsClaimed() throws Exception {
        List<Cause> causes = causes("golden/cell-pinning-25-profiled.json");
        assertThat(causes).extracting(Cause::kind).doesNotContain(Cause.Kind.PINNING, Cause.Kind.UNMEASURED);
    }

    @Test
    void unprofiledPinningOn21IsNamedFromTheForksOwnCount() throws Exception {
        // no profile, but every fork counted its pinned parks: synchronized 48 in each of 3 forks, 2,404 ms (median
        // 2,404.38), at Pinning.sleep; reentrant-lock none — the cause is measured, "profile the cell" is not said
        List<Cause> causes = causes("golden/cell-pinning-21.json");
        assertThat(causes).extracting(Cause::kind).containsExactly(Cause.Kind.PINNING);
        assertThat(causes.get(0).variant()).isEqualTo("synchronized");
        assertThat(causes.get(0).evidence()).isEqualTo("measurements");
        assertThat(causes.get(0).words())
                .isEqualTo("pinning: in synchronized, virtual threads parked pinned to their carrier 48 times, 2,404 ms"
                        + " in all, at `dev.loommatrix.harness.workload.Pinning.sleep` (48) — the forks' own count,"
                        + " the median of 3");
    }

    @Test
    void aCellWithNothingCountedThatHurtsSaysWhatWouldTell() throws Exception {
        // the same cell with the forks' pinning counts taken out: nothing measured says why, so it says what would
        var tree = (com.fasterxml.jackson.databind.node.ObjectNode) dev.loommatrix.core.result.Json.MAPPER.readTree(
                FindingsTest.RECORDS.resolve("golden/cell-pinning-21.json").toFile());
        tree.withArray("measurements").forEach(m -> m.withArray("samples").forEach(x -> {
            ((com.fasterxml.jackson.databind.node.ObjectNode) x)
                    .remove(List.of("pinnedEvents", "pinnedMs", "pinnedAt"));
        }));
        var cell = dev.loommatrix.core.result.ResultsFormat.readCell(
                FindingsTest.RECORDS.resolve("golden/cell-pinning-21.json"), tree);
        List<Cause> causes = Findings.of(cell, 0.10).get(0).causes();
        assertThat(causes).extracting(Cause::kind).containsExactly(Cause.Kind.UNMEASURED);
        assertThat(causes.get(0).words()).contains("`profiling: {jfr: true}`");
    }

    @Test
    void threadLocalsRebuiltForEveryTaskAreSaidFromTheForksAllocation() throws Exception {
        // a real thread-local cell (debian-21, 2 CPUs): virtual allocated 66,851 B a task against pool:cpus's 270 B,
        // collected 76 times against 1, and built its per-thread objects 1,000 times against 2
        List<Cause> causes = causes("fixtures/records/thread-local-debian-21.json");
        assertThat(causes)
                .filteredOn(c -> c.kind() == Cause.Kind.GC)
                .singleElement()
                .satisfies(c -> assertThat(c.words())
                        .startsWith("allocation: virtual allocated 65.")
                        .contains("a task against pool:cpus's 2")
                        .contains("built its per-thread objects 1,000 times against 2"));
        assertThat(causes).extracting(Cause::kind).doesNotContain(Cause.Kind.UNMEASURED);
    }

    @Test
    void aSubMillisecondSequentialRunIsTooSmallToTell() throws Exception {
        // fib-fanout at the quick scale: sequential takes 0.517 ms, so threads' start-up is the cost measured
        List<Cause> causes = causes("golden/cell-fib-fanout.json");
        assertThat(causes)
                .filteredOn(c -> c.kind() == Cause.Kind.TOO_SMALL)
                .extracting(Cause::variant)
                .containsExactly("sequential");
        assertThat(causes.get(0).words()).contains("0.52 ms a run");
    }

    @Test
    void aPoolAtItsLittlesLawBoundIsPoolBound() throws Exception {
        // sleep-bound: 1000 tasks × 50 ms on 100 threads take at least 500 ms; pool:100 took 570 ms (87.7 %)
        List<Cause> causes = causes("golden/cell-sleep-bound.json");
        assertThat(causes).extracting(Cause::kind).containsExactly(Cause.Kind.POOL_BOUND);
        assertThat(causes.get(0).words()).contains("at least 500 ms").contains("it took 570 ms");
    }

    @Test
    void aProfiledCellWithoutPinningOrGcDifferenceClaimsNeither() throws Exception {
        // fib-fanout with flame graphs: neither side pinned; GC 2.0 ms against 3.5 ms is no cause
        List<Cause> causes = causes("golden/cell-fib-fanout-flame.json");
        assertThat(causes).extracting(Cause::kind).doesNotContain(Cause.Kind.PINNING, Cause.Kind.GC);
    }

    @Test
    void collectorsAreNamedAsUsersKnowThem() {
        assertThat(Causes.collector(List.of("Copy", "MarkSweepCompact"))).isEqualTo("Serial");
        assertThat(Causes.collector(List.of("G1 Young Generation", "G1 Concurrent GC", "G1 Old Generation")))
                .isEqualTo("G1");
        assertThat(Causes.collector(List.of("PS Scavenge", "PS MarkSweep"))).isEqualTo("Parallel");
        assertThat(Causes.collector(List.of("ZGC Cycles", "ZGC Pauses"))).isEqualTo("ZGC");
    }

    @Test
    void aServicePoolAtItsLittlesLawBoundIsSaidWithTheNumbersThatShowIt() throws Exception {
        // the Spring cell at 100 users: virtual's median request 302.3 ms (the least queued); tomcat-20 served 65.0
        // req/s — its 20 threads carry at most 20 / 0.3023 s = 66 req/s, so the pool's size, not the threads' kind,
        // set its number
        List<Cause> causes = causes("golden/cell-spring-service.json");
        assertThat(causes)
                .filteredOn(c -> c.kind() == Cause.Kind.POOL_BOUND)
                .singleElement()
                .satisfies(c -> {
                    assertThat(c.variant()).isEqualTo("tomcat-20");
                    assertThat(c.words())
                            .startsWith("pool-bound: tomcat-20's 20 threads (its size by its name) serve at most 66"
                                    + " req/s when a request takes 302 ms (virtual's median")
                            .contains("it served 65 req/s");
                });
        // virtual is no pool: nothing said of it
        assertThat(causes).extracting(Cause::variant).doesNotContain("virtual");
    }

    @Test
    void aBuiltInServicePoolIsBoundByItsOwnRecordedBoundNotAnEstimate() throws Exception {
        // a real http-server cell (debian-21, 2 CPUs): pool:50 records its Little's-law bound, 1,000 req/s (50
        // threads ÷ its 50 ms handler), and served 885 / 1,000 / 959 of it; virtual's median request took 96 ms,
        // which would have "bounded" it at 521 req/s — the workload's own bound is used, never that estimate
        List<Cause> causes = causes("fixtures/records/http-server-debian-21.json");
        assertThat(causes)
                .filteredOn(c -> c.kind() == Cause.Kind.POOL_BOUND)
                .singleElement()
                .satisfies(c -> assertThat(c.words())
                        .isEqualTo("pool-bound: pool:50's 50 threads serve at most 1,000 req/s (its threads ÷ the"
                                + " handler's time), and it served 959 req/s, 96 % of that — its size capped it, so a"
                                + " larger pool is the fairer comparison"));
    }

    @Test
    void aFootprintSaysWhatAThreadCostsEachSide() throws Exception {
        // a real footprint cell (debian-21, 2 CPUs): virtual threads added 3,817-3,891 B resident each, platform
        // threads 39,385-40,974 B; the medians are 3,870.7 and 39,422 B
        List<Cause> causes = causes("fixtures/records/footprint-debian-21.json");
        assertThat(causes)
                .filteredOn(c -> c.kind() == Cause.Kind.MEMORY)
                .singleElement()
                .satisfies(c -> assertThat(c.words())
                        .startsWith("memory: each thread added 3.8 KiB resident in virtual, 38.5 KiB in platform"));
    }
}
