package dev.loommatrix.runner.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.matrix.ServiceLoad;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.runner.backend.service.Oha;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * oha's reports as the runner reads them, on reports oha 1.16.0 wrote here (fixtures/oha: a closed model of 10
 * users, an open model at 200/s, and a run against a refused port and a 404 path), and the two ways a load run
 * is invalid.
 */
class LoadReportTest {

    static JsonNode fixture(String name) throws Exception {
        return Json.MAPPER.readTree(
                Path.of("src/test/resources/fixtures/oha", name).toFile());
    }

    @Test
    void aClosedModelRunGivesThroughputFromItsAnswersAndMillisecondPercentiles() throws Exception {
        JsonNode json = fixture("closed-10-users.json");
        LoadReport r = LoadReport.of("users=10", Optional.empty(), json, 0.41, 1);
        // 1175 answers in oha's 1.002547063 s; the 10 in flight at the deadline are not answers, not errors
        assertThat(r.answered()).isEqualTo(1175);
        assertThat(r.throughput()).isCloseTo(1175 / 1.002547063, within(1e-9));
        assertThat(r.cutAtDeadline()).isEqualTo(10);
        assertThat(r.errorCount()).isZero();
        assertThat(r.latencyMs().get("99"))
                .isCloseTo(json.at("/latencyPercentiles/p99").asDouble() * 1000, within(1e-9));
        assertThat(r.latencyMs().get("99.9"))
                .isCloseTo(json.at("/latencyPercentiles/p99.9").asDouble() * 1000, within(1e-9));
        assertThat(r.latencyMs().get("100"))
                .isCloseTo(json.at("/summary/slowest").asDouble() * 1000, within(1e-9));
        assertThat(r.latencyMs().keySet()).contains("10", "25", "50", "75", "90", "95", "99", "99.9", "99.99", "100");
        Map<String, Object> m = r.metrics();
        assertThat(m)
                .containsKeys(
                        "throughputPerSecond",
                        "latencyP50Ms",
                        "latencyP90Ms",
                        "latencyP99Ms",
                        "latencyP999Ms",
                        "latencyMaxMs",
                        "errors",
                        "achievedRate",
                        "generatorCpuSeconds",
                        "latencyDistributionMs");
        assertThat(m).doesNotContainKey("askedRate");
        assertThat(r.invalid(ServiceLoad.DEFAULT_MAX_SHORTFALL)).isEmpty();
    }

    @Test
    void errorsAreSortedByKindAndAnHttpErrorStatusIsAnError() throws Exception {
        LoadReport r = LoadReport.of("users=2", Optional.empty(), fixture("refused-and-404.json"), 0.3, 1);
        assertThat(r.errors()).isEqualTo(Map.of("status", 1330L, "connect", 1327L));
        assertThat(r.answered()).isZero();
        assertThat(r.cutAtDeadline()).isEqualTo(2);
        assertThat(r.metrics()).containsEntry("errorsConnect", 1327L).containsEntry("errorsStatus", 1330L);
        assertThat(LoadReport.errorKind("error sending request: operation timed out"))
                .isEqualTo("timeout");
        assertThat(LoadReport.errorKind("connection reset by peer (os error 104)"))
                .isEqualTo("connect");
        assertThat(LoadReport.errorKind("invalid http header")).isEqualTo("other");
    }

    @Test
    void anOpenModelRunShortOfItsRateIsInvalidWithTheFigures() throws Exception {
        JsonNode json = fixture("open-200-per-s.json");
        LoadReport kept = LoadReport.of("rate=200/s", Optional.of(200.0), json, 0.05, 1);
        // 199 answered in 1.006 s: 197.8/s, 1.1 % short — within the default 5 %
        assertThat(kept.achievedRate()).isCloseTo(199 / 1.005900606, within(1e-9));
        // and the one request cut at the window's end was sent: 200 in the window, 198.8/s
        assertThat(kept.sentRate()).isCloseTo(200 / 1.005900606, within(1e-9));
        assertThat(kept.invalid(0.05)).isEmpty();
        // the same run read as if 1,000/s had been asked: 80 % short
        LoadReport shortfall = LoadReport.of("rate=1000/s", Optional.of(1000.0), json, 0.05, 1);
        assertThat(shortfall.invalid(0.05))
                .contains("invalid: at rate=1000/s the generator sent 198.8 requests/s, 80.1 % short of the "
                        + "rate=1000/s asked (more than the 5 % allowed)");
    }

    @Test
    void aGeneratorBusyOnNinetyPercentOfItsCpusIsSaturated() throws Exception {
        JsonNode json = fixture("closed-10-users.json");
        double seconds = json.at("/summary/total").asDouble();
        LoadReport idle = LoadReport.of("users=10", Optional.empty(), json, 0.89 * seconds * 2, 2);
        assertThat(idle.generatorCpuShare()).isCloseTo(0.89, within(1e-9));
        assertThat(idle.invalid(0.05)).isEmpty();
        LoadReport busy = LoadReport.of("users=10", Optional.empty(), json, 0.95 * seconds, 1);
        assertThat(busy.invalid(0.05))
                .contains("invalid: the load generator was saturated at users=10 (0.95 CPU-seconds a second of its 1 "
                        + "CPU, 95 %); its limit, not the service's, was measured");
    }

    @Test
    void ohasCommandLineFollowsTheModel() {
        ServiceLoad closed = new ServiceLoad(
                "POST",
                List.of("/orders"),
                Map.of("Content-Type", "application/json"),
                Optional.of("{}"),
                new ServiceLoad.Closed(3000),
                Duration.ofSeconds(10),
                Duration.ofSeconds(30),
                Optional.of(Duration.ofMillis(2500)),
                0.05);
        assertThat(Oha.arguments(
                        closed,
                        0,
                        "http://s:8080/orders",
                        Optional.empty(),
                        "s:8080",
                        Duration.ofSeconds(30),
                        "/tmp/r",
                        Optional.empty(),
                        false))
                .containsExactly(
                        "--no-tui",
                        "--output-format",
                        "json",
                        "-o",
                        "/tmp/r",
                        "-z",
                        "30s",
                        "-m",
                        "POST",
                        "-c",
                        "3000",
                        "-H",
                        "Content-Type: application/json",
                        "-d",
                        "{}",
                        "-t",
                        "2500ms",
                        "http://s:8080/orders");
        ServiceLoad open = new ServiceLoad(
                "GET",
                List.of("/a", "/b"),
                Map.of(),
                Optional.empty(),
                new ServiceLoad.Open(List.of(100.0, 250.5), 64),
                Duration.ofSeconds(5),
                Duration.ofSeconds(20),
                Optional.empty(),
                0.05);
        // the warmup window waits for what is in flight, so the measured one starts on an idle server
        assertThat(Oha.arguments(
                        open,
                        1,
                        "http://s/a",
                        Optional.of("/tmp/urls"),
                        "s:80",
                        Duration.ofSeconds(5),
                        "/tmp/w",
                        Optional.empty(),
                        true))
                .containsExactly(
                        "--no-tui",
                        "--output-format",
                        "json",
                        "-o",
                        "/tmp/w",
                        "-z",
                        "5s",
                        "-m",
                        "GET",
                        "-w",
                        "-c",
                        "64",
                        "-q",
                        "250.5",
                        "--latency-correction",
                        "--urls-from-file",
                        "/tmp/urls");
        // a team's URLs file names its own host: oha sends that host:port to the cell's server
        ServiceLoad file = new ServiceLoad(
                "GET",
                List.of(),
                Map.of(),
                Optional.empty(),
                new ServiceLoad.Closed(8),
                Duration.ZERO,
                Duration.ofSeconds(20),
                Optional.empty(),
                0.05,
                Optional.of(new ServiceLoad.UrlsFile(Path.of("orders.urls"), "orders:8080", 2)));
        assertThat(Oha.arguments(
                        file,
                        0,
                        "http://10.0.0.2:8080/",
                        Optional.of("/loom/user/1/orders.urls"),
                        "10.0.0.2:8080",
                        Duration.ofSeconds(20),
                        "/tmp/m",
                        Optional.of("/out/measured.db"),
                        false))
                .containsSubsequence(
                        "-c",
                        "8",
                        "--connect-to",
                        "orders:8080:10.0.0.2:8080",
                        "--urls-from-file",
                        "/loom/user/1/orders.urls")
                .containsSubsequence("--db-url", "/out/measured.db")
                .doesNotContain("http://10.0.0.2:8080/");
    }

    @Test
    void theGeneratorScriptsOutputIsReadBack() {
        String printed = "loom-generator-rc 0\n0m0.001s 0m0.002s\n0m1.250s 0m0.310s\nloom-generator-report\n"
                + "{\"summary\": {\"total\": 1.0}}\n\nloom-generator-stderr\nsome warning\n";
        Oha.Output out = Oha.parse(printed);
        assertThat(out.exitCode()).isZero();
        assertThat(out.cpuSeconds()).isCloseTo(1.56, within(1e-9));
        assertThat(out.report()).isPresent();
        assertThat(out.stderr()).isEqualTo("some warning");
        assertThat(Oha.shellTimes("1m2.500s 0m0.500s")).isCloseTo(63.0, within(1e-9));
    }
}
