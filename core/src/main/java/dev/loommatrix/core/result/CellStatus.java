package dev.loommatrix.core.result;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How a cell ended, as its record says ({@code status}). */
public enum CellStatus {
    @JsonProperty("ok")
    OK,
    @JsonProperty("failed")
    FAILED,
    @JsonProperty("timeout")
    TIMEOUT,
    @JsonProperty("skipped")
    SKIPPED;

    /** The word the results files use. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Failed or timed out: {@code --retry-failed} runs it again, and the run's exit code is 3. */
    public boolean isFailure() {
        return this == FAILED || this == TIMEOUT;
    }
}
