package dev.loommatrix.core.matrix;

/**
 * How often a built-in workload runs inside each of a cell's fresh JVMs (the JMH model: repetitions are the
 * forks, these the iterations of each fork): {@code warmup} iterations discarded, then {@code measure}
 * iterations whose median is the fork's value. The first iteration of each fork is its cold start, recorded
 * apart. The default, one measured iteration, is a single cold run per JVM.
 */
public record Iterations(int warmup, int measure) {

    public static final Iterations ONCE = new Iterations(0, 1);

    public Iterations {
        if (warmup < 0 || measure < 1) {
            throw new IllegalArgumentException("iterations: warmup ≥ 0, measure ≥ 1, got " + warmup + ":" + measure);
        }
    }

    public int total() {
        return warmup + measure;
    }

    /** What the harness's {@code --iterations} takes. */
    public String argument() {
        return warmup + ":" + measure;
    }
}
