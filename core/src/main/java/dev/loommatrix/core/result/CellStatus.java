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
    SKIPPED,
    /**
     * The cell ran, but its numbers measure something other than what it asks (a service's load generator
     * saturated, or fell short of the asked rate): kept with the reason, never shown as an ok result.
     */
    @JsonProperty("invalid")
    INVALID;

    /** The word the results files use. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Failed, timed out or invalid: {@code --retry-failed} runs it again, and the run's exit code is 3. */
    public boolean isFailure() {
        return this == FAILED || this == TIMEOUT || this == INVALID;
    }
}
