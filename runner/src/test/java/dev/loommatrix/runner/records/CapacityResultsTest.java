package dev.loommatrix.runner.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.capacity.CapacityResult;
import dev.loommatrix.core.capacity.CapacitySearch;
import dev.loommatrix.core.capacity.CapacitySearch.Verdict;
import dev.loommatrix.core.matrix.ServiceLoad;
import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.core.result.Sample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A capacity search's repetition as results (issue #52): one sample judged by its capacity, its tried levels and
 * why kept beside it, what limited it said, a search that found none saying so as the variant's problem; and a
 * repetition's two server JVMs read as one run.
 */
class CapacityResultsTest {

    private static final ServiceLoad.Objective OBJECTIVE = new ServiceLoad.Objective(Map.of("99", 500.0), 0.001);

    @Test
    void aBracketedSearchIsOneSampleWithItsCapacityTheValidationsFiguresAndEveryTriedWindow() {
        CapacityResult found = new CapacityResult(
                CapacityResult.Outcome.BRACKETED,
                Optional.of(300.0),
                Optional.of(320.0),
                "it met the objective at rate=300/s, again on a fresh server, and not at rate=320/s",
                List.of(
                        step(200, Verdict.PASS, false),
                        step(400, Verdict.FAIL, false),
                        step(300, Verdict.PASS, false),
                        step(320, Verdict.FAIL, false),
                        step(300, Verdict.PASS, true)));
        LoadLine line = new LoadLine(
                0,
                List.of(
                        report(200, false, 120, Map.of()),
                        report(400, false, 2400, Map.of("timeout", 40L)),
                        report(300, false, 180, Map.of()),
                        report(320, false, 900, Map.of("timeout", 2L, "connect", 3L)),
                        report(300, true, 170, Map.of())),
                Optional.of(new CapacityLine(
                        found, 2, Map.of("rate=300/s on a fresh server", 1.9 * 10, "rate=320/s", 1.95 * 10))));
        BenchmarkSeries out = new BenchmarkSeries();
        // a pool whose Little's-law bound is 320/s, on 2 CPUs it kept 95 % busy
        ServiceResults.add(service(Map.of("tomcat-64", 320.0)), "tomcat-64", line, 0, Map.of(), 2, out);

        assertThat(out.problems()).isEmpty();
        BenchmarkSeries.Series series = out.all().iterator().next();
        assertThat(series.metric()).isEqualTo(ServiceLoad.CAPACITY);
        assertThat(series.benchmark().params()).containsEntry("load", "capacity at p99 ≤ 500 ms, errors ≤ 0.1 %");
        Sample sample = series.samples().getFirst();
        assertThat(sample.metric("capacityPerSecond")).contains(300.0);
        assertThat(sample.metric("capacityFirstFailingPerSecond")).contains(320.0);
        // the service at its capacity: the validation window's p99, not the search's
        assertThat(sample.metric("latencyP99Ms")).contains(170.0);
        assertThat(sample.metric("serverCpuShareAtCapacity"))
                .hasValueSatisfying(s -> assertThat(s).isCloseTo(0.95, org.assertj.core.data.Offset.offset(1e-9)));
        assertThat(sample.facts())
                .containsEntry("capacityOutcome", "bracketed")
                .containsEntry(
                        "capacityLimitedBy",
                        "the CPU: the server used 95 % of its 2 CPUs at the capacity; the pool: threads ÷ handler "
                                + "time bound it at 320 requests/s (Little's law); errors at rate=320/s: 3 connect, "
                                + "2 timeout");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> tried =
                (List<Map<String, Object>>) sample.facts().get("capacityTried");
        assertThat(tried).extracting(t -> t.get("rate")).containsExactly(200.0, 400.0, 300.0, 320.0, 300.0);
        assertThat(tried).extracting(t -> t.get("verdict")).containsExactly("pass", "fail", "pass", "fail", "pass");
        assertThat(tried.get(1))
                .containsEntry("latencyP99Ms", 2400.0)
                .containsEntry("errors", Map.of("timeout", 40L))
                .containsEntry("achievedRate", 400.0);
        assertThat(tried.getLast()).containsEntry("validation", true).containsKey("serverCpuShare");
    }

    @Test
    void aSearchTheGeneratorLimitedIsInvalidAndOneThatFailedIsAProblemNeitherGivesACapacity() {
        for (var outcome : List.of(CapacityResult.Outcome.GENERATOR_LIMITED, CapacityResult.Outcome.FAILED)) {
            CapacityResult result = new CapacityResult(
                    outcome,
                    Optional.empty(),
                    Optional.empty(),
                    "the generator could not offer rate=400/s (its 1 CPU were 97 % busy)",
                    List.of(step(400, Verdict.GENERATOR_LIMITED, false)));
            LoadLine line = new LoadLine(
                    1, List.of(report(400, false, 3, Map.of())), Optional.of(new CapacityLine(result, 1, Map.of())));
            BenchmarkSeries out = new BenchmarkSeries();
            ServiceResults.add(service(Map.of()), "virtual", line, 1, Map.of(), 1, out);
            assertThat(out.problems())
                    .singleElement()
                    .isEqualTo((outcome == CapacityResult.Outcome.GENERATOR_LIMITED ? "invalid: " : "")
                            + "run 2: the capacity search found none (" + outcome.words()
                            + "): the generator could not "
                            + "offer rate=400/s (its 1 CPU were 97 % busy)");
            Sample sample = out.all().iterator().next().samples().getFirst();
            assertThat(sample.metric("capacityPerSecond")).isEmpty();
            assertThat(sample.facts()).containsEntry("capacityOutcome", outcome.words());
        }
    }

    @Test
    void aRepetitionsSearchAndValidationServersAreOneRunAndTheLineReadsBack(@TempDir Path dir) throws Exception {
        // run 0 searched and validated (two servers), run 1 failed before any validation (one)
        String agent = "{\"schemaVersion\": 1, \"kind\": \"agent\", \"pid\": %d, \"variant\": \"virtual\","
                + " \"command\": \"app.Main\", \"metrics\": {\"cpuMs\": %d.0}}";
        Files.write(
                dir.resolve("virtual.records.jsonl"),
                List.of(agent.formatted(1, 10), agent.formatted(2, 20), agent.formatted(3, 30)));
        CapacityResult validated = new CapacityResult(
                CapacityResult.Outcome.LOWER_BOUND,
                Optional.of(800.0),
                Optional.empty(),
                "it met the objective at the top of the range searched, rate=800/s: it carries at least this",
                List.of(step(800, Verdict.PASS, false), step(800, Verdict.PASS, true)));
        CapacityResult failed = new CapacityResult(
                CapacityResult.Outcome.FAILED,
                Optional.empty(),
                Optional.empty(),
                "it did not meet the objective even at the lowest rate searched, rate=800/s: p99 900 ms > 500 ms",
                List.of(step(800, Verdict.FAIL, false)));
        var writer = Json.MAPPER.writer().without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT);
        Files.write(
                dir.resolve(LoadLine.file("virtual")),
                List.of(
                        writer.writeValueAsString(new LoadLine(
                                0,
                                List.of(report(800, false, 100, Map.of()), report(800, true, 90, Map.of())),
                                Optional.of(new CapacityLine(validated, 2, Map.of("rate=800/s", 3.5))))),
                        writer.writeValueAsString(new LoadLine(
                                1,
                                List.of(report(800, false, 900, Map.of())),
                                Optional.of(new CapacityLine(failed, 1, Map.of()))))));
        VariantRuns runs = AgentLines.read(dir, "virtual", 0);
        assertThat(runs.runs()).hasSize(2);
        assertThat(runs.runs().get(0).host().pid())
                .as("the validation's server")
                .isEqualTo(2);
        assertThat(runs.runs().get(0).forks()).extracting(AgentRecord::pid).containsExactly(1L);
        assertThat(runs.runs().get(1).host().pid()).isEqualTo(3);
        assertThat(runs.runs().get(1).forks()).isEmpty();
        assertThat(AgentLines.environments(List.of(runs)))
                .as("no environment in these records")
                .isEmpty();
        assertThat(runs.loads().get(0).capacity().orElseThrow().result()).isEqualTo(validated);
        assertThat(runs.loads().get(1).capacity().orElseThrow().serverCpuSeconds())
                .isEmpty();
        // after a warmup repetition, the measured one is still the right pair of servers
        VariantRuns measured = AgentLines.read(dir, "virtual", 1);
        assertThat(measured.runs())
                .singleElement()
                .satisfies(r -> assertThat(r.host().pid()).isEqualTo(3));
    }

    private static CapacitySearch.Step step(double rate, Verdict verdict, boolean validation) {
        return new CapacitySearch.Step(rate, verdict, verdict.name().toLowerCase(java.util.Locale.ROOT), validation);
    }

    /** A 10 s window at the rate, every request answered or failed, with this p99. */
    private static LoadReport report(double rate, boolean validation, double p99, Map<String, Long> errors) {
        long failed = errors.values().stream().mapToLong(Long::longValue).sum();
        return new LoadReport(
                CapacityLine.level(rate, validation),
                Optional.of(rate),
                10,
                (long) (rate * 10) - failed,
                Map.of("50", p99 / 2, "99", p99, "99.9", p99 * 1.2, "100", p99 * 1.5),
                errors,
                0,
                1.0,
                1,
                Optional.empty());
    }

    private static UserWorkload.Service service(Map<String, Double> bounds) {
        return new UserWorkload.Service(
                Optional.of(Path.of("app.jar")),
                List.of(),
                Optional.empty(),
                List.of(),
                Map.of(),
                8080,
                new UserWorkload.Readiness.Tcp(),
                Duration.ofSeconds(60),
                new ServiceLoad(
                        "GET",
                        List.of("/work"),
                        Map.of(),
                        Optional.empty(),
                        new ServiceLoad.Capacity(OBJECTIVE, 100, 800, 0.1, 256),
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(10),
                        Optional.empty(),
                        ServiceLoad.DEFAULT_MAX_SHORTFALL),
                bounds);
    }
}
