package dev.loommatrix.core.result;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One repetition of a variant: its numbers ({@code wallMs}, {@code processMs} and every metric the
 * workload recorded) and its other facts (text or structured, e.g. where pinning happened). Written flat,
 * as one JSON object, the way the results format has always had it.
 */
public record Sample(@JsonIgnore Map<String, Number> metrics, @JsonIgnore Map<String, Object> facts) {

    public Sample {
        metrics = Map.copyOf(metrics);
        facts = Map.copyOf(facts);
        for (String name : metrics.keySet()) {
            if (facts.containsKey(name)) {
                throw new IllegalArgumentException("'" + name + "' is both a metric and a fact");
            }
        }
    }

    /** Numbers become metrics, everything else facts; a NaN or infinite number is not a measurement. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static Sample of(Map<String, Object> flat) {
        Map<String, Number> metrics = new TreeMap<>();
        Map<String, Object> facts = new TreeMap<>();
        flat.forEach((name, value) -> {
            if (value instanceof Number n && Double.isFinite(n.doubleValue())) {
                metrics.put(name, n); // kept as written: a count stays an integer in the file
            } else if (value != null && !(value instanceof Number)) {
                facts.put(name, value);
            }
        });
        return new Sample(metrics, facts);
    }

    public Optional<Double> metric(String name) {
        return Optional.ofNullable(metrics.get(name)).map(Number::doubleValue);
    }

    /** This sample with one more metric (e.g. the driver's process time beside the harness's numbers). */
    public Sample with(String name, double value) {
        Map<String, Number> more = new TreeMap<>(metrics);
        more.put(name, value);
        Map<String, Object> rest = new TreeMap<>(facts);
        rest.remove(name);
        return new Sample(more, rest);
    }

    @JsonAnyGetter
    public Map<String, Object> flat() {
        Map<String, Object> flat = new TreeMap<>(facts);
        flat.putAll(metrics);
        return flat;
    }
}
