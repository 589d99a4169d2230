package dev.loommatrix.core.result;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Where a run stands, as run.json says ({@code status}). */
public enum RunStatus {
    /** Cells are still being run (or the runner was killed without warning). */
    @JsonProperty("running")
    RUNNING,
    /** Every planned cell has a record. */
    @JsonProperty("finished")
    FINISHED,
    /** Stopped by Ctrl-C: every finished cell kept, the interrupted one has no record. */
    @JsonProperty("interrupted")
    INTERRUPTED,
    /** Merged from shards of which some did not finish. */
    @JsonProperty("partial")
    PARTIAL;

    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
