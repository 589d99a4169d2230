package dev.loommatrix.core.result;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Which of a user workload's benchmarks a measurement is: a JMH benchmark ({@code class.method}, its mode
 * and {@code @Param} values) or a benchmark a program reported in Bencher Metric Format. A variant of a
 * user workload has one measurement per benchmark; built-in workloads have none of these.
 *
 * @param params the {@code @Param} values every variant ran with: with the name, what pairs variants
 * @param units the unit of every other number in the samples that has one (JMH's secondary metrics)
 * @param variantParams the {@code @Param} values this variant set itself (e.g. {@code threadType=VIRTUAL}):
 *     they are the variant, so they are not part of what pairs it with the others
 * @param method the benchmark method this variant ran, where the variant names its method ({@code
 *     synchronizedBlock} beside another variant's {@code reentrantLock}): the name is then the class, which pairs
 *     the variants, and the method is the variant's, as its own @Params are
 */
public record Benchmark(
        String name,
        Optional<String> mode,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> params,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> units,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> variantParams,
        @JsonInclude(JsonInclude.Include.NON_ABSENT) Optional<String> method) {

    /** A benchmark every variant runs under its own name (no variant names its method). */
    public Benchmark(
            String name,
            Optional<String> mode,
            Map<String, String> params,
            Map<String, String> units,
            Map<String, String> variantParams) {
        this(name, mode, params, units, variantParams, Optional.empty());
    }

    /** The name JMH gave it: {@code class.method}, the method being the variant's where it names one. */
    public String jmhName() {
        return method.map(m -> name + "." + m).orElse(name);
    }

    public Benchmark {
        method = method == null ? Optional.empty() : method;
        variantParams =
                variantParams == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(variantParams));
        params = params == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(params));
        units = units == null ? Map.of() : java.util.Collections.unmodifiableMap(new TreeMap<>(units));
        mode = mode == null ? Optional.empty() : mode;
    }

    /** {@code name} with its parameters, as JMH prints a row: {@code Bench.run(poolSize=50, threadType=VIRTUAL)}. */
    public String label() {
        if (params.isEmpty()) {
            return name;
        }
        StringBuilder text = new StringBuilder(name).append('(');
        params.forEach((k, v) -> text.append(text.charAt(text.length() - 1) == '(' ? "" : ", ")
                .append(k)
                .append('=')
                .append(v));
        return text.append(')').toString();
    }
}
