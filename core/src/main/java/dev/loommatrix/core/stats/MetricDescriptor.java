package dev.loommatrix.core.stats;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * What a number in a sample is: its name, its unit and which way is better. Carried in the results
 * (each measurement names the metric it is judged by), so compare, the dashboard, trends and Grafana
 * read the direction from the data instead of knowing workloads by name.
 */
public record MetricDescriptor(String name, String unit, Direction direction) {

    public MetricDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(direction, "direction");
    }

    public enum Direction {
        @JsonProperty("lower")
        LOWER_IS_BETTER("lower"),
        @JsonProperty("higher")
        HIGHER_IS_BETTER("higher");

        private final String word;

        Direction(String word) {
            this.word = word;
        }

        /** The word the results, the CSV export and the database use. */
        public String word() {
            return word;
        }
    }

    public boolean higherIsBetter() {
        return direction == Direction.HIGHER_IS_BETTER;
    }

    /** The workload's own time inside the JVM (JVM start-up excluded): the default headline. */
    public static final MetricDescriptor WALL_MS = new MetricDescriptor("wallMs", "ms", Direction.LOWER_IS_BETTER);

    /**
     * A fork's first iteration when it ran the workload more than once: the cold start (class loading, JIT,
     * the first carriers or pool threads), reported apart from the steady state {@link #WALL_MS} then is.
     */
    public static final MetricDescriptor COLD_START_MS =
            new MetricDescriptor("coldStartMs", "ms", Direction.LOWER_IS_BETTER);

    /** The whole JVM process as the driver (hyperfine) timed it. */
    public static final MetricDescriptor PROCESS_MS =
            new MetricDescriptor("processMs", "ms", Direction.LOWER_IS_BETTER);

    /** Requests completed per second in a fixed-duration load test. */
    public static final MetricDescriptor THROUGHPUT =
            new MetricDescriptor("throughputPerSecond", "req/s", Direction.HIGHER_IS_BETTER);
}
