package dev.loommatrix.harness.workload;

import java.util.List;
import java.util.Optional;

/** Every workload the harness knows, by id. */
public final class Catalogue {

    private static final List<Workload> ALL = List.of(
            new MassStart(),
            new SleepBound(),
            new PrimesIo(),
            new FibFanout(),
            new Pinning(),
            new EchoServer(),
            new HttpServerLoad(),
            new PingPong(),
            new ThreadLocalCache(),
            new Footprint());

    private Catalogue() {}

    public static List<Workload> all() {
        return ALL;
    }

    public static Optional<Workload> find(String id) {
        return ALL.stream().filter(w -> w.id().equals(id)).findFirst();
    }
}
