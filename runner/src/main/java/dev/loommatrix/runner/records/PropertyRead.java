package dev.loommatrix.runner.records;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import java.util.List;
import java.util.Optional;

/**
 * What the agent saw of one of the variant's own system properties in one JVM: whether anything read it, the
 * first class of the code under test that listed all the properties, if one did (it may read any from its
 * copy), the JMH generated classes of the benchmarks it was read under, and whether it was read outside any.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record PropertyRead(boolean read, Optional<String> listedBy, List<String> readDuring, boolean readElsewhere) {
    public PropertyRead {
        listedBy = listedBy == null ? Optional.empty() : listedBy;
        readDuring = readDuring == null ? List.of() : List.copyOf(readDuring);
    }

    /** Read by name (or not), as an agent that does not say under which benchmark. */
    public PropertyRead(boolean read, Optional<String> listedBy) {
        this(read, listedBy, List.of(), read);
    }
}
