package dev.loommatrix.harness.workload;

import java.util.List;
import java.util.Optional;

/** Every workload the harness knows, by id. */
public final class Catalogue {

    private static final List<Workload> ALL =
            List.of(new SleepBound(), new MassStart(), new PrimesIo(), new FibFanout());

    private Catalogue() {}

    public static List<Workload> all() {
        return ALL;
    }

    public static Optional<Workload> find(String id) {
        return ALL.stream().filter(w -> w.id().equals(id)).findFirst();
    }
}
