package dev.loommatrix.core.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A plan as GitHub Actions jobs (`strategy.matrix.include`): one job per cell while that fits the
 * matrix's job limit, else balanced shards. A job needs one kind of runner and, for cells run on the
 * host (Windows), one JDK installed by actions/setup-java, so shards never mix those: cells are
 * grouped by what their job must set up, and each group is split into shards balanced by estimated
 * run time. Every planned cell is in exactly one job.
 */
public final class GithubJobs {

    /** GitHub's limit: "A matrix can generate a maximum of 256 jobs per workflow run." */
    public static final int MAX_JOBS_PER_MATRIX = 256;

    /** Checkout, JDK set-up, the build and the cell image, before the first cell starts. */
    static final int SETUP_MINUTES = 20;

    /** GitHub-hosted runners end every job after six hours. */
    static final int HOSTED_JOB_LIMIT_MINUTES = 360;

    /**
     * One job: its cells, and what the job sets up for them. {@code distribution} and {@code
     * javaVersion} are empty when the job runs its cells in containers (the image brings the JDK).
     */
    public record Job(
            String name,
            String runsOn,
            String os,
            String distribution,
            String javaVersion,
            List<Cell> cells,
            int timeoutMinutes) {

        public double estimateMs() {
            return cells.stream().mapToDouble(CostModel::estimateMs).sum();
        }
    }

    /** GitHub's hosted runner for each OS, where neither the JDK entry nor the caller names one. */
    public static final Map<String, String> HOSTED_RUNNERS =
            Map.of("linux", "ubuntu-latest", "windows", "windows-latest");

    private record Setup(String runsOn, String os, String distribution, String javaVersion) {
        static Setup of(Cell cell, Map<String, String> runners) {
            String os = cell.coordinates().os();
            boolean onHost = os.equals("windows");
            Map<String, String> setupJava = cell.jdk().setupJava();
            return new Setup(
                    // the JDK entry's runsOn (a self-hosted machine, say), else the caller's runner for the OS
                    // (the reusable workflow's inputs), else GitHub's hosted runner
                    cell.jdk()
                            .runsOn()
                            .getOrDefault(
                                    os, runners.getOrDefault(os, HOSTED_RUNNERS.getOrDefault(os, "ubuntu-latest"))),
                    os,
                    onHost ? setupJava.getOrDefault("distribution", "") : "",
                    onHost ? setupJava.getOrDefault("java-version", "") : "");
        }
    }

    private GithubJobs() {}

    public static List<Job> of(List<Cell> plan, int maxJobs) {
        return of(plan, maxJobs, Map.of());
    }

    /** @param runners the runner label per OS ({@code linux}, {@code windows}) for JDK entries that name none */
    public static List<Job> of(List<Cell> plan, int maxJobs, Map<String, String> runners) {
        if (maxJobs < 1) {
            throw new IllegalArgumentException("--max-jobs must be at least 1, got " + maxJobs);
        }
        if (plan.size() <= maxJobs) {
            return plan.stream()
                    .map(cell -> job(cell.id(), Setup.of(cell, runners), List.of(cell)))
                    .toList();
        }
        Map<Setup, List<Cell>> groups = new LinkedHashMap<>();
        plan.forEach(cell -> groups.computeIfAbsent(Setup.of(cell, runners), s -> new ArrayList<>())
                .add(cell));
        if (groups.size() > maxJobs) {
            throw new IllegalArgumentException(("the plan's %d cells need %d different runner and JDK set-ups,"
                            + " more than --max-jobs %d allows; raise it or split the matrix with --shard")
                    .formatted(plan.size(), groups.size(), maxJobs));
        }
        Map<Setup, Integer> shardCounts = shardCounts(groups, maxJobs);
        List<Job> jobs = new ArrayList<>();
        groups.forEach((setup, cells) -> {
            int count = shardCounts.get(setup);
            List<List<Cell>> shards = Shards.split(cells, count);
            for (int i = 0; i < count; i++) {
                List<Cell> mine = shards.get(i);
                List<Cell> inPlanOrder = cells.stream().filter(mine::contains).toList();
                String name = "%s%s %d/%d (%d cells)"
                        .formatted(
                                setup.os(),
                                setup.distribution().isEmpty()
                                        ? ""
                                        : " " + setup.distribution() + "-" + setup.javaVersion(),
                                i + 1,
                                count,
                                inPlanOrder.size());
                jobs.add(job(name, setup, inPlanOrder));
            }
        });
        return jobs;
    }

    private static Job job(String name, Setup setup, List<Cell> cells) {
        long cellMinutes = cells.stream()
                .mapToLong(c -> (c.timeout().toSeconds() + 59) / 60)
                .sum();
        int timeout = (int) Math.min(HOSTED_JOB_LIMIT_MINUTES, SETUP_MINUTES + cellMinutes);
        return new Job(name, setup.runsOn(), setup.os(), setup.distribution(), setup.javaVersion(), cells, timeout);
    }

    /**
     * One shard per group, then each further job to the group whose shards are the longest on average
     * (never more shards than cells): the slowest job, which the run waits for, is as short as it gets.
     */
    private static Map<Setup, Integer> shardCounts(Map<Setup, List<Cell>> groups, int maxJobs) {
        Map<Setup, Integer> counts = new LinkedHashMap<>();
        Map<Setup, Double> cost = new LinkedHashMap<>();
        groups.forEach((setup, cells) -> {
            counts.put(setup, 1);
            cost.put(setup, cells.stream().mapToDouble(CostModel::estimateMs).sum());
        });
        for (int spare = maxJobs - groups.size(); spare > 0; spare--) {
            groups.keySet().stream()
                    .filter(s -> counts.get(s) < groups.get(s).size())
                    .max(Comparator.comparingDouble(s -> cost.get(s) / counts.get(s)))
                    .ifPresent(s -> counts.merge(s, 1, Integer::sum));
        }
        return counts;
    }
}
