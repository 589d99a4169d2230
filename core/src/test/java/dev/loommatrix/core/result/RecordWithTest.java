package dev.loommatrix.core.result;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.compare.CompareReport;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The records that used to grow a delegating constructor per field (#50) build through {@code of} and {@code with…}:
 * {@code of} gives what the old short constructor gave, and each {@code with…} changes its own field and no other.
 */
class RecordWithTest {

    private static final Interference WATCHED = new Interference(
            "host /proc/stat",
            250,
            0.5,
            0.9,
            Interference.THRESHOLD_CPUS,
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            List.of(),
            List.of(),
            Optional.of("measured beside 0.5 CPUs of other work"));

    @Test
    void anExecutionIsBuiltFieldByField() {
        CellRecord.Execution plain = CellRecord.Execution.of("local", "hyperfine", "t0", "t1", 42, List.of("virtual"));
        assertThat(plain)
                .isEqualTo(new CellRecord.Execution(
                        "local",
                        "hyperfine",
                        "t0",
                        "t1",
                        42,
                        List.of("virtual"),
                        Optional.empty(),
                        Optional.empty(),
                        List.of(),
                        List.of(),
                        Optional.empty()));
        CellRecord.Beside beside = new CellRecord.Beside("2-3", List.of("other-cell"));
        CellRecord.Attempt attempt = new CellRecord.Attempt(CellStatus.FAILED, Optional.of("exit 1"), "t-1", "t-0");
        CellRecord.Execution full = plain.withFallbackReason(Optional.of("no hyperfine"))
                .withParallel(Optional.of(beside))
                .withEarlierAttempts(List.of(attempt))
                .withLeftBehind(List.of("pid 7"))
                .withInterference(Optional.of(WATCHED));
        assertThat(full)
                .isEqualTo(new CellRecord.Execution(
                        "local",
                        "hyperfine",
                        "t0",
                        "t1",
                        42,
                        List.of("virtual"),
                        Optional.of("no hyperfine"),
                        Optional.of(beside),
                        List.of(attempt),
                        List.of("pid 7"),
                        Optional.of(WATCHED)));
    }

    @Test
    void aHostIsBuiltWithItsTuningOrWithout() {
        RunManifest.Host host = RunManifest.Host.of("Linux", "6.18", "cpu", 2, 1L << 30);
        assertThat(host.tuning()).isEmpty();
        RunManifest.Tuning tuning = new RunManifest.Tuning(
                Optional.of("performance"),
                Optional.of(false),
                Optional.of(true),
                Optional.empty(),
                List.of(),
                List.of());
        assertThat(host.withTuning(tuning))
                .isEqualTo(new RunManifest.Host("Linux", "6.18", "cpu", 2, 1L << 30, Optional.of(tuning)));
    }

    @Test
    void aCompareReportIsBuiltFieldByField() {
        CompareReport bare = CompareReport.of("b", "c", 0.1, 0.05, List.of(), 5);
        assertThat(bare)
                .isEqualTo(new CompareReport(
                        CompareReport.SCHEMA_VERSION,
                        "b",
                        "c",
                        0.1,
                        0.05,
                        List.of(),
                        0,
                        0,
                        List.of(),
                        List.of(),
                        List.of(),
                        5,
                        null,
                        null,
                        List.of(),
                        List.of(),
                        null));
        var unlike = new CompareReport.NotComparable("cell", "virtual", "parameters differ");
        var resolution = new CompareReport.Resolution(3, 0.01, 0.02, 0.05, 6);
        var headline = new CompareReport.Headline(
                "cell", "words", "speedup", "virtual", Optional.of("platform"), Optional.empty(), Optional.empty());
        var disturbed = new CompareReport.Disturbed("cell", "baseline", "measured beside 0.5 CPUs");
        CompareReport full = bare.withUncompared(List.of("x"), List.of("y"), List.of(unlike))
                .withResolution(resolution)
                .withHeadlines(List.of(headline))
                .withDisturbed(List.of(disturbed))
                .withConclusions(new CompareReport.Conclusions(0.1, 2, List.of()));
        assertThat(full)
                .isEqualTo(new CompareReport(
                        CompareReport.SCHEMA_VERSION,
                        "b",
                        "c",
                        0.1,
                        0.05,
                        List.of(),
                        0,
                        0,
                        List.of("x"),
                        List.of("y"),
                        List.of(unlike),
                        5,
                        resolution,
                        null,
                        List.of(headline),
                        List.of(disturbed),
                        new CompareReport.Conclusions(0.1, 2, List.of())));
    }
}
