package dev.loommatrix.core.result;

import dev.loommatrix.core.stats.Speedup;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Virtual threads against each other variant of a cell, computed once when the record is made. */
public final class Speedups {

    private Speedups() {}

    public static List<Speedup> of(String cellId, List<Measurement> measurements) {
        Optional<Measurement> virtual = measurements.stream()
                .filter(m -> m.variant().equals(Speedup.VIRTUAL))
                .findFirst();
        List<Speedup> out = new ArrayList<>();
        if (virtual.isEmpty()) {
            return out;
        }
        double[] v = virtual.get().judged();
        for (Measurement other : measurements) {
            if (other == virtual.get()) {
                continue;
            }
            double[] o = other.values(virtual.get().metric().name());
            if (v.length == 0 || o.length == 0) {
                continue;
            }
            long seed = (cellId + "/" + other.variant()).hashCode();
            out.add(Speedup.of(other.variant(), virtual.get().metric(), v, o, seed));
        }
        return out;
    }
}
