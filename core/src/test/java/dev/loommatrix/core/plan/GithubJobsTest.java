package dev.loommatrix.core.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommatrix.core.testing.TestMatrices;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class GithubJobsTest {

    /** 3 JDKs × 2 OSes × 4 CPU limits × 3 workloads = 72 cells, in 1 Linux and 3 Windows set-ups. */
    static final String MATRIX =
            """
            schema: 1
            jdks:
              - {id: t21, vm: hotspot, version: 21, setup-java: {distribution: temurin, java-version: "21"}}
              - {id: t25, vm: hotspot, version: 25, setup-java: {distribution: temurin, java-version: "25"}}
              - {id: s21, vm: openj9, version: 21, setup-java: {distribution: semeru, java-version: "21"}}
            os: [linux, windows]
            cpus: [1, 2, 4, 8]
            workloads:
              - {id: sleep-bound, variants: [virtual, "pool:200"]}
              - {id: mass-start, variants: [virtual, platform]}
              - {id: fib-fanout, variants: [sequential, naive-virtual]}
            timeout: 10m
            """;

    @Test
    void oneJobPerCellWhileThatFits() throws Exception {
        List<Cell> plan = TestMatrices.plan(MATRIX);
        List<GithubJobs.Job> jobs = GithubJobs.of(plan, 256);
        assertThat(jobs).hasSize(72);
        assertThat(jobs).allSatisfy(job -> assertThat(job.cells()).hasSize(1));
        assertThat(jobs.get(0).name()).isEqualTo(plan.get(0).id());
        assertThat(jobs.get(0).timeoutMinutes()).isEqualTo(GithubJobs.SETUP_MINUTES + 10);
        GithubJobs.Job windows =
                jobs.stream().filter(j -> j.os().equals("windows")).findFirst().orElseThrow();
        assertThat(windows.runsOn()).isEqualTo("windows-latest");
        assertThat(windows.distribution()).isEqualTo("temurin");
        assertThat(jobs.get(0).distribution())
                .as("linux cells bring their JDK in the image")
                .isEmpty();
    }

    /** A JDK entry's runsOn picks the runner (a self-hosted benchmark machine), per OS or for all. */
    @Test
    void aJdkEntryNamesItsRunners() throws Exception {
        List<Cell> plan = TestMatrices.plan(MATRIX.replace(
                        "{id: t21, vm: hotspot, version: 21,",
                        "{id: t21, vm: hotspot, version: 21, runsOn: {linux: perf-box},")
                .replace(
                        "{id: t25, vm: hotspot, version: 25,",
                        "{id: t25, vm: hotspot, version: 25, runsOn: bench-all,"));
        var runners = GithubJobs.of(plan, 256).stream()
                .collect(Collectors.groupingBy(
                        j -> j.name().split("\\.")[0] + "." + j.os(),
                        Collectors.mapping(GithubJobs.Job::runsOn, Collectors.toSet())));
        assertThat(runners.get("t21.linux")).containsExactly("perf-box");
        assertThat(runners.get("t21.windows")).containsExactly("windows-latest");
        assertThat(runners.get("t25.linux")).containsExactly("bench-all");
        assertThat(runners.get("t25.windows")).containsExactly("bench-all");
        assertThat(runners.get("s21.linux")).containsExactly("ubuntu-latest");

        // the caller's runner per OS (the reusable workflow's inputs) fills in where the entry names none
        var called =
                GithubJobs.of(plan, 256, java.util.Map.of("linux", "ubuntu-24.04-arm", "windows", "win-perf")).stream()
                        .collect(Collectors.groupingBy(
                                j -> j.name().split("\\.")[0] + "." + j.os(),
                                Collectors.mapping(GithubJobs.Job::runsOn, Collectors.toSet())));
        assertThat(called.get("t21.linux")).containsExactly("perf-box");
        assertThat(called.get("t21.windows")).containsExactly("win-perf");
        assertThat(called.get("t25.linux")).containsExactly("bench-all");
        assertThat(called.get("s21.linux")).containsExactly("ubuntu-24.04-arm");
    }

    @Test
    void shardsPartitionThePlanWithinTheJobLimitAndNeverMixSetups() throws Exception {
        List<Cell> plan = TestMatrices.plan(MATRIX);
        for (int maxJobs : List.of(4, 5, 7, 13, 40, 71)) {
            List<GithubJobs.Job> jobs = GithubJobs.of(plan, maxJobs);
            assertThat(jobs).as("max %d", maxJobs).hasSize(maxJobs);
            List<String> ran = new ArrayList<>();
            for (GithubJobs.Job job : jobs) {
                assertThat(job.cells()).isNotEmpty();
                // a Linux job runs any JDK's cells (each in its image); a Windows job only the JDK it set up
                assertThat(job.cells().stream()
                                .map(c -> c.coordinates().os()
                                        + (job.os().equals("windows")
                                                ? "/" + c.jdk().setupJava()
                                                : ""))
                                .collect(Collectors.toSet()))
                        .as("one set-up per job: %s", job.name())
                        .hasSize(1);
                assertThat(job.cells()).isSortedAccordingTo((a, b) -> plan.indexOf(a) - plan.indexOf(b));
                job.cells().forEach(c -> ran.add(c.id()));
            }
            assertThat(ran).as("every cell exactly once").hasSameSizeAs(plan);
            assertThat(Set.copyOf(ran)).isEqualTo(plan.stream().map(Cell::id).collect(Collectors.toSet()));
        }
    }

    @Test
    void spareJobsGoWhereTheWorkIs() throws Exception {
        List<Cell> plan = TestMatrices.plan(MATRIX);
        List<GithubJobs.Job> jobs = GithubJobs.of(plan, 40);
        // linux has 3 JDKs' worth of cells, each windows set-up one JDK's: linux gets about 3× the jobs
        long linux = jobs.stream().filter(j -> j.os().equals("linux")).count();
        assertThat(linux).isBetween(16L, 24L);
        double slowest =
                jobs.stream().mapToDouble(GithubJobs.Job::estimateMs).max().orElseThrow();
        double total = plan.stream().mapToDouble(CostModel::estimateMs).sum();
        assertThat(slowest).as("no job far beyond an even share").isLessThan(3 * total / 40);
    }

    @Test
    void tooManySetupsForTheLimitIsAUsageError() throws Exception {
        List<Cell> plan = TestMatrices.plan(MATRIX);
        assertThatThrownBy(() -> GithubJobs.of(plan, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("72 cells need 4 different runner and JDK set-ups, more than --max-jobs 3");
        assertThatThrownBy(() -> GithubJobs.of(plan, 0)).hasMessageContaining("at least 1");
    }

    @Test
    void aJobsTimeoutCoversItsCellsButNotBeyondTheHostedLimit() throws Exception {
        List<GithubJobs.Job> jobs = GithubJobs.of(TestMatrices.plan(MATRIX), 4);
        GithubJobs.Job linux = jobs.get(0);
        assertThat(linux.cells()).hasSize(36);
        assertThat(linux.timeoutMinutes()).isEqualTo(GithubJobs.HOSTED_JOB_LIMIT_MINUTES);
        GithubJobs.Job windows = jobs.get(1);
        assertThat(windows.timeoutMinutes()).isEqualTo(Math.min(360, GithubJobs.SETUP_MINUTES + 12 * 10));
    }
}
