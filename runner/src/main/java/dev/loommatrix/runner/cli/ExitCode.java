package dev.loommatrix.runner.cli;

/** The exit codes users script against (docs/contracts.md). */
public enum ExitCode {
    OK(0, "ok"),
    INTERNAL_ERROR(1, "internal error (--verbose shows the stack trace)"),
    USAGE_OR_MATRIX_ERROR(2, "usage or matrix error"),
    CELLS_FAILED(3, "the run finished but some cells failed (skipped cells are not failures)"),
    REGRESSION(4, "compare (or ab) found a significant regression (ab: a confirmed one)"),
    /** --require-verdict: a comparison the data could not decide (inconclusive). */
    NO_VERDICT(5, "with --require-verdict, a comparison was inconclusive"),
    /** --no-wait: another run holds this host's measurement lock (issue #32). */
    BUSY(6, "with --no-wait, another run was measuring on this host");

    public final int code;

    /** What the code means, as {@code --help} lists it. */
    public final String meaning;

    ExitCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    /** Every code and its meaning, in order: the help's list, from this one source. */
    static java.util.Map<String, String> helpList() {
        java.util.Map<String, String> list = new java.util.LinkedHashMap<>();
        for (ExitCode c : values()) {
            list.put(String.valueOf(c.code), c.meaning);
        }
        return list;
    }
}
