package dev.loommatrix.runner.cli;

/** The exit codes users script against (docs/contracts.md). */
public enum ExitCode {
    OK(0),
    INTERNAL_ERROR(1),
    USAGE_OR_MATRIX_ERROR(2),
    CELLS_FAILED(3),
    REGRESSION(4),
    /** --require-verdict: a comparison the data could not decide (inconclusive). */
    NO_VERDICT(5),
    /** --no-wait: another run holds this host's measurement lock (issue #32). */
    BUSY(6);

    public final int code;

    ExitCode(int code) {
        this.code = code;
    }
}
