package dev.loommatrix.harness;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/** A workload's parameters: its declared defaults overridden by {@code --param k=v}. Unknown names are errors. */
public record Params(Map<String, Long> values) {

    public Params {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public static Params of(Map<String, Long> defaults, Map<String, String> given) {
        Map<String, Long> merged = new LinkedHashMap<>(defaults);
        for (var entry : given.entrySet()) {
            if (!defaults.containsKey(entry.getKey())) {
                throw new IllegalArgumentException("unknown parameter '" + entry.getKey() + "' (known: "
                        + String.join(", ", new TreeSet<>(defaults.keySet())) + ")");
            }
            try {
                long value = Long.parseLong(entry.getValue());
                if (value < 0) {
                    throw new IllegalArgumentException(
                            "parameter '" + entry.getKey() + "' must not be negative, got " + value);
                }
                merged.put(entry.getKey(), value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "parameter '" + entry.getKey() + "' must be a whole number, got '" + entry.getValue() + "'", e);
            }
        }
        return new Params(merged);
    }

    public long get(String name) {
        Long value = values.get(name);
        if (value == null) {
            throw new IllegalStateException("no parameter " + name);
        }
        return value;
    }

    public int getInt(String name) {
        return Math.toIntExact(get(name));
    }
}
