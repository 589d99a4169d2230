package dev.loommatrix.runner.records;

import dev.loommatrix.core.matrix.ServiceLoad;
import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.result.Benchmark;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** What a service's load run becomes: the generator's report at each load level as samples. */
final class ServiceResults {

    private ServiceResults() {}

    /**
     * One repetition of a service: a sample per load level with the generator's figures and the server JVM's own
     * use. A level the generator could not drive honestly (saturated, or short of the asked rate) makes the
     * variant invalid, never an ok number. A capacity search's repetition is one sample ({@link CapacityResults}).
     *
     * @param serverCpus the cell's CPU quota, which the server's CPU use is held against
     */
    static void add(
            UserWorkload.Service service,
            String variant,
            LoadLine load,
            int index,
            Map<String, Object> common,
            double serverCpus,
            BenchmarkSeries out) {
        if (load == null) {
            out.problem("run " + (index + 1) + " has no load report (see the cell log)");
            return;
        }
        if (load.capacity().isPresent()) {
            CapacityResults.add(service, variant, load, index, common, serverCpus, out);
            return;
        }
        Map<String, String> units = new LinkedHashMap<>();
        ServiceLoad.METRICS.forEach(m -> units.put(m.name(), m.unit()));
        String name = service.load().requests();
        for (LoadReport report : load.levels()) {
            report.invalid(service.load().maxShortfall()).ifPresent(out::problem);
            Map<String, Object> sample = new LinkedHashMap<>(common);
            sample.putAll(report.metrics());
            // a built-in service's bound (Little's law), named as the http-server workload names it
            Double bound = service.throughputBounds().get(variant);
            if (bound != null) {
                sample.put("throughputBoundPerSecond", bound);
                sample.put("throughputEfficiency", report.throughput() / bound);
            }
            Benchmark benchmark =
                    new Benchmark(name, Optional.empty(), Map.of("load", report.level()), units, Map.of());
            out.add(benchmark, service.load().judgedBy(), sample);
        }
    }
}
