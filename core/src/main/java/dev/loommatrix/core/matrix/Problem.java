package dev.loommatrix.core.matrix;

import java.util.Optional;

/** One thing wrong with a matrix file, at a 1-based line and column, with a hint where one helps. */
public record Problem(String file, int line, int column, String message, Optional<String> hint) {

    /** A place in the matrix file, kept for a problem that can only be found after reading it. */
    public record Where(String file, int line, int column) {
        public Problem problem(String message, String hint) {
            return new Problem(file, line, column, message, Optional.ofNullable(hint));
        }
    }

    public String format() {
        String text = file + ":" + line + ":" + column + ": error: " + message;
        return hint.map(h -> text + "\n  hint: " + h).orElse(text);
    }
}
