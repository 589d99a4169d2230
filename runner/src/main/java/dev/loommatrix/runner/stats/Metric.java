package dev.loommatrix.runner.stats;

/**
 * The sample metric a workload is judged by: its own time ({@code wallMs}, lower is better), or for a
 * fixed-duration load test ({@code http-server}) its throughput (higher is better).
 */
public record Metric(String name, boolean higherIsBetter) {

    public static Metric of(String workload) {
        return workload.equals("http-server") ? new Metric("throughputPerSecond", true) : new Metric("wallMs", false);
    }
}
